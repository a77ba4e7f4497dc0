import { AuthModule } from '../auth';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InboundPaymentEntity } from './inbound-payment.entity';
import { PaymentIntentStatusHistoryEntity } from './payment-intent-status-history.entity';
import { PaymentIntentEntity } from './payment-intent.entity';
import { AuditModule } from '../audit';
import { EventsModule } from '../events';
import { Module } from '@nestjs/common';
import { JobsModule } from '../../jobs';
import { BankRailModule } from '../bank-rail';
import { IdempotencyModule } from '../idempotency';
import { LedgerModule } from '../ledger';
import { PaymentIntentCollectionsService } from './payment-intent-collections.service';
import { PaymentIntentStates } from './payment-intent-states.service';
import { PaymentIntentsController } from './payment-intents.controller';
import { PAYMENT_INTENTS_JOBS, PAYMENT_INTENTS_QUEUE } from './payment-intents.jobs';
import { PaymentIntentsRepository } from './payment-intents.repository';
import { PaymentIntentsService } from './payment-intents.service';
import { TestHelpersController } from './test-helpers.controller';

/** Owns `payment_intents`, `inbound_payments` and `payment_intent_status_history`. */
@Module({
  imports: [
    AuthModule,
    TypeOrmModule.forFeature([InboundPaymentEntity, PaymentIntentStatusHistoryEntity, PaymentIntentEntity]),
    AuditModule,
    BankRailModule,
    EventsModule,
    IdempotencyModule,
    LedgerModule,
    JobsModule.forFeature(PAYMENT_INTENTS_QUEUE, Object.values(PAYMENT_INTENTS_JOBS)),
  ],
  controllers: [PaymentIntentsController, TestHelpersController],
  providers: [PaymentIntentsService, PaymentIntentCollectionsService, PaymentIntentStates, PaymentIntentsRepository],
  exports: [PaymentIntentCollectionsService],
})
export class PaymentIntentsModule {}
