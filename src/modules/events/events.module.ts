import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JobsModule } from '../../jobs';
import { AccountsModule } from '../accounts';
import { AuditModule } from '../audit';
import { AuthModule } from '../auth';
import { MailModule } from '../mail';
import { EventEntity } from './event.entity';
import { EventsController } from './events.controller';
import { EVENTS_JOBS, EVENTS_QUEUE } from './events.jobs';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';
import { WebhookAttemptEntity } from './webhook-attempt.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpoints } from './webhook-endpoints.service';
import { WebhooksRepository } from './webhooks.repository';

/**
 * Owns `events`, `webhook_endpoints`, `webhook_deliveries` and `webhook_attempts`: what the other
 * modules record in their changes' transactions, the API that reads it, and the endpoints it is
 * pushed to (their sending is the worker's `WebhookDeliveryModule`).
 */
@Module({
  imports: [
    AuthModule,
    AuditModule,
    AccountsModule,
    MailModule,
    TypeOrmModule.forFeature([EventEntity, WebhookEndpointEntity, WebhookDeliveryEntity, WebhookAttemptEntity]),
    JobsModule.forFeature(EVENTS_QUEUE, Object.values(EVENTS_JOBS)),
  ],
  controllers: [EventsController, WebhookEndpointsController],
  providers: [EventsService, EventsRepository, WebhooksRepository, WebhookEndpoints],
  exports: [EventsService],
})
export class EventsModule {}
