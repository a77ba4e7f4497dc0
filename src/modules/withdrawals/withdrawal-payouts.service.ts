import type { CallOptions } from '../../common/providers/provider-http-client';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { minorFromColumn } from '../../common/money/money';
import { ProviderError } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobHandler, JobQueues } from '../../jobs';
import { BANK_RAIL, BankRail, RailPayout } from '../bank-rail';
import { LedgerService, Posting } from '../ledger';
import { WithdrawalEntity } from './withdrawal.entity';
import { WithdrawalStates } from './withdrawal-states.service';
import { WITHDRAWALS_JOBS } from './withdrawals.jobs';
import { WithdrawalsRepository } from './withdrawals.repository';

const BATCH = 500;

/** What became of asking the rail for a payout. */
export type PayoutAttempt = { kind: 'sent'; payout: RailPayout } | { kind: 'rejected'; message: string } | { kind: 'unavailable' } | { kind: 'not_pending' };

/**
 * Payouts of withdrawals, for the request that creates one and for the worker that finishes what
 * a request could not: the rail's idempotency key is the withdrawal id, so however often and from
 * wherever a payout is sent, the rail pays once; every outcome is a move of the withdrawal's state
 * machine, so each ledger posting (paid, reversed) happens once.
 */
@Injectable()
export class WithdrawalPayoutsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(BANK_RAIL) private readonly rail: BankRail,
    private readonly states: WithdrawalStates,
    private readonly ledger: LedgerService,
    private readonly repository: WithdrawalsRepository,
    private readonly queues: JobQueues,
  ) {}

  /** Sends the payout of a `pending` withdrawal; records nothing (see `record`). */
  async send(id: string, budget: CallOptions): Promise<PayoutAttempt> {
    const withdrawal = await this.repository.findById(id);
    if (withdrawal?.status !== 'pending') return { kind: 'not_pending' };
    try {
      const payout = await this.rail.sendPayout(
        {
          reference: withdrawal.id,
          amount: minorFromColumn(withdrawal.amount),
          bankCode: withdrawal.bankCode,
          accountNumber: withdrawal.accountNumber,
          accountName: withdrawal.accountName,
          narration: withdrawal.narration,
        },
        budget,
      );
      return { kind: 'sent', payout };
    } catch (err) {
      if (err instanceof ProviderError && !err.retryable) return { kind: 'rejected', message: err.message };
      if (err instanceof ProviderError) return { kind: 'unavailable' };
      throw err;
    }
  }

  /** Records an attempt's outcome in the caller's transaction; `unavailable` leaves the withdrawal `pending` for the worker. */
  async record(manager: EntityManager, id: string, attempt: PayoutAttempt): Promise<void> {
    if (attempt.kind === 'sent') await this.onPayout(manager, attempt.payout);
    if (attempt.kind !== 'rejected') return;
    const withdrawal = await this.states.lock(manager, id);
    if (withdrawal?.status !== 'pending') return;
    await this.fail(manager, withdrawal, 'payout_rejected', `The bank rail refused the payout (${attempt.message})`, 'payout_rejected');
  }

  /** What the rail says of a payout (its answer, or a callback or reconciled event), in the caller's transaction. */
  async onPayout(manager: EntityManager, payout: RailPayout): Promise<void> {
    const withdrawal = await this.states.lock(manager, payout.reference);
    if (!withdrawal) return;
    if (withdrawal.status === 'pending') await this.states.apply(manager, withdrawal, 'processing', 'payout_sent', { railPayoutId: payout.id });
    if ((payout.status === 'succeeded' || payout.status === 'returned') && withdrawal.status === 'processing') {
      await this.states.apply(manager, withdrawal, 'succeeded', 'payout_succeeded', { completedAt: new Date() });
      await this.ledger.post(manager, this.posting(withdrawal, 'withdrawal_paid'));
    }
    if (payout.status === 'returned' && withdrawal.status === 'succeeded') {
      await this.fail(manager, withdrawal, 'payout_returned', 'The receiving bank returned the payout', 'payout_returned');
    }
    if (payout.status === 'failed' && withdrawal.status === 'processing') {
      const code = payout.failureCode ?? 'payout_failed';
      await this.fail(manager, withdrawal, code, `The payout failed (${code})`, 'payout_failed');
    }
  }

  @JobHandler(WITHDRAWALS_JOBS.sendPayout)
  async sendPending({ withdrawalId }: { withdrawalId: string }): Promise<void> {
    const attempt = await this.send(withdrawalId, { timeoutMs: this.config.providerTimeoutMs, retries: 2 });
    if (attempt.kind === 'unavailable') throw new Error(`bank rail unavailable for the payout of ${withdrawalId}; retried`);
    await this.dataSource.transaction((manager) => this.record(manager, withdrawalId, attempt));
  }

  /**
   * A payout job for every withdrawal still `pending` once its request's Idempotency-Key lock
   * has run out: the request died, or the rail was down. Sending it from here too is safe (the
   * rail dedupes on the withdrawal id).
   */
  @JobHandler(WITHDRAWALS_JOBS.resumePayouts)
  async resumePayouts(): Promise<void> {
    for (const withdrawalId of await this.repository.pendingSince(this.config.idempotency.lockMs, BATCH)) {
      await this.queues.ensure(WITHDRAWALS_JOBS.sendPayout, { withdrawalId });
    }
  }

  /** To `failed`, and the reserved funds back to available, once (the state machine allows one move to `failed`). */
  private async fail(manager: EntityManager, withdrawal: WithdrawalEntity, code: string, message: string, cause: string): Promise<void> {
    const paid = withdrawal.status === 'succeeded';
    await this.states.apply(manager, withdrawal, 'failed', cause, { failureCode: code, failureMessage: message, completedAt: new Date() });
    await this.ledger.post(manager, this.posting(withdrawal, paid ? 'withdrawal_returned' : 'withdrawal_failed'));
  }

  private posting(withdrawal: WithdrawalEntity, type: 'withdrawal_paid' | 'withdrawal_failed' | 'withdrawal_returned'): Posting {
    const amount = minorFromColumn(withdrawal.amount);
    const fee = minorFromColumn(withdrawal.fee);
    const merchantId = withdrawal.merchantId;
    const platform = (account: 'bank_rail' | 'fee_revenue', value: number) => (value === 0 ? [] : [{ account: { platform: account }, amount: value }]);
    const lines: Posting['lines'] = {
      // The reservation leaves the merchant: the amount to the rail, the fee to revenue.
      withdrawal_paid: [
        { account: { merchantId, kind: 'reserved' as const }, amount: -(amount + fee) },
        ...platform('bank_rail', amount),
        ...platform('fee_revenue', fee),
      ],
      // Never paid: the reservation goes back to available.
      withdrawal_failed: [
        { account: { merchantId, kind: 'reserved' as const }, amount: -(amount + fee) },
        { account: { merchantId, kind: 'available' as const }, amount: amount + fee },
      ],
      // Paid, then returned by the bank: the money is back at the rail, the fee refunded.
      withdrawal_returned: [
        ...platform('bank_rail', -amount),
        ...platform('fee_revenue', -fee),
        { account: { merchantId, kind: 'available' as const }, amount: amount + fee },
      ],
    }[type];
    const reversal = type === 'withdrawal_paid' ? [] : [{ merchantId, type: 'withdrawal_reversal' as const, amount: amount + fee }];
    return { type, sourceId: withdrawal.id, currency: withdrawal.currency, lines, balanceTransactions: reversal };
  }
}
