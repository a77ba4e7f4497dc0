import type { CallOptions } from '../../common/providers/provider-http-client';

export interface VirtualAccountRequest {
  /** Our id of what the account is for (a business, a payment intent): the idempotency key, so a retry never opens a second account. */
  reference: string;
  accountName: string;
  /** `static` for a business's own account; `dynamic` for one payment intent, with its amount and expiry. */
  type?: 'static' | 'dynamic';
  /** Minor units. */
  amount?: number;
  expiresAt?: Date;
}

export interface VirtualAccount {
  id: string;
  accountNumber: string;
  accountName: string;
  bankName: string;
  bankCode: string;
}

export interface InboundTransferRequest {
  idempotencyKey: string;
  accountNumber: string;
  /** Minor units. */
  amount: number;
  senderBankName: string;
  senderAccountNumber: string;
  senderName?: string | null;
  narration?: string | null;
}

/** A transfer the rail received into one of our accounts. */
export interface RailTransfer {
  id: string;
  accountNumber: string;
  /** Minor units. */
  amount: number;
  /** The sender's name as its bank gave it, when it did. */
  senderName: string | null;
  senderBankName: string;
  senderAccountNumber: string;
  /** What the sender wrote on the transfer. */
  narration: string | null;
  receivedAt: Date;
}

export interface PayoutRequest {
  /** Our withdrawal id: the idempotency key, so a retried or resumed payout is never sent twice. */
  reference: string;
  /** Minor units. */
  amount: number;
  bankCode: string;
  accountNumber: string;
  accountName: string;
  narration: string | null;
}

export type RailPayoutStatus = 'processing' | 'succeeded' | 'failed' | 'returned';

export interface RailPayout {
  id: string;
  reference: string;
  status: RailPayoutStatus;
  failureCode: string | null;
}

/** What the rail tells us happened, by signed callback and in its event list. */
export type RailEvent =
  | { id: string; type: 'transfer.received'; transfer: RailTransfer }
  | { id: string; type: 'transfer.returned'; transferId: string }
  | { id: string; type: 'payout.succeeded' | 'payout.failed' | 'payout.returned'; payout: RailPayout }
  /** A type this version does not act on: acknowledged and recorded. */
  | { id: string; type: 'other'; name: string };

/** The banking rail: Naira accounts, inbound transfers and their returns, payouts. */
export interface BankRail {
  openVirtualAccount(request: VirtualAccountRequest, options: CallOptions): Promise<VirtualAccount>;
  /** Test mode: asks the (sandbox) rail to send a transfer into one of our accounts, as a sender at another bank would. */
  simulateInboundTransfer(request: InboundTransferRequest, options: CallOptions): Promise<{ id: string }>;
  /** Sends a received transfer back to its sender; the rail returns a transfer at most once. */
  returnTransfer(transferId: string, reason: string, options: CallOptions): Promise<{ id: string }>;
  sendPayout(request: PayoutRequest, options: CallOptions): Promise<RailPayout>;
  /** Events after `after` (oldest first), for reconciliation. */
  events(after: string | undefined, limit: number, options: CallOptions): Promise<{ events: RailEvent[]; hasMore: boolean }>;
  /** An event as the rail's callback delivers it. */
  parseEvent(body: unknown): RailEvent;
}

export const BANK_RAIL = Symbol('BANK_RAIL');
