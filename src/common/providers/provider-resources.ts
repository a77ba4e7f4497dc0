import { IsNotEmpty, IsObject, IsString, MaxLength } from 'class-validator';
import { CallOptions, ProviderError, ProviderHttpClient } from './provider-http-client';

/**
 * What the rails' adapters (bank, bridge, payout) do alike: create a resource under our reference,
 * look one up that may not exist, and read the envelope of the events they raise.
 */

/** The rail's id of something it created or raised. */
export class IdBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  id: string;
}

/** A rail's event as it lists and posts it: `{ id, type, data }`; `data` is read by `type`. */
export class EventBody extends IdBody {
  @IsString()
  @IsNotEmpty()
  type: string;

  @IsObject()
  data: object;
}

/**
 * Creates a resource under our reference, sent both as the Idempotency-Key and as the body's
 * `reference`: a retry answers the resource already created instead of creating a second one.
 * Answers the provider's body, unparsed.
 */
export async function postByReference(
  client: ProviderHttpClient,
  path: string,
  reference: string,
  fields: Record<string, unknown>,
  options: CallOptions,
): Promise<unknown> {
  const { body } = await client.request({ method: 'POST', path, headers: { 'idempotency-key': reference }, body: { reference, ...fields }, ...options });
  return body;
}

/** GETs `path` and reads the body with `read`; null when the provider answers 404: nothing is there. */
export async function getOrNull<T>(client: ProviderHttpClient, path: string, options: CallOptions, read: (body: unknown) => T): Promise<T | null> {
  let body: unknown;
  try {
    ({ body } = await client.request({ method: 'GET', path, ...options }));
  } catch (err) {
    if (err instanceof ProviderError && err.status === 404) return null;
    throw err;
  }
  return read(body);
}
