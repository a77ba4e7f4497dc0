import { Module } from '@nestjs/common';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { WebhooksRepository } from './webhooks.repository';

/** The worker's half of webhooks: the dispatcher that sends what the events module recorded. Imported by the worker only. */
@Module({
  providers: [WebhookDispatcher, WebhooksRepository],
})
export class WebhookDeliveryModule {}
