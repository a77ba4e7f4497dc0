/** What other modules may use of the payment intents module. */
export { PaymentIntentsModule } from './payment-intents.module';
export { PaymentIntentsService } from './payment-intents.service';
export { PaymentIntentCollectionsService } from './payment-intent-collections.service';
