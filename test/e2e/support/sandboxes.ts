import type { IncomingMessage, ServerResponse } from 'node:http';
import { FastifyInstance } from 'fastify';
import { createBankRailServer } from '../../../sandbox/bank-rail/bank-rail.server';
import { createVerificationProviderServer } from '../../../sandbox/verification-provider/verification-provider.server';
import { DEV_BANK_RAIL_API_KEY, DEV_BANK_RAIL_WEBHOOK_SECRET, DEV_VERIFICATION_PROVIDER_API_KEY } from '../../../src/config/app.config';

/** A request a sandbox received, as seen on its HTTP server (before faults such as latency apply). */
export interface SandboxRequest {
  method: string;
  url: string;
}

export interface Sandbox {
  url: string;
  /** `POST /_sandbox/<path>` with this JSON body (the rail's `webhook`, say). */
  control(path: string, body: unknown): Promise<any>;
  /** `POST /_sandbox/faults` with this body; `{}` clears. */
  faults(faults: Record<string, unknown>): Promise<void>;
  state<T = any>(path: string): Promise<T>;
  /** `/v1` requests received so far. */
  requests: SandboxRequest[];
  /** The most `/v1` requests matching `filter` the server ever had open at once. */
  maxInFlight(filter: (request: SandboxRequest) => boolean): number;
  close(): Promise<void>;
}

async function listen(app: FastifyInstance): Promise<Sandbox> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const requests: SandboxRequest[] = [];
  const open = new Set<SandboxRequest>();
  const peaks: { request: SandboxRequest; open: SandboxRequest[] }[] = [];
  // On the HTTP server itself: counted when the request arrives, before any fault (latency) holds it.
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith('/v1')) return;
    const request = { method: req.method ?? '', url: req.url };
    requests.push(request);
    open.add(request);
    peaks.push({ request, open: [...open] });
    res.once('close', () => open.delete(request));
  });
  return {
    url,
    requests,
    maxInFlight: (filter) => Math.max(0, ...peaks.filter((peak) => filter(peak.request)).map((peak) => peak.open.filter(filter).length)),
    faults: async (faults) => {
      const method = Object.keys(faults).length === 0 ? 'DELETE' : 'POST';
      const response = await fetch(`${url}/_sandbox/faults`, {
        method,
        headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
        body: method === 'POST' ? JSON.stringify(faults) : undefined,
      });
      if (!response.ok) throw new Error(`sandbox faults: ${response.status}`);
    },
    state: async <T>(path: string) => (await (await fetch(`${url}${path}`)).json()) as T,
    control: async (path, body) => {
      const response = await fetch(`${url}/_sandbox/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`sandbox ${path}: ${response.status} ${await response.text()}`);
      return response.json();
    },
    close: async () => {
      // Requests held by a `hang` fault would otherwise keep the server open.
      app.server.closeAllConnections();
      await app.close();
    },
  };
}

export interface Sandboxes {
  verification: Sandbox;
  bankRail: Sandbox;
  /** Points the application at them. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Both sandbox third parties (the servers `npm start` runs) as real HTTP servers on free loopback ports. */
export async function startSandboxes(reviewDelayMs: number, rail: { payoutDelayMs?: number } = {}): Promise<Sandboxes> {
  const verification = await listen(createVerificationProviderServer({ apiKey: DEV_VERIFICATION_PROVIDER_API_KEY, reviewDelayMs }));
  const bankRail = await listen(
    createBankRailServer({ apiKey: DEV_BANK_RAIL_API_KEY, webhookSecret: DEV_BANK_RAIL_WEBHOOK_SECRET, payoutDelayMs: rail.payoutDelayMs, deliveryRetryMs: 50 }),
  ).catch(async (err: unknown) => {
    await verification.close();
    throw err;
  });
  return {
    verification,
    bankRail,
    env: { VERIFICATION_PROVIDER_URL: verification.url, BANK_RAIL_URL: bankRail.url },
    close: async () => {
      await Promise.all([verification.close(), bankRail.close()]);
    },
  };
}
