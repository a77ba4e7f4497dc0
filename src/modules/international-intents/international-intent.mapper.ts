import { RECEIPTS_PATH } from './international-intents.routes';
import { minorFromColumn, toMajorUnits } from '../../common/money/money';
import type { InternationalIntentDto, TimelineEntryDto } from './dto/international-intent.response';
import type { InternationalIntentEntity } from './international-intent.entity';
import { PIPELINE_ORDER } from './international-intent.states';

export type InternationalIntentRecord = Omit<
  InternationalIntentEntity,
  'merchant' | 'seq' | 'merchantId' | 'bridgeTransferId' | 'payoutId' | 'payoutConfirmation'
>;

/** The receipt exists once the money arrived. */
export function hasReceipt(row: Pick<InternationalIntentRecord, 'status'>): boolean {
  return row.status === 'settled';
}

/** The payout confirmation exists from `withdrawal_confirmed` on, and is a telex for swift recipients only. */
export function hasTelex(row: Pick<InternationalIntentRecord, 'status' | 'bankCodeType'>): boolean {
  return row.bankCodeType === 'swift' && PIPELINE_ORDER.indexOf(row.status) >= PIPELINE_ORDER.indexOf('withdrawal_confirmed');
}

export function receiptUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}${RECEIPTS_PATH}/${token}`;
}

export function telexUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}${RECEIPTS_PATH}/${token}/telex`;
}

export function mapInternationalIntent(row: InternationalIntentRecord, publicBaseUrl: string): InternationalIntentDto {
  const date = (value: Date | null) => (value === null ? null : value.toISOString());
  return {
    intentId: row.id,
    status: row.status,
    quoteId: row.quoteId,
    quoteOptionId: row.quoteOptionId,
    poboUserId: row.poboUserId,
    ...(row.paymentReference !== null && { paymentReference: row.paymentReference }),
    routeType: row.routeType,
    destinationCountry: row.destinationCountry,
    amount: toMajorUnits(minorFromColumn(row.amount), row.currency),
    currency: row.currency,
    sourceAmount: toMajorUnits(minorFromColumn(row.sourceAmount), row.sourceCurrency),
    sourceCurrency: row.sourceCurrency,
    recipientFullName: row.recipientFullName,
    ...(row.recipientEmail !== null && { recipientEmail: row.recipientEmail }),
    bankCode: row.bankCode,
    bankCodeType: row.bankCodeType,
    ...(row.accountNumber !== null && { accountNumber: row.accountNumber }),
    purposeOfTransfer: row.purposeOfTransfer,
    ...(row.adminNote !== null && { adminNote: row.adminNote }),
    quoteExpiresAt: row.quoteExpiresAt.toISOString(),
    processedAt: date(row.processedAt),
    settledAt: date(row.settledAt),
    ...(hasReceipt(row) && { receiptUrl: receiptUrl(publicBaseUrl, row.receiptToken) }),
    ...(hasTelex(row) && { telexUrl: telexUrl(publicBaseUrl, row.receiptToken) }),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One move of an intent, from its status history. */
export interface TimelineRow {
  fromStatus: string;
  toStatus: string;
  cause: string;
  createdAt: Date;
}

export function mapTimelineEntry(row: TimelineRow): TimelineEntryDto {
  return { status: row.toStatus, previousStatus: row.fromStatus, cause: row.cause, at: row.createdAt.toISOString() };
}
