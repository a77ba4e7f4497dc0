/** What other modules may use of the events module. */
export { EventsModule } from './events.module';
export { WebhookDeliveryModule } from './webhook-delivery.module';
export { EventsService } from './events.service';
export type { NewEventOf } from './events.service';
export { EVENT_TYPES } from './event.types';
export type { EventType } from './event.types';
export { describeEventTypes } from './event-schemas';
