import { EventsModule } from '../events';
import { AuthModule } from '../auth';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InternationalIntentStatusHistoryEntity } from './international-intent-status-history.entity';
import { InternationalIntentEntity } from './international-intent.entity';
import { QuoteEntity } from './quote.entity';
import { Module } from '@nestjs/common';
import { JobsModule } from '../../jobs';
import { CrossBorderRailsModule } from '../cross-border-rails';
import { IdempotencyModule } from '../idempotency';
import { LedgerModule } from '../ledger';
import { PoboBusinessesModule } from '../pobo-businesses';
import { InternationalIntentStates } from './international-intent-states.service';
import { InternationalIntentsController } from './international-intents.controller';
import { INTERNATIONAL_JOBS, INTERNATIONAL_QUEUE } from './international-intents.jobs';
import { InternationalIntentsRepository } from './international-intents.repository';
import { InternationalIntentsService } from './international-intents.service';
import { InternationalSettlementService } from './international-settlement.service';
import { InternationalBridgeLeg } from './international-bridge-leg.service';
import { InternationalPayoutLeg } from './international-payout-leg.service';
import { InternationalRecovery } from './international-recovery.service';
import { QuotesController } from './quotes.controller';
import { QuotesService } from './quotes.service';
import { ReceiptsController } from './receipts.controller';
import { ReceiptsService } from './receipts.service';

/** Owns `quotes`, `international_payment_intents` and their status history: quotes, endpoint 6, the settlement pipeline and receipts. */
@Module({
  imports: [
    AuthModule,
    TypeOrmModule.forFeature([InternationalIntentStatusHistoryEntity, InternationalIntentEntity, QuoteEntity]),
    CrossBorderRailsModule,
    IdempotencyModule,
    LedgerModule,
    PoboBusinessesModule,
    EventsModule,
    JobsModule.forFeature(INTERNATIONAL_QUEUE, Object.values(INTERNATIONAL_JOBS)),
  ],
  controllers: [QuotesController, InternationalIntentsController, ReceiptsController],
  providers: [
    QuotesService,
    InternationalIntentsService,
    InternationalSettlementService,
    InternationalBridgeLeg,
    InternationalPayoutLeg,
    InternationalRecovery,
    InternationalIntentStates,
    InternationalIntentsRepository,
    ReceiptsService,
  ],
  exports: [InternationalSettlementService, InternationalRecovery],
})
export class InternationalIntentsModule {}
