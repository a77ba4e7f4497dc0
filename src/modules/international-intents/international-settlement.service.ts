import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobHandler, JobQueues, Outbox } from '../../jobs';
import { BridgeTransfer, ForeignPayout } from '../cross-border-rails';
import { InternationalIntentEntity } from './international-intent.entity';
import { InternationalIntentStates } from './international-intent-states.service';
import { InternationalIntentStatus } from './international-intent.states';
import { INTERNATIONAL_JOBS } from './international-intents.jobs';
import { InternationalIntentNotFoundError, InternationalIntentStateConflictError } from './international-intents.errors';
import { InternationalIntentsRepository } from './international-intents.repository';
import { InternationalBridgeLeg } from './international-bridge-leg.service';
import { InternationalPayoutLeg } from './international-payout-leg.service';
import { InternationalRecovery } from './international-recovery.service';
import { Recorded } from './settlement-legs';

const RESUME_BATCH = 500;

/** States the worker acts in; in the others it waits for a rail (or is done). */
const ACTIONABLE = new Set<InternationalIntentStatus>(['pending', 'processing', 'bridge_confirmed', 'withdrawal_confirmed']);
const WAITING = new Set<InternationalIntentStatus>(['bridge_initiated', 'withdrawal_initiated']);

/**
 * The settlement pipeline, in the worker: it takes an intent from step to step, each leg's work
 * being its leg's (`InternationalBridgeLeg`, `InternationalPayoutLeg`). Each step is a move of the
 * intent's state machine in its own transaction, taken only while the intent is still in the
 * step's state (under its row lock), so a step whose outcome is recorded is never taken again. The
 * rails are called with the intent id as their idempotency key, fixed before any call: a worker
 * killed after a call and before recording it calls again on resume and gets the same transfer or
 * payout back, never a second one. Callbacks and polls of the rails go through the legs' same
 * `record`. Every move posts its money with it (`InternationalIntentStates.apply`): the converted
 * amount follows the legs from rail to rail, and a rejection at any stage gives the merchant its
 * money back in the transaction that moves to `rejected`, which the machine allows once.
 */
@Injectable()
export class InternationalSettlementService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly states: InternationalIntentStates,
    private readonly bridge: InternationalBridgeLeg,
    private readonly payout: InternationalPayoutLeg,
    private readonly recovery: InternationalRecovery,
    private readonly outbox: Outbox,
    private readonly queues: JobQueues,
    private readonly repository: InternationalIntentsRepository,
  ) {}

  /**
   * Takes the intent as far as it can go now, whoever moved it last: a rail's callback often
   * records a leg before the worker's own call returns, and the intent then goes on here rather
   * than waiting for the callback's job at the back of the queue. Each step resolves with the
   * intent as its transaction left it (under the row lock, so a callback's move is in it), and the
   * next step starts from that without reading it again. It stops when a step changed nothing,
   * and in a waiting state, unless the job was enqueued for that state (by `resume`: a callback
   * may be lost), in which case it asks the rail once.
   */
  @JobHandler(INTERNATIONAL_JOBS.advance)
  async advance({ intentId, from }: { intentId: string; from: string }): Promise<void> {
    let polled = false;
    let intent = (await this.repository.findById(intentId)) ?? undefined;
    while (intent) {
      if (WAITING.has(intent.status)) {
        if (polled || intent.status !== from) return;
        polled = true;
      }
      const before = intent.status;
      intent = await this.step(intent);
      if (intent?.status === before) return;
    }
  }

  /**
   * Rebuilds the pipeline's jobs from PostgreSQL, so a job Redis lost (a flush, a restart without
   * persistence) is never work left undone: an `advance` for every intent that has not moved for a
   * job lock (its job was lost, or a rail's callback), and a `recover` for every receivable still
   * open (`InternationalRecovery.ensureJobs`).
   */
  @JobHandler(INTERNATIONAL_JOBS.resume)
  async resume(): Promise<void> {
    for (const { id, status } of await this.repository.stalledSince(this.config.jobLockMs, RESUME_BATCH)) {
      await this.queues.ensure(INTERNATIONAL_JOBS.advance, { intentId: id, from: status });
    }
    await this.recovery.ensureJobs();
  }

  /**
   * A bridge rail callback, in the caller's transaction: recorded, and the next step enqueued when
   * it is due (see `followUp`). A return's outcome goes to the recovery instead.
   */
  async onBridgeEvent(manager: EntityManager, transfer: BridgeTransfer): Promise<void> {
    if (transfer.return) return this.recovery.record(manager, 'bridge_rail', transfer.reference, transfer.return);
    await this.followUp(manager, transfer.reference, await this.bridge.record(manager, transfer));
  }

  /** A payout rail callback, likewise. */
  async onPayoutEvent(manager: EntityManager, payout: ForeignPayout): Promise<void> {
    if (payout.return) return this.recovery.record(manager, 'payout_rail', payout.reference, payout.return);
    await this.followUp(manager, payout.reference, await this.payout.record(manager, payout));
  }

  /** An operator's rejection of an intent that has not settled, with the note the merchant sees; the funds go back through the same path. */
  async rejectByOperator(id: string, note: string): Promise<InternationalIntentStatus> {
    return this.dataSource.transaction(async (manager) => {
      const intent = await this.states.lock(manager, id);
      if (!intent) throw new InternationalIntentNotFoundError();
      if (intent.status === 'settled' || intent.status === 'rejected') throw new InternationalIntentStateConflictError(intent.status, 'rejected');
      const before = intent.status;
      await this.states.reject(manager, intent, 'operator_rejected', note);
      return before;
    });
  }

  /** One step from the intent's state; resolves with the intent as the step left it (itself when there was nothing to do). */
  private async step(intent: InternationalIntentEntity): Promise<InternationalIntentEntity | undefined> {
    switch (intent.status) {
      case 'pending':
        return this.states.moveFrom(intent.id, 'pending', (manager, locked) => this.states.apply(manager, locked, 'processing', 'picked_up'));
      case 'processing':
        return this.bridge.start(intent);
      case 'bridge_initiated':
        return this.bridge.poll(intent);
      case 'bridge_confirmed':
        return this.payout.start(intent);
      case 'withdrawal_initiated':
        return this.payout.poll(intent);
      case 'withdrawal_confirmed':
        // The payout's record settles in its own transaction; an intent left here by an earlier version settles now.
        return this.states.moveFrom(intent.id, 'withdrawal_confirmed', (manager, locked) =>
          this.states.apply(manager, locked, 'settled', 'settled', { settledAt: new Date() }),
        );
      case 'settled':
      case 'rejected':
        return intent;
    }
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
}
