import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Request ids are always ours (an inbound X-Request-Id is not trusted). The id is also set on
 * the raw request so pino-http logs the same id that the response and error body carry.
 */
export function generateRequestId(raw: IncomingMessage): string {
  const id = `req_${randomBytes(12).toString('hex')}`;
  (raw as IncomingMessage & { id?: string }).id = id;
  return id;
}
