import { Module } from '@nestjs/common';
import { JobsModule } from '../../jobs';
import { BankRailModule } from '../bank-rail';
import { PaymentIntentsModule } from '../payment-intents';
import { WithdrawalsModule } from '../withdrawals';
import { RailEventsController } from './rail-events.controller';
import { RAIL_EVENTS_JOBS, RAIL_EVENTS_QUEUE } from './rail-events.jobs';
import { RailEventsRepository } from './rail-events.repository';
import { RailEventsService } from './rail-events.service';

/** Owns `bank_rail_events` and `rail_event_cursors`: the rail's callbacks and their reconciliation. */
@Module({
  imports: [BankRailModule, PaymentIntentsModule, WithdrawalsModule, JobsModule.forFeature(RAIL_EVENTS_QUEUE, Object.values(RAIL_EVENTS_JOBS))],
  controllers: [RailEventsController],
  providers: [RailEventsService, RailEventsRepository],
})
export class RailEventsModule {}
