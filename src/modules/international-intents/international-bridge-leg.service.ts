import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { minorFromColumn } from '../../common/money/money';
import { ProviderError } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { BRIDGE_RAIL, BridgeRail, BridgeTransfer } from '../cross-border-rails';
import { InternationalIntentEntity } from './international-intent.entity';
import { InternationalIntentStates, IntentMove } from './international-intent-states.service';
import { railCall, recipientOf, Recorded, SettlementLeg } from './settlement-legs';

/**
 * The first leg: the bridge rail converts the intent's Naira and holds the destination currency
 * for the payout. `processing` → `bridge_initiated` when the rail has the transfer, →
 * `bridge_confirmed` when it completed; a rejection (compliance screening included) rejects the
 * intent while the transfer has not completed.
 */
@Injectable()
export class InternationalBridgeLeg implements SettlementLeg<BridgeTransfer> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(BRIDGE_RAIL) private readonly bridge: BridgeRail,
    private readonly states: InternationalIntentStates,
  ) {}

  async start(intent: InternationalIntentEntity): Promise<InternationalIntentEntity | undefined> {
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
        railCall(this.config),
      );
    } catch (err) {
      // A refusal of the request itself will not get better with retries; anything else is retried by the job.
      if (err instanceof ProviderError && !err.retryable) {
        return this.states.moveFrom(intent.id, 'processing', (manager, locked) =>
          this.states.reject(manager, locked, 'bridge_refused', `The bridge rail refused the transfer (${err.message})`),
        );
      }
      throw err;
    }
    return this.recordAnswer(transfer);
  }

  async poll(intent: InternationalIntentEntity): Promise<InternationalIntentEntity | undefined> {
    const transfer = await this.bridge.getTransfer(intent.id, railCall(this.config));
    return transfer === null ? intent : this.recordAnswer(transfer);
  }

  /** The rail's answer recorded in a transaction of its own. */
  private async recordAnswer(transfer: BridgeTransfer): Promise<InternationalIntentEntity | undefined> {
    return (await this.dataSource.transaction((manager) => this.record(manager, transfer)))?.intent;
  }

  async record(manager: EntityManager, transfer: BridgeTransfer): Promise<Recorded | undefined> {
    const intent = await this.states.lock(manager, transfer.reference);
    if (!intent) return undefined;
    const before = intent.status;
    if (transfer.status === 'rejected') {
      if (intent.status === 'processing' || intent.status === 'bridge_initiated') {
        const code = transfer.failureCode ?? 'bridge_rejected';
        const note = code === 'compliance_rejected' ? 'Rejected by compliance screening at the bridge rail' : `The bridge rail rejected the transfer (${code})`;
        await this.states.reject(manager, intent, code, transfer.failureMessage ? `${note}: ${transfer.failureMessage}` : note);
      }
      return { before, after: intent.status, intent };
    }
    // Under the rail's compliance review nothing has left yet: the intent stays in `processing`.
    if (transfer.status === 'in_review') return { before, after: intent.status, intent };
    // Both moves at once when the transfer completed before we heard of it (one UPDATE, one history INSERT, one event INSERT).
    const moves: IntentMove[] = [];
    if (intent.status === 'processing')
      moves.push({ status: 'bridge_initiated', cause: 'bridge_transfer_created', extra: { bridgeTransferId: transfer.id, processedAt: new Date() } });
    if ((intent.status === 'processing' || intent.status === 'bridge_initiated') && transfer.status === 'completed')
      moves.push({ status: 'bridge_confirmed', cause: 'bridge_transfer_completed' });
    await this.states.applyAll(manager, intent, moves);
    return { before, after: intent.status, intent };
  }
}
