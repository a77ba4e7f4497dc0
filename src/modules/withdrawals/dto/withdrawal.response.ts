import type { ErrorCode } from '../../../common/errors/error-codes';
import { idempotencyErrors } from '../../idempotency';
import { ApiProperty } from '@nestjs/swagger';
import { WITHDRAWAL_STATES } from '../withdrawal.states';

export class WithdrawalDto {
  @ApiProperty({ example: 'wd_0a1b2c3d4e5f60718293a4b5', pattern: '^wd_[0-9a-f]{24}$' })
  withdrawalId: string;

  @ApiProperty({ example: 'payout-2026-11-20' })
  merchantReference: string;

  @ApiProperty({ example: 25000 })
  amount: number;

  @ApiProperty({ example: 0, description: 'Flat fee of this deployment, reserved and charged on top of `amount`' })
  fee: number;

  @ApiProperty({ example: 'NGN', enum: ['NGN'] })
  currency: string;

  @ApiProperty({ enum: WITHDRAWAL_STATES.states })
  status: string;

  @ApiProperty({ example: '058' })
  bankCode: string;

  @ApiProperty({ example: '0123456785' })
  accountNumber: string;

  @ApiProperty({ example: 'Acme Stores Ltd' })
  accountName: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  narration: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Set when `failed`: `account_not_found`, `payout_returned`, `payout_rejected`' })
  failureCode: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  failureMessage: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiProperty({ format: 'date-time', type: String, nullable: true, description: 'When the payout ended (`succeeded` or `failed`)' })
  completedAt: string | null;
}

export class WithdrawalEnvelopeDto {
  @ApiProperty({ example: 'Withdrawal created' })
  message: string;

  @ApiProperty({ type: WithdrawalDto })
  response: WithdrawalDto;
}

export class WithdrawalListEnvelopeDto {
  @ApiProperty({ example: 'Withdrawals retrieved' })
  message: string;

  @ApiProperty({ type: [WithdrawalDto] })
  response: WithdrawalDto[];
}

export class BankDto {
  @ApiProperty({ example: '058' })
  bankCode: string;

  @ApiProperty({ example: 'Guaranty Trust Bank' })
  name: string;
}

export class BankListEnvelopeDto {
  @ApiProperty({ example: 'Banks retrieved' })
  message: string;

  @ApiProperty({ type: [BankDto] })
  response: BankDto[];
}

export const WITHDRAWAL_EXAMPLE: WithdrawalDto = {
  withdrawalId: 'wd_0a1b2c3d4e5f60718293a4b5',
  merchantReference: 'payout-2026-11-20',
  amount: 25000,
  fee: 0,
  currency: 'NGN',
  status: 'processing',
  bankCode: '058',
  accountNumber: '0123456785',
  accountName: 'Acme Stores Ltd',
  narration: null,
  failureCode: null,
  failureMessage: null,
  createdAt: '2026-11-20T09:50:00.000Z',
  updatedAt: '2026-11-20T09:50:00.000Z',
  completedAt: null,
};

/** What creating a withdrawal may refuse, from the merchant API or the dashboard. */
export const CREATE_WITHDRAWAL_ERRORS = [
  'account_number_invalid',
  ...idempotencyErrors('required'),
  'merchant_reference_in_use',
  'insufficient_funds',
] as const satisfies readonly ErrorCode[];
