import { minorFromColumn, toMajorUnits } from '../../common/money/money';
import type { WithdrawalDto } from './dto/withdrawal.response';
import type { WithdrawalEntity } from './withdrawal.entity';

export type WithdrawalRecord = Omit<WithdrawalEntity, 'merchant' | 'seq' | 'merchantId' | 'railPayoutId'>;

export function mapWithdrawal(row: WithdrawalRecord): WithdrawalDto {
  return {
    withdrawalId: row.id,
    merchantReference: row.merchantReference,
    amount: toMajorUnits(minorFromColumn(row.amount), row.currency),
    fee: toMajorUnits(minorFromColumn(row.fee), row.currency),
    currency: row.currency,
    status: row.status,
    bankCode: row.bankCode,
    accountNumber: row.accountNumber,
    accountName: row.accountName,
    narration: row.narration,
    failureCode: row.failureCode,
    failureMessage: row.failureMessage,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    completedAt: row.completedAt === null ? null : row.completedAt.toISOString(),
  };
}
