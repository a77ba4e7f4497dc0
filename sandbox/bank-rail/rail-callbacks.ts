import type { SandboxEvent } from '../common/callbacks';

/**
 * Signed event callbacks of the sandbox bank rail. See the "Bank rail" section of sandbox/README.md.
 * The sending, signing and retrying is shared by every sandbox rail (sandbox/common/callbacks.ts);
 * only the secret and the event types are the bank rail's own.
 */

export {
  callbackUrlProblem,
  CallbackSender,
  DELIVERY_TIMEOUT_MS,
  MAX_DELIVERY_ATTEMPTS,
  parseWebhookPatch,
  RAIL_EVENT_ID_HEADER,
  RAIL_SIGNATURE_HEADER,
  signRailPayload,
} from '../common/callbacks';
export type { CallbackSenderOptions, DeliveryRecord, WebhookState } from '../common/callbacks';

export const DEFAULT_BANK_RAIL_WEBHOOK_SECRET = 'sandbox-bank-rail-webhook-secret';

export type RailEventType = 'transfer.received' | 'transfer.returned' | 'payout.succeeded' | 'payout.failed' | 'payout.returned';

export type RailEvent<T = unknown> = SandboxEvent<RailEventType, T>;
