import { ServiceUnavailableError } from '../../common/errors/app-error';
import { ProviderError } from '../../common/providers/provider-http-client';

/** The sender of a test helper's transfer when the merchant names none. */
export const TEST_SENDER = { bankName: 'Sandbox Sender Bank', accountNumber: '0123456789' };

/**
 * A bank rail call a merchant's request waits for (a test helper's transfer): a rail that is down
 * or slow is a 503 to retry with the same Idempotency-Key; one that refuses our request is our
 * bug (a 500, logged).
 */
export async function callRailForRequest<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ProviderError && err.retryable) throw new ServiceUnavailableError('The bank rail is unavailable; retry with the same Idempotency-Key');
    throw err;
  }
}
