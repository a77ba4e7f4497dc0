import { setTimeout as sleep } from 'node:timers/promises';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test helpers for the sandbox rails' callbacks: an endpoint that records what it receives and a
 * signature check written independently of `signRailPayload`. Used by specs only.
 */

export interface ReceivedCallback {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface CallbackReceiver {
  url: string;
  received: ReceivedCallback[];
  close(): Promise<void>;
}

/** A callback endpoint on 127.0.0.1, port 0, answering the given statuses in turn, then 200. */
export async function startCallbackReceiver(statuses: number[] = []): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      res.statusCode = statuses.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rail-callbacks`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, received, close };
}

/**
 * True when `header` is `t=<unix s within 5 min of now>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`,
 * computed here by hand.
 */
export function hasValidRailSignature(secret: string, header: string | string[] | undefined, rawBody: string, nowMs = Date.now()): boolean {
  const match = typeof header === 'string' ? /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) : null;
  if (match === null) return false;
  const [, t, v1] = match;
  if (Math.abs(Number(t) - nowMs / 1000) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

/** Polls `read` until `done` holds for its value; fails with the last value after `timeoutMs`. */
export async function waitFor<T>(read: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`waitFor: condition not met within ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await sleep(10);
  }
}
