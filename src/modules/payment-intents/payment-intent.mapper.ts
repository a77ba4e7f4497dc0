import { minorFromColumn, toMajorUnits } from '../../common/money/money';
import type { InboundPaymentDto, PaymentIntentDto } from './dto/payment-intent.response';
import type { ReturnReason } from './inbound-payment.entity';
import type { PaymentIntentStatus } from './payment-intent.states';

/** A payment as the intent's row carries it (`json_agg`, so timestamps are strings). */
export interface PaymentRecord {
  id: string;
  amount: number;
  sender_bank_name: string;
  sender_account_number: string;
  status: 'accepted' | 'returned';
  return_reason: ReturnReason | null;
  received_at: string;
}

/** The columns every read of an intent selects, its payments included. */
export interface PaymentIntentRecord {
  id: string;
  merchant_reference: string;
  amount: string;
  currency: string;
  status: PaymentIntentStatus;
  amount_received: string;
  expected_sender_bank_name: string | null;
  expected_sender_account_number: string | null;
  account_number: string;
  account_name: string;
  bank_name: string;
  bank_code: string;
  expires_at: Date;
  funded_at: Date | null;
  confirmed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  payments: PaymentRecord[];
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

function mapPayment(payment: PaymentRecord, currency: string): InboundPaymentDto {
  return {
    paymentId: payment.id,
    amount: toMajorUnits(payment.amount, currency),
    senderBankName: payment.sender_bank_name,
    senderAccountNumber: payment.sender_account_number,
    status: payment.status,
    returnReason: payment.return_reason,
    receivedAt: new Date(payment.received_at).toISOString(),
  };
}

export function mapPaymentIntent(row: PaymentIntentRecord): PaymentIntentDto {
  return {
    paymentIntentId: row.id,
    merchantReference: row.merchant_reference,
    amount: toMajorUnits(minorFromColumn(row.amount), row.currency),
    currency: row.currency,
    status: row.status,
    amountReceived: toMajorUnits(minorFromColumn(row.amount_received), row.currency),
    expectedSenderBankName: row.expected_sender_bank_name,
    expectedSenderAccountNumber: row.expected_sender_account_number,
    virtualAccount: { accountNumber: row.account_number, accountName: row.account_name, bankName: row.bank_name, bankCode: row.bank_code },
    payments: row.payments.map((payment) => mapPayment(payment, row.currency)),
    expiresAt: row.expires_at.toISOString(),
    fundedAt: iso(row.funded_at),
    confirmedAt: iso(row.confirmed_at),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** What a new intent is inserted with. */
export interface NewPaymentIntent {
  id: string;
  merchantId: string;
  merchantReference: string;
  amount: number;
  currency: string;
  expectedSenderBankName: string | null;
  expectedSenderAccountNumber: string | null;
  virtualAccountId: string;
  accountNumber: string;
  accountName: string;
  bankName: string;
  bankCode: string;
  expiresAt: Date;
  createdAt: Date;
}

/** A new intent as the answer shows it, from the values it is inserted with (no payments yet). */
export function mapNewPaymentIntent(intent: NewPaymentIntent): PaymentIntentDto {
  return mapPaymentIntent({
    id: intent.id,
    merchant_reference: intent.merchantReference,
    amount: String(intent.amount),
    currency: intent.currency,
    status: 'awaiting_payment',
    amount_received: '0',
    expected_sender_bank_name: intent.expectedSenderBankName,
    expected_sender_account_number: intent.expectedSenderAccountNumber,
    account_number: intent.accountNumber,
    account_name: intent.accountName,
    bank_name: intent.bankName,
    bank_code: intent.bankCode,
    expires_at: intent.expiresAt,
    funded_at: null,
    confirmed_at: null,
    created_at: intent.createdAt,
    updated_at: intent.createdAt,
    payments: [],
  });
}
