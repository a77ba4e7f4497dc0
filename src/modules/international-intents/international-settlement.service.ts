import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { minorFromColumn } from '../../common/money/money';
import { ProviderError } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobHandler, JobQueues, Outbox } from '../../jobs';
import type { CallOptions } from '../../common/providers/provider-http-client';
import { BRIDGE_RAIL, BridgeRail, BridgeTransfer, ForeignPayout, PAYOUT_RAIL, PayoutRail, RailReturn, Recipient } from '../cross-border-rails';
import { LedgerService } from '../ledger';
import { PoboBusinessesService } from '../pobo-businesses';
import { HoldingRail, payoutReturnPosting, railHolding, railToRecoverFrom, ReceivableOutcome, receivableClearing } from './international-postings';
import { InternationalIntentEntity } from './international-intent.entity';
import { InternationalIntentStates } from './international-intent-states.service';
import { InternationalIntentStatus } from './international-intent.states';
import { INTERNATIONAL_JOBS } from './international-intents.jobs';
import { InternationalIntentNotFoundError, InternationalIntentStateConflictError, NoOpenReceivableError } from './international-intents.errors';
import { InternationalIntentsRepository } from './international-intents.repository';

const RESUME_BATCH = 500;
/** How long a recovery that spent its attempts waits before `resume` has it ask the rail again. */
const RECOVERY_RETRY_MS = 60 * 60 * 1000;

/** States the worker acts in; in the others it waits for a rail (or is done). */
const ACTIONABLE = new Set<InternationalIntentStatus>(['pending', 'processing', 'bridge_confirmed', 'withdrawal_confirmed']);
const WAITING = new Set<InternationalIntentStatus>(['bridge_initiated', 'withdrawal_initiated']);

/** What a rail's word did to an intent: its status before and after. */
interface Recorded {
  before: InternationalIntentStatus;
  after: InternationalIntentStatus;
}

/**
 * The settlement pipeline, in the worker. Each step is a move of the intent's state machine in
 * its own transaction, taken only while the intent is still in the step's state (under its row
 * lock), so a step whose outcome is recorded is never taken again. The rails are called with the
 * intent id as their idempotency key, fixed before any call: a worker killed after a call and
 * before recording it calls again on resume and gets the same transfer or payout back, never a
 * second one. Callbacks and polls of the rails go through the same `record…` methods. Every move
 * posts its money with it (`InternationalIntentStates.apply`): the converted amount follows the
 * legs from rail to rail, and a rejection at any stage gives the merchant its money back in the
 * transaction that moves to `rejected`, which the machine allows once.
 */
@Injectable()
export class InternationalSettlementService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(BRIDGE_RAIL) private readonly bridge: BridgeRail,
    @Inject(PAYOUT_RAIL) private readonly payouts: PayoutRail,
    private readonly states: InternationalIntentStates,
    private readonly ledger: LedgerService,
    private readonly outbox: Outbox,
    private readonly queues: JobQueues,
    private readonly repository: InternationalIntentsRepository,
    private readonly businesses: PoboBusinessesService,
  ) {}

  /**
   * Takes the intent as far as it can go now, whoever moved it last: a rail's callback often
   * records a leg before the worker's own call returns, and the intent then goes on here rather
   * than waiting for the callback's job at the back of the queue. It stops when a pass changed
   * nothing, and in a waiting state, unless the job was enqueued for that state (by `resume`: a
   * callback may be lost), in which case it asks the rail once.
   */
  @JobHandler(INTERNATIONAL_JOBS.advance)
  async advance({ intentId, from }: { intentId: string; from: string }): Promise<void> {
    let polled = false;
    let seen: InternationalIntentStatus | undefined;
    for (;;) {
      const intent = await this.repository.findById(intentId);
      if (!intent || intent.status === seen) return;
      seen = intent.status;
      if (WAITING.has(intent.status)) {
        if (polled || intent.status !== from) return;
        polled = true;
      }
      await this.step(intent);
    }
  }

  /**
   * Rebuilds the pipeline's jobs from PostgreSQL, so a job Redis lost (a flush, a restart without
   * persistence) is never work left undone: an `advance` for every intent that has not moved for a
   * job lock (its job was lost, or a rail's callback), and a `recover` for every receivable still
   * open (money a rail owes back after a rejection), from the rail it is owed by. A recovery that
   * spent its attempts asks the rail again an hour after it gave up.
   */
  @JobHandler(INTERNATIONAL_JOBS.resume)
  async resume(): Promise<void> {
    for (const { id, status } of await this.repository.stalledSince(this.config.jobLockMs, RESUME_BATCH)) {
      await this.queues.ensure(INTERNATIONAL_JOBS.advance, { intentId: id, from: status });
    }
    const receivables = await this.ledger.openReceivables();
    for (const currency of new Set(receivables.map((receivable) => receivable.currency))) {
      const owed = receivables.filter((receivable) => receivable.currency === currency).map((receivable) => receivable.sourceId);
      for (const [intentId, positions] of await this.ledger.platformPositionsOf(undefined, owed, currency)) {
        const rail = railToRecoverFrom(positions);
        if (rail) await this.queues.ensure(INTERNATIONAL_JOBS.recover, { intentId, rail }, { retryFailedAfterMs: RECOVERY_RETRY_MS });
      }
    }
  }

  /**
   * A bridge rail callback, in the caller's transaction: recorded, and the next step enqueued when
   * it is due (see `followUp`). A return's outcome goes to the recovery instead.
   */
  async onBridgeEvent(manager: EntityManager, transfer: BridgeTransfer): Promise<void> {
    if (transfer.return) return void (await this.recordReturn(manager, 'bridge_rail', transfer.reference, transfer.return));
    await this.followUp(manager, transfer.reference, await this.recordBridge(manager, transfer));
  }

  /** A payout rail callback, likewise. */
  async onPayoutEvent(manager: EntityManager, payout: ForeignPayout): Promise<void> {
    if (payout.return) return void (await this.recordReturn(manager, 'payout_rail', payout.reference, payout.return));
    await this.followUp(manager, payout.reference, await this.recordPayout(manager, payout));
  }

  /**
   * Gets back what a rejected intent had sent the rails, one rail at a time (the payout rail gives
   * it back to the bridge side, then the bridge rail in NGN): each rail is asked under our
   * reference, which makes asking again after a crash or a retry safe (the same return), and its
   * answer or callback is recorded under the intent's lock against the ledger's open receivable,
   * so the money comes back into the books once. A return the rail refuses leaves the receivable
   * open for an operator. A return still pending fails the attempt, to ask again later.
   */
  @JobHandler(INTERNATIONAL_JOBS.recover)
  async recover({ intentId, rail }: { intentId: string; rail: HoldingRail }): Promise<void> {
    let asked: RailReturn | null;
    try {
      asked =
        rail === 'payout_rail'
          ? (await this.payouts.returnPayout(intentId, this.budget())).return
          : (await this.bridge.returnTransfer(intentId, this.budget())).return;
    } catch (err) {
      // No leg there (the rejection came before it was created), or one that never took the money
      // (a transfer the rail rejected): nothing to get back.
      if (err instanceof ProviderError && (err.status === 404 || err.status === 409)) return;
      throw err;
    }
    if (!asked) throw new Error(`${rail}: answered the return of ${intentId} without it`);
    if (asked.status === 'pending') throw new Error(`the return of ${intentId} is still pending at the ${rail.replace('_', ' ')}`);
    // Only a completed return moves money; a refused one leaves the receivable as it is.
    if (asked.status === 'completed') await this.dataSource.transaction((manager) => this.recordReturn(manager, rail, intentId, asked));
  }

  /**
   * A rail's word on a return, from its answer or its callback, in the caller's transaction. Posted
   * only while that rail's receivable is open (under the intent's lock), so once; the bridge side
   * is asked next when the payout rail gave the money back to it.
   */
  private async recordReturn(manager: EntityManager, rail: HoldingRail, intentId: string, outcome: RailReturn): Promise<void> {
    const intent = await this.states.lock(manager, intentId);
    if (intent?.status !== 'rejected' || outcome.status !== 'completed') return;
    const positions = await this.ledger.platformPositions(manager, intentId, intent.sourceCurrency);
    if (railToRecoverFrom(positions) !== rail) return;
    if (rail === 'payout_rail') {
      await this.ledger.post(manager, payoutReturnPosting(intent, positions)!);
      await this.outbox.enqueue(manager, INTERNATIONAL_JOBS.recover, { intentId, rail: 'bridge_rail' });
      return;
    }
    await this.ledger.post(manager, receivableClearing(intent, positions, { kind: 'returned', amount: outcome.amount ?? 0 })!.posting);
  }

  /** An operator's rejection of an intent that has not settled, with the note the merchant sees; the funds go back through the same path. */
  async rejectByOperator(id: string, note: string): Promise<InternationalIntentStatus> {
    return this.dataSource.transaction(async (manager) => {
      const intent = await this.states.lock(manager, id);
      if (!intent) throw new InternationalIntentNotFoundError();
      if (intent.status === 'settled' || intent.status === 'rejected') throw new InternationalIntentStateConflictError(intent.status, 'rejected');
      const before = intent.status;
      await this.reject(manager, intent, 'operator_rejected', note);
      return before;
    });
  }

  /**
   * An operator clears the open receivable a late rejection left (see `receivableClearing`): the
   * money recovered by hand, or written off, with a note. Under the intent's lock, so once.
   */
  async clearReceivable(id: string, outcome: ReceivableOutcome, note: string): Promise<{ owedBy: string; owed: number }> {
    return this.dataSource.transaction(async (manager) => {
      const intent = await this.states.lock(manager, id);
      if (!intent) throw new InternationalIntentNotFoundError();
      const clearing = receivableClearing(intent, await this.ledger.platformPositions(manager, id, intent.sourceCurrency), outcome, note);
      if (!clearing) throw new NoOpenReceivableError(id);
      await this.ledger.post(manager, clearing.posting);
      return { owedBy: clearing.receivable.replace(/^receivable_/, ''), owed: clearing.owed };
    });
  }

  /** One step from the intent's state (the caller reads where it got). */
  private async step(intent: InternationalIntentEntity): Promise<void> {
    switch (intent.status) {
      case 'pending':
        return this.moveFrom(intent.id, 'pending', (manager, locked) => this.states.apply(manager, locked, 'processing', 'picked_up'));
      case 'processing':
        return this.startBridge(intent);
      case 'bridge_initiated':
        return this.poll(
          () => this.bridge.getTransfer(intent.id, this.budget()),
          (manager, transfer) => this.recordBridge(manager, transfer),
        );
      case 'bridge_confirmed':
        return this.startPayout(intent);
      case 'withdrawal_initiated':
        return this.poll(
          () => this.payouts.getPayout(intent.id, this.budget()),
          (manager, payout) => this.recordPayout(manager, payout),
        );
      case 'withdrawal_confirmed':
        return this.moveFrom(intent.id, 'withdrawal_confirmed', async (manager, locked) => {
          await this.states.apply(manager, locked, 'settled', 'settled', { settledAt: new Date() });
        });
      // settled, rejected: nothing left to do.
    }
  }

  private async startBridge(intent: InternationalIntentEntity): Promise<void> {
    let transfer: BridgeTransfer;
    try {
      transfer = await this.bridge.createTransfer(
        {
          reference: intent.id,
          routeType: intent.routeType,
          sourceAmount: minorFromColumn(intent.convertedAmount),
          destinationCurrency: intent.currency,
          destinationAmount: minorFromColumn(intent.amount),
          recipient: recipientOf(intent),
        },
        this.budget(),
      );
    } catch (err) {
      // A refusal of the request itself will not get better with retries; anything else is retried by the job.
      if (err instanceof ProviderError && !err.retryable) {
        return this.moveFrom(intent.id, 'processing', (manager, locked) =>
          this.reject(manager, locked, 'bridge_refused', `The bridge rail refused the transfer (${err.message})`),
        );
      }
      throw err;
    }
    await this.dataSource.transaction((manager) => this.recordBridge(manager, transfer));
  }

  private async startPayout(intent: InternationalIntentEntity): Promise<void> {
    const business = await this.businesses.findById(intent.poboUserId);
    let payout: ForeignPayout;
    try {
      payout = await this.payouts.createPayout(
        {
          reference: intent.id,
          currency: intent.currency,
          amount: minorFromColumn(intent.amount),
          recipient: recipientOf(intent),
          purposeOfTransfer: intent.purposeOfTransfer,
          paymentReference: intent.paymentReference,
          orderingCustomer: { name: business?.businessName ?? intent.poboUserId, country: business?.country ?? 'NG' },
        },
        this.budget(),
      );
    } catch (err) {
      if (err instanceof ProviderError && !err.retryable) {
        return this.moveFrom(intent.id, 'bridge_confirmed', (manager, locked) =>
          this.reject(manager, locked, 'payout_refused', `The payout rail refused the payout (${err.message})`),
        );
      }
      throw err;
    }
    await this.dataSource.transaction((manager) => this.recordPayout(manager, payout));
  }

  /** Asks a rail what became of a leg whose callback has not come; records it when there is news. */
  private async poll<T>(ask: () => Promise<T | null>, record: (manager: EntityManager, answer: T) => Promise<Recorded | undefined>): Promise<void> {
    const answer = await ask();
    if (answer !== null) await this.dataSource.transaction((manager) => record(manager, answer));
  }

  /** What the bridge rail says of the transfer (its answer, a callback or a poll), in the caller's transaction. */
  private async recordBridge(manager: EntityManager, transfer: BridgeTransfer): Promise<Recorded | undefined> {
    const intent = await this.states.lock(manager, transfer.reference);
    if (!intent) return undefined;
    const before = intent.status;
    if (transfer.status === 'rejected') {
      if (intent.status === 'processing' || intent.status === 'bridge_initiated') {
        const code = transfer.failureCode ?? 'bridge_rejected';
        const note = code === 'compliance_rejected' ? 'Rejected by compliance screening at the bridge rail' : `The bridge rail rejected the transfer (${code})`;
        await this.reject(manager, intent, code, transfer.failureMessage ? `${note}: ${transfer.failureMessage}` : note);
      }
      return { before, after: intent.status };
    }
    // Under the rail's compliance review nothing has left yet: the intent stays in `processing`.
    if (transfer.status === 'in_review') return { before, after: intent.status };
    if (intent.status === 'processing') {
      await this.states.apply(manager, intent, 'bridge_initiated', 'bridge_transfer_created', { bridgeTransferId: transfer.id, processedAt: new Date() });
    }
    if (intent.status === 'bridge_initiated' && transfer.status === 'completed')
      await this.states.apply(manager, intent, 'bridge_confirmed', 'bridge_transfer_completed');
    return { before, after: intent.status };
  }

  /** What the payout rail says of the payout, in the caller's transaction. */
  private async recordPayout(manager: EntityManager, payout: ForeignPayout): Promise<Recorded | undefined> {
    const intent = await this.states.lock(manager, payout.reference);
    if (!intent) return undefined;
    const before = intent.status;
    if (intent.status === 'bridge_confirmed') await this.states.apply(manager, intent, 'withdrawal_initiated', 'payout_created', { payoutId: payout.id });
    if (intent.status === 'withdrawal_initiated' && payout.status === 'completed') {
      await this.states.apply(manager, intent, 'withdrawal_confirmed', 'payout_completed', { payoutConfirmation: payout.confirmation });
    }
    if (intent.status === 'withdrawal_initiated' && payout.status === 'failed') {
      const code = payout.failureCode ?? 'payout_failed';
      await this.reject(manager, intent, code, `The payout to the recipient failed (${code})${payout.failureMessage ? `: ${payout.failureMessage}` : ''}`);
    }
    return { before, after: intent.status };
  }

  /**
   * To `rejected` with the note; the move gives the merchant its whole `sourceAmount` back
   * (`transitionPosting`), and money that had reached a rail is recovered from it (`recover`).
   * `processedAt` is set when it leaves `processing`.
   */
  private async reject(manager: EntityManager, intent: InternationalIntentEntity, cause: string, note: string): Promise<void> {
    const from = intent.status;
    await this.states.apply(manager, intent, 'rejected', cause, { adminNote: note, ...(from === 'processing' && { processedAt: new Date() }) });
    // Money that had reached a rail is asked back, in the transaction that decided it; so is a
    // bridge transfer the rail may hold in review while the intent is still `processing`.
    const rail = railHolding(from) ?? (from === 'processing' ? 'bridge_rail' : undefined);
    if (rail) await this.outbox.enqueue(manager, INTERNATIONAL_JOBS.recover, { intentId: intent.id, rail });
  }

  /** Locks the intent and runs `change` only while it is still `expected`. */
  private moveFrom(
    id: string,
    expected: InternationalIntentStatus,
    change: (manager: EntityManager, intent: InternationalIntentEntity) => Promise<unknown>,
  ): Promise<void> {
    return this.dataSource.transaction(async (manager) => {
      const intent = await this.states.lock(manager, id);
      if (intent?.status === expected) await change(manager, intent);
    });
  }

  /**
   * A job for the next step, when a callback moved the intent to one out of a waiting state. A
   * callback that lands while the worker is calling the rail (the intent still in `processing` or
   * `bridge_confirmed`) enqueues nothing: the job making that call records its answer next and goes
   * on from where the callback left the intent (`advance`); had its worker died, the stalled job
   * and `resume` take over.
   */
  private async followUp(manager: EntityManager, intentId: string, recorded: Recorded | undefined): Promise<void> {
    if (recorded && WAITING.has(recorded.before) && ACTIONABLE.has(recorded.after)) {
      await this.outbox.enqueue(manager, INTERNATIONAL_JOBS.advance, { intentId, from: recorded.after });
    }
  }

  private budget(): CallOptions {
    return { timeoutMs: this.config.providerTimeoutMs, retries: 1 };
  }
}

function recipientOf(intent: InternationalIntentEntity): Recipient {
  return {
    fullName: intent.recipientFullName,
    email: intent.recipientEmail,
    country: intent.destinationCountry,
    bankCodeType: intent.bankCodeType,
    bankCode: intent.bankCode,
    accountNumber: intent.accountNumber,
  };
}
