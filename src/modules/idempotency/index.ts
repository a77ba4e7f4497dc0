/** What other modules may use of the idempotency module. */
export { IdempotencyModule } from './idempotency.module';
export { IdempotencyService } from './idempotency.service';
export type { IdempotencyClaim } from './idempotency.service';
export { IDEMPOTENCY_ROUTE, Idempotent, IdempotencyContext, idempotencyErrors, REPLAYED_HEADER } from './idempotent.decorator';
export { installIdempotency } from './idempotency.hooks';
