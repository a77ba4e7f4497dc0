import type { CallOptions } from '../../common/providers/provider-http-client';
import type { RailHoldings, RailLeg, Recipient } from './bridge-rail';

export interface ForeignPayoutRequest {
  /** Our international payment intent id: the idempotency key, so the recipient is never paid twice. */
  reference: string;
  currency: string;
  /** Minor units of `currency`. */
  amount: number;
  recipient: Recipient;
  purposeOfTransfer: string;
  /** Shown to the recipient (remittance information); null when the merchant gave none. */
  paymentReference: string | null;
  /** The paying business, as the ordering customer. */
  orderingCustomer: { name: string; country: string };
}

/**
 * The payout confirmation, in the fields of a SWIFT MT103 (tag in brackets); the rail gives one
 * for every completed payout, whatever its route.
 */
export interface PayoutConfirmation {
  /** Unique end-to-end transaction reference (field 121), a UUID. */
  uetr: string;
  /** :20: sender's reference. */
  senderReference: string;
  /** :23B: bank operation code, `CRED`. */
  bankOperationCode: string;
  /** :32A: value date (YYYY-MM-DD), currency and amount (a decimal string). */
  valueDate: string;
  currency: string;
  amount: string;
  /** :50K: ordering customer. */
  orderingCustomer: string;
  /** :57A: account with institution (the recipient's bank code). */
  accountWithInstitution: string;
  /** :59: beneficiary customer: account and name. */
  beneficiaryAccount: string;
  beneficiaryName: string;
  /** :70: remittance information. */
  remittanceInformation: string;
  /** :71A: details of charges (`OUR`, `SHA`, `BEN`). */
  detailsOfCharges: string;
}

/** `returned`: cancelled, failed or recalled, its money back at the bridge side. */
export type ForeignPayoutStatus = 'processing' | 'completed' | 'failed' | 'returned';

/** A payout: `sent` is what the recipient is paid, in the payout's currency; `failureCode` e.g. `beneficiary_account_closed`. */
export interface ForeignPayout extends RailLeg<ForeignPayoutStatus> {
  /** Set when `completed`. */
  confirmation: PayoutConfirmation | null;
}

export type PayoutEvent =
  | { id: string; type: 'payout.completed' | 'payout.failed' | 'payout.returned' | 'payout.return_refused'; payout: ForeignPayout }
  /** A type this version does not act on: acknowledged and recorded. */
  | { id: string; type: 'other'; name: string };

/** The payout rail: pays the recipient abroad in the destination currency. */
export interface PayoutRail {
  /** Creates the payout, or answers the one already created under `reference`. */
  createPayout(request: ForeignPayoutRequest, options: CallOptions): Promise<ForeignPayout>;
  /** The payout created under `reference`; null when there is none. */
  getPayout(reference: string, options: CallOptions): Promise<ForeignPayout | null>;
  /** Asks for the payout's money back to the bridge side, whatever became of it, once per reference. */
  returnPayout(reference: string, options: CallOptions): Promise<ForeignPayout>;
  /** What the rail holds for us now: payouts not paid yet, failed ones' money, paid ones being recalled. */
  holdings(options: CallOptions): Promise<RailHoldings<ForeignPayout>>;
  /** An event as the rail's signed callback delivers it; throws ProviderError when it is not one. */
  parseEvent(body: unknown): PayoutEvent;
}

export const PAYOUT_RAIL = Symbol('PAYOUT_RAIL');
