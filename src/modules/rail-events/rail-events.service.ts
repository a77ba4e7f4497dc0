import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError, ValidationFailedError } from '../../common/errors/app-error';
import { ProviderError } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobHandler } from '../../jobs';
import { BANK_RAIL, BankRail, RailEvent, verifyRailSignature } from '../bank-rail';
import { PaymentIntentCollectionsService } from '../payment-intents';
import { WithdrawalPayoutsService } from '../withdrawals';
import { RAIL_EVENTS_JOBS } from './rail-events.jobs';
import { RailEventsRepository } from './rail-events.repository';

const PAGE = 100;

export class InvalidRailSignatureError extends AppError {
  constructor() {
    super('unauthorized', 'The callback signature is missing, invalid or outside the five-minute window');
  }
}

/**
 * What the bank rail tells us, by signed callback or by reconciliation: each event acted on once
 * (recorded by id in the transaction of its effects) and acknowledged only after that commits,
 * so a failure makes the rail deliver it again.
 */
@Injectable()
export class RailEventsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(BANK_RAIL) private readonly rail: BankRail,
    private readonly repository: RailEventsRepository,
    private readonly collections: PaymentIntentCollectionsService,
    private readonly payouts: WithdrawalPayoutsService,
  ) {}

  /** A callback: the signature over its exact bytes first, then the event. True when it was new. */
  async receive(rawBody: string, signature: string | undefined): Promise<boolean> {
    if (!verifyRailSignature(this.config.bankRail.webhookSecret, signature, rawBody)) throw new InvalidRailSignatureError();
    let event: RailEvent;
    try {
      event = this.rail.parseEvent(JSON.parse(rawBody));
    } catch (err) {
      if (err instanceof ProviderError || err instanceof SyntaxError) throw new ValidationFailedError([{ field: '(body)', message: 'not a bank rail event' }], 'Not a bank rail event');
      throw err;
    }
    return this.process(event, 'callback');
  }

  @JobHandler(RAIL_EVENTS_JOBS.reconcile)
  async reconcile(): Promise<void> {
    let after = await this.repository.cursor();
    for (;;) {
      const page = await this.rail.events(after, PAGE, { timeoutMs: this.config.providerTimeoutMs, retries: 1 });
      for (const event of page.events) await this.process(event, 'reconciliation');
      if (page.events.length === 0) return;
      after = page.events[page.events.length - 1].id;
      await this.repository.advance(after);
      if (!page.hasMore) return;
    }
  }

  private process(event: RailEvent, source: 'callback' | 'reconciliation'): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.repository.record(manager, event.id, event.type === 'other' ? event.name : event.type, source))) return false;
      switch (event.type) {
        case 'transfer.received':
          await this.collections.onTransferReceived(manager, event.transfer);
          break;
        case 'payout.succeeded':
        case 'payout.failed':
        case 'payout.returned':
          await this.payouts.onPayout(manager, event.payout);
          break;
        // A return is recorded from the rail's answer to our request; its event only confirms it.
        case 'transfer.returned':
        case 'other':
          break;
      }
      return true;
    });
  }
}
