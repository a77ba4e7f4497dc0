import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ProviderError } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobHandler, JobQueues, Outbox } from '../../jobs';
import { BRIDGE_RAIL, BridgeRail, PAYOUT_RAIL, PayoutRail, RailReturn } from '../cross-border-rails';
import { LedgerService } from '../ledger';
import { HoldingRail, payoutReturnPosting, railToRecoverFrom, ReceivableOutcome, receivableClearing } from './international-postings';
import { InternationalIntentStates } from './international-intent-states.service';
import { INTERNATIONAL_JOBS } from './international-intents.jobs';
import { InternationalIntentNotFoundError, NoOpenReceivableError } from './international-intents.errors';
import { railCall } from './settlement-legs';

/** How long a recovery that spent its attempts waits before `resume` has it ask the rail again. */
const RECOVERY_RETRY_MS = 60 * 60 * 1000;

/**
 * Gets back what a rejected intent had sent the rails, one rail at a time (the payout rail gives
 * it back to the bridge side, then the bridge rail in NGN), against the ledger's open receivable
 * of the intent; and what an operator does with a receivable no rail gave back.
 */
@Injectable()
export class InternationalRecovery {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(BRIDGE_RAIL) private readonly bridge: BridgeRail,
    @Inject(PAYOUT_RAIL) private readonly payouts: PayoutRail,
    private readonly states: InternationalIntentStates,
    private readonly ledger: LedgerService,
    private readonly outbox: Outbox,
    private readonly queues: JobQueues,
  ) {}

  /**
   * Each rail is asked under our reference, which makes asking again after a crash or a retry safe
   * (the same return), and its answer is recorded like its callback (`record`). A return the rail
   * refuses leaves the receivable open for an operator. A return still pending fails the attempt,
   * to ask again later.
   */
  @JobHandler(INTERNATIONAL_JOBS.recover)
  async recover({ intentId, rail }: { intentId: string; rail: HoldingRail }): Promise<void> {
    let asked: RailReturn | null;
    try {
      asked =
        rail === 'payout_rail'
          ? (await this.payouts.returnPayout(intentId, railCall(this.config))).return
          : (await this.bridge.returnTransfer(intentId, railCall(this.config))).return;
    } catch (err) {
      // No leg there (the rejection came before it was created), or one that never took the money
      // (a transfer the rail rejected): nothing to get back.
      if (err instanceof ProviderError && (err.status === 404 || err.status === 409)) return;
      throw err;
    }
    if (!asked) throw new Error(`${rail}: answered the return of ${intentId} without it`);
    if (asked.status === 'pending') throw new Error(`the return of ${intentId} is still pending at the ${rail.replace('_', ' ')}`);
    // Only a completed return moves money; a refused one leaves the receivable as it is.
    if (asked.status === 'completed') await this.dataSource.transaction((manager) => this.record(manager, rail, intentId, asked));
  }

  /**
   * A rail's word on a return, from its answer or its callback, in the caller's transaction. Posted
   * only while that rail's receivable is open (under the intent's lock), so once; the bridge side
   * is asked next when the payout rail gave the money back to it.
   */
  async record(manager: EntityManager, rail: HoldingRail, intentId: string, outcome: RailReturn): Promise<void> {
    const intent = await this.states.lock(manager, intentId);
    if (intent?.status !== 'rejected' || outcome.status !== 'completed') return;
    const positions = await this.ledger.platformPositions(manager, intentId, intent.sourceCurrency);
    if (railToRecoverFrom(positions) !== rail) return;
    if (rail === 'payout_rail') {
      await this.ledger.post(manager, payoutReturnPosting(intent, positions)!);
      await this.outbox.enqueue(manager, INTERNATIONAL_JOBS.recover, { intentId, rail: 'bridge_rail' });
      await this.states.emit(manager, intent, ['international_payment_intent.return_completed']);
      return;
    }
    await this.ledger.post(manager, receivableClearing(intent, positions, { kind: 'returned', amount: outcome.amount ?? 0 })!.posting);
    await this.states.emit(manager, intent, ['international_payment_intent.return_completed', 'international_payment_intent.receivable_cleared']);
  }

  /**
   * A `recover` job for every receivable still open, from the rail it is owed by, so a job Redis
   * lost is never money left unasked for. A recovery that spent its attempts asks the rail again
   * an hour after it gave up.
   */
  async ensureJobs(): Promise<void> {
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
      await this.states.emit(manager, intent, ['international_payment_intent.receivable_cleared']);
      return { owedBy: clearing.receivable.replace(/^receivable_/, ''), owed: clearing.owed };
    });
  }
}
