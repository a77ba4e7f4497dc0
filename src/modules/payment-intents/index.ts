/** What other modules may use of the payment intents module. */
export { PaymentIntentsModule } from './payment-intents.module';
export { PaymentIntentCollectionsService } from './payment-intent-collections.service';
export { PAYMENT_INTENT_SEARCH } from './payment-intents.search';
export { PAYMENT_INTENT_CENSUS } from './payment-intents.census';
