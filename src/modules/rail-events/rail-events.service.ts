import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ValidationFailedError } from '../../common/errors/app-error';
import { ProviderError } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobHandler } from '../../jobs';
import { BANK_RAIL, BankRail, RailEvent } from '../bank-rail';
import { BRIDGE_RAIL, BridgeEvent, BridgeRail, PAYOUT_RAIL, PayoutEvent, PayoutRail } from '../cross-border-rails';
import { InternationalSettlementService } from '../international-intents';
import { NairaCollectionsService } from '../naira';
import { PaymentIntentCollectionsService } from '../payment-intents';
import { WithdrawalPayoutsService } from '../withdrawals';
import { RAIL_EVENTS_JOBS } from './rail-events.jobs';
import { RailEventsRepository } from './rail-events.repository';

const PAGE = 100;
/** An event acknowledged and recorded, with nothing to do. */
const NO_EFFECT = (): Promise<void> => Promise.resolve();

/** The rails that call us back; each signs with its own secret. */
export type RailName = 'bank_rail' | 'bridge_rail' | 'payout_rail';

/** An event of any rail, reduced to what the log needs and the effect it has. */
interface InboundEvent {
  id: string;
  type: string;
  apply: (manager: EntityManager) => Promise<void>;
}

/**
 * What the rails tell us, by signed callback or (the bank rail) by reconciliation: each event
 * acted on once (recorded by rail and id in the transaction of its effects) and acknowledged only
 * after that commits, so a failure makes the rail deliver it again.
 */
@Injectable()
export class RailEventsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(BANK_RAIL) private readonly bankRail: BankRail,
    @Inject(BRIDGE_RAIL) private readonly bridgeRail: BridgeRail,
    @Inject(PAYOUT_RAIL) private readonly payoutRail: PayoutRail,
    private readonly repository: RailEventsRepository,
    private readonly collections: PaymentIntentCollectionsService,
    private readonly nairaCollections: NairaCollectionsService,
    private readonly payouts: WithdrawalPayoutsService,
    private readonly settlement: InternationalSettlementService,
  ) {}

  /** A callback whose signature held (checked at the edge, with the other callers' authentication). True when it was new. */
  async receive(rail: RailName, rawBody: string): Promise<boolean> {
    let event: InboundEvent;
    try {
      const body: unknown = JSON.parse(rawBody);
      event = {
        bank_rail: () => this.bankEvent(this.bankRail.parseEvent(body)),
        bridge_rail: () => this.bridgeEvent(this.bridgeRail.parseEvent(body)),
        payout_rail: () => this.payoutEvent(this.payoutRail.parseEvent(body)),
      }[rail]();
    } catch (err) {
      if (err instanceof ProviderError || err instanceof SyntaxError)
        throw new ValidationFailedError([{ field: '(body)', message: 'not an event of this rail' }], 'Not an event of this rail');
      throw err;
    }
    return this.process(rail, event, 'callback');
  }

  /** Periodic: the bank rail's event list from the cursor on (the cross-border legs are polled per intent instead; see InternationalSettlementService). */
  @JobHandler(RAIL_EVENTS_JOBS.reconcile)
  async reconcile(): Promise<void> {
    let after = await this.repository.cursor();
    for (;;) {
      const page = await this.bankRail.events(after, PAGE, { timeoutMs: this.config.providerTimeoutMs, retries: 1 });
      for (const event of page.events) await this.process('bank_rail', this.bankEvent(event), 'reconciliation');
      if (page.events.length === 0) return;
      after = page.events[page.events.length - 1].id;
      await this.repository.advance(after);
      if (!page.hasMore) return;
    }
  }

  private process(rail: RailName, event: InboundEvent, source: 'callback' | 'reconciliation'): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.repository.record(manager, rail, event.id, event.type, source))) return false;
      await event.apply(manager);
      return true;
    });
  }

  private bankEvent(event: RailEvent): InboundEvent {
    const type = event.type === 'other' ? event.name : event.type;
    switch (event.type) {
      case 'transfer.received':
        // Into a business's own account, else into a payment intent's.
        return {
          id: event.id,
          type,
          apply: async (manager) => {
            if (!(await this.nairaCollections.onTransferReceived(manager, event.transfer))) await this.collections.onTransferReceived(manager, event.transfer);
          },
        };
      case 'payout.succeeded':
      case 'payout.failed':
      case 'payout.returned':
        return { id: event.id, type, apply: (manager) => this.payouts.onPayout(manager, event.payout) };
      // A return is recorded from the rail's answer to our request; its event only confirms it.
      case 'transfer.returned':
      case 'other':
        return { id: event.id, type, apply: NO_EFFECT };
    }
  }

  private bridgeEvent(event: BridgeEvent): InboundEvent {
    if (event.type === 'other') return { id: event.id, type: event.name, apply: NO_EFFECT };
    return { id: event.id, type: event.type, apply: (manager) => this.settlement.onBridgeEvent(manager, event.transfer) };
  }

  private payoutEvent(event: PayoutEvent): InboundEvent {
    if (event.type === 'other') return { id: event.id, type: event.name, apply: NO_EFFECT };
    return { id: event.id, type: event.type, apply: (manager) => this.settlement.onPayoutEvent(manager, event.payout) };
  }
}
