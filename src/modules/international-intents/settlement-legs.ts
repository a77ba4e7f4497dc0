import type { EntityManager } from 'typeorm';
import type { CallOptions } from '../../common/providers/provider-http-client';
import type { AppConfig } from '../../config/app.config';
import type { Recipient } from '../cross-border-rails';
import type { InternationalIntentEntity } from './international-intent.entity';
import type { InternationalIntentStatus } from './international-intent.states';

/** What a rail's word did to an intent: its status before and after, and the intent as its transaction left it. */
export interface Recorded {
  before: InternationalIntentStatus;
  after: InternationalIntentStatus;
  intent: InternationalIntentEntity;
}

/** One leg of the settlement (the bridge rail's transfer, the payout rail's payout), as the pipeline drives it. */
export interface SettlementLeg<Answer> {
  /**
   * Creates the leg at its rail under the intent's id, and records the answer. Resolves with the
   * intent as the recording transaction left it (the pipeline goes on from there without reading
   * it again), undefined when it no longer exists.
   */
  start(intent: InternationalIntentEntity): Promise<InternationalIntentEntity | undefined>;
  /** Asks the rail what became of the leg (its callback has not come); records it when there is news. Resolves like `start`. */
  poll(intent: InternationalIntentEntity): Promise<InternationalIntentEntity | undefined>;
  /** The rail's word on the leg (its answer, a callback or a poll), in the caller's transaction, under the intent's lock. */
  record(manager: EntityManager, answer: Answer): Promise<Recorded | undefined>;
}

/** One call to a rail: the configured timeout and one retry; the job retries beyond that. */
export function railCall(config: AppConfig): CallOptions {
  return { timeoutMs: config.providerTimeoutMs, retries: 1 };
}

/** The intent's recipient as both rails take it. */
export function recipientOf(intent: InternationalIntentEntity): Recipient {
  return {
    fullName: intent.recipientFullName,
    email: intent.recipientEmail,
    country: intent.destinationCountry,
    bankCodeType: intent.bankCodeType,
    bankCode: intent.bankCode,
    accountNumber: intent.accountNumber,
  };
}
