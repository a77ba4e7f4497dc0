import type { BankCodeType } from '../../common/banking/recipient-bank';
import type { CallOptions } from '../../common/providers/provider-http-client';
import type { RouteType } from './rate-provider';

/** The recipient abroad, as both cross-border legs need it. */
export interface Recipient {
  fullName: string;
  email: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
  bankCodeType: BankCodeType;
  /** A BIC, an IBAN (for `iban`), a 9-digit ABA routing number, or another local code. */
  bankCode: string;
  /** Null for `iban`, where the IBAN is the account. */
  accountNumber: string | null;
}

export interface BridgeTransferRequest {
  /** Our international payment intent id: the idempotency key, so the leg is never started twice. */
  reference: string;
  routeType: RouteType;
  /** NGN leaving us, in kobo (the fee is not part of it). */
  sourceAmount: number;
  destinationCurrency: string;
  /** What the recipient receives, in minor units of `destinationCurrency`. */
  destinationAmount: number;
  recipient: Recipient;
}

/**
 * `in_review` while the rail's compliance review holds it, before any conversion; `pending` until
 * the leg completes; `rejected` by the rail's compliance screening; `returned` once its money was
 * given back.
 */
export type BridgeTransferStatus = 'in_review' | 'pending' | 'completed' | 'rejected' | 'returned';

/**
 * A return of the money a rail holds for one of our payments, once asked for: `pending`, then
 * `completed` with `amount` (the bridge rail: NGN in kobo; the payout rail: minor units of the
 * payout's currency, back at the bridge side) or `refused`.
 */
export interface RailReturn {
  status: 'pending' | 'completed' | 'refused';
  amount: number | null;
  failureCode: string | null;
}

/** An amount of money at a rail, in minor units of `currency`. */
export interface RailAmount {
  currency: string;
  amount: number;
}

/** What both rails answer of one of their legs (a transfer, a payout) under our reference. */
export interface RailLeg<S extends string> {
  id: string;
  reference: string;
  status: S;
  /** Why it failed, when it did, e.g. `compliance_rejected`. */
  failureCode: string | null;
  failureMessage: string | null;
  /** What we sent the rail under this reference. */
  sent: RailAmount;
  /** Null until a return is asked for. */
  return: RailReturn | null;
  /** When its status or its return last changed. */
  updatedAt: Date;
}

/** What a rail holds for us (for the reconciliation of the ledger with it): its total per currency, and the legs holding part of it. */
export interface RailHoldings<T> {
  balances: RailAmount[];
  open: T[];
}

/** A bridge transfer: `sent` is the NGN that left us. */
export type BridgeTransfer = RailLeg<BridgeTransferStatus>;

export type BridgeEvent =
  | { id: string; type: 'transfer.completed' | 'transfer.rejected' | 'transfer.returned' | 'transfer.return_refused'; transfer: BridgeTransfer }
  /** A type this version does not act on: acknowledged and recorded. */
  | { id: string; type: 'other'; name: string };

/** The bridge rail: converts NGN into the destination currency (directly, or through USDC) and delivers it to the payout rail's side. */
export interface BridgeRail {
  /** Creates the transfer, or answers the one already created under `reference`. */
  createTransfer(request: BridgeTransferRequest, options: CallOptions): Promise<BridgeTransfer>;
  /** The transfer created under `reference`; null when there is none. */
  getTransfer(reference: string, options: CallOptions): Promise<BridgeTransfer | null>;
  /**
   * Asks for the transfer's money back in NGN (all that was sent if nothing was converted yet,
   * else converted back at the rail's rate of the moment), once per reference: a retry answers the
   * return as it is now.
   */
  returnTransfer(reference: string, options: CallOptions): Promise<BridgeTransfer>;
  /** What the rail holds for us now: unconverted NGN, or converted money on its way back. */
  holdings(options: CallOptions): Promise<RailHoldings<BridgeTransfer>>;
  /** An event as the rail's signed callback delivers it; throws ProviderError when it is not one. */
  parseEvent(body: unknown): BridgeEvent;
}

export const BRIDGE_RAIL = Symbol('BRIDGE_RAIL');
