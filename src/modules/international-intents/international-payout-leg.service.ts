import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { minorFromColumn } from '../../common/money/money';
import { ProviderError } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { ForeignPayout, PAYOUT_RAIL, PayoutRail } from '../cross-border-rails';
import { PoboBusinessesService } from '../pobo-businesses';
import { InternationalIntentEntity } from './international-intent.entity';
import { InternationalIntentStates, IntentMove } from './international-intent-states.service';
import { railCall, recipientOf, Recorded, SettlementLeg } from './settlement-legs';

/**
 * The second leg: the payout rail pays the recipient's bank from what the bridge leg converted,
 * with the business as the ordering customer. `bridge_confirmed` → `withdrawal_initiated` when
 * the rail has the payout, → `withdrawal_confirmed` when the bank confirmed it; a failed payout
 * rejects the intent.
 */
@Injectable()
export class InternationalPayoutLeg implements SettlementLeg<ForeignPayout> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(PAYOUT_RAIL) private readonly payouts: PayoutRail,
    private readonly states: InternationalIntentStates,
    private readonly businesses: PoboBusinessesService,
  ) {}

  async start(intent: InternationalIntentEntity): Promise<InternationalIntentEntity | undefined> {
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
        railCall(this.config),
      );
    } catch (err) {
      if (err instanceof ProviderError && !err.retryable) {
        return this.states.moveFrom(intent.id, 'bridge_confirmed', (manager, locked) =>
          this.states.reject(manager, locked, 'payout_refused', `The payout rail refused the payout (${err.message})`),
        );
      }
      throw err;
    }
    return this.recordAnswer(payout);
  }

  async poll(intent: InternationalIntentEntity): Promise<InternationalIntentEntity | undefined> {
    const payout = await this.payouts.getPayout(intent.id, railCall(this.config));
    return payout === null ? intent : this.recordAnswer(payout);
  }

  /** The rail's answer recorded in a transaction of its own. */
  private async recordAnswer(payout: ForeignPayout): Promise<InternationalIntentEntity | undefined> {
    return (await this.dataSource.transaction((manager) => this.record(manager, payout)))?.intent;
  }

  async record(manager: EntityManager, payout: ForeignPayout): Promise<Recorded | undefined> {
    const intent = await this.states.lock(manager, payout.reference);
    if (!intent) return undefined;
    const before = intent.status;
    // The moves the answer allows, at once (one UPDATE, one history INSERT, one event INSERT); each
    // keeps its own history row, events and posting. Once paid, nothing is left to wait for: settled.
    const moves: IntentMove[] = [];
    if (intent.status === 'bridge_confirmed') moves.push({ status: 'withdrawal_initiated', cause: 'payout_created', extra: { payoutId: payout.id } });
    if ((intent.status === 'bridge_confirmed' || intent.status === 'withdrawal_initiated') && payout.status === 'completed') {
      moves.push(
        { status: 'withdrawal_confirmed', cause: 'payout_completed', extra: { payoutConfirmation: payout.confirmation } },
        { status: 'settled', cause: 'settled', extra: { settledAt: new Date() } },
      );
    }
    await this.states.applyAll(manager, intent, moves);
    if (intent.status === 'withdrawal_initiated' && payout.status === 'failed') {
      const code = payout.failureCode ?? 'payout_failed';
      await this.states.reject(
        manager,
        intent,
        code,
        `The payout to the recipient failed (${code})${payout.failureMessage ? `: ${payout.failureMessage}` : ''}`,
      );
    }
    return { before, after: intent.status, intent };
  }
}
