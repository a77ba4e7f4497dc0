import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JobsModule } from '../../jobs';
import { AuthModule } from '../auth';
import { EventEntity } from './event.entity';
import { EventsController } from './events.controller';
import { EVENTS_JOBS, EVENTS_QUEUE } from './events.jobs';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

/** Owns `events`: what the other modules record in their changes' transactions, and the API that reads it. */
@Module({
  imports: [AuthModule, TypeOrmModule.forFeature([EventEntity]), JobsModule.forFeature(EVENTS_QUEUE, Object.values(EVENTS_JOBS))],
  controllers: [EventsController],
  providers: [EventsService, EventsRepository],
  exports: [EventsService],
})
export class EventsModule {}
