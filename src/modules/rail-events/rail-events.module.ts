import { TypeOrmModule } from '@nestjs/typeorm';
import { RailEventCursorEntity } from './rail-event-cursor.entity';
import { RailEventEntity } from './rail-event.entity';
import { Module } from '@nestjs/common';
import { JobsModule } from '../../jobs';
import { BankRailModule } from '../bank-rail';
import { CrossBorderRailsModule } from '../cross-border-rails';
import { InternationalIntentsModule } from '../international-intents';
import { NairaModule } from '../naira';
import { PaymentIntentsModule } from '../payment-intents';
import { WithdrawalsModule } from '../withdrawals';
import { RailEventsController } from './rail-events.controller';
import { RAIL_EVENTS_JOBS, RAIL_EVENTS_QUEUE } from './rail-events.jobs';
import { RailEventsRepository } from './rail-events.repository';
import { RailEventsService } from './rail-events.service';

/** Owns `rail_events` and `rail_event_cursors`: every rail's callbacks, and the bank rail's reconciliation. */
@Module({
  imports: [
    TypeOrmModule.forFeature([RailEventCursorEntity, RailEventEntity]),
    BankRailModule,
    CrossBorderRailsModule,
    PaymentIntentsModule,
    WithdrawalsModule,
    InternationalIntentsModule,
    NairaModule,
    JobsModule.forFeature(RAIL_EVENTS_QUEUE, Object.values(RAIL_EVENTS_JOBS)),
  ],
  controllers: [RailEventsController],
  providers: [RailEventsService, RailEventsRepository],
})
export class RailEventsModule {}
