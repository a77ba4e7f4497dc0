import type { IncomingMessage, ServerResponse } from 'node:http';
import { FastifyInstance } from 'fastify';
import { createBankRailServer } from '../../sandbox/bank-rail/bank-rail.server';
import { createBridgeRailServer } from '../../sandbox/bridge-rail/bridge-rail.server';
import { createPayoutRailServer } from '../../sandbox/payout-rail/payout-rail.server';
import { createVerificationProviderServer } from '../../sandbox/verification-provider/verification-provider.server';
import {
  DEV_BANK_RAIL_API_KEY,
  DEV_BANK_RAIL_WEBHOOK_SECRET,
  DEV_BRIDGE_RAIL_API_KEY,
  DEV_BRIDGE_RAIL_WEBHOOK_SECRET,
  DEV_PAYOUT_RAIL_API_KEY,
  DEV_PAYOUT_RAIL_WEBHOOK_SECRET,
  DEV_VERIFICATION_PROVIDER_API_KEY,
} from '../../src/config/dev-secrets';

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
    createBankRailServer({
      apiKey: DEV_BANK_RAIL_API_KEY,
      webhookSecret: DEV_BANK_RAIL_WEBHOOK_SECRET,
      payoutDelayMs: rail.payoutDelayMs,
      deliveryRetryMs: 50,
    }),
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

/** What `GET /_sandbox/calls?reference=…` answers: create requests for the reference, and how many were created (at most 1). */
export interface RailCalls {
  createRequests: number;
  created: number;
}

/** A cross-border sandbox rail (bridge or payout) with its own control routes. */
export interface CrossBorderSandbox extends Sandbox {
  /** `GET /_sandbox/calls?reference=<reference>`; the totals without one. */
  calls(reference?: string): Promise<RailCalls>;
  /** `POST /_sandbox/settings`: the step of transfers or payouts created from now on. */
  setSettlementStep(ms: number): Promise<void>;
  /** `POST /_sandbox/webhook`: where events are posted from now on (null: nowhere). */
  callbacksTo(url: string | null): Promise<void>;
}

export interface CrossBorderSandboxOptions {
  /** How long each transfer stays `pending` and each payout `processing`; 0 settles at once. Default 20. */
  settlementStepMs?: number;
  /** Full callback URLs (e.g. `${baseUrl}${BRIDGE_RAIL_CALLBACK_PATH}`); none by default, set later with `callbacksTo`. */
  bridgeCallbackUrl?: string | null;
  payoutCallbackUrl?: string | null;
}

function crossBorder(sandbox: Sandbox): CrossBorderSandbox {
  return Object.assign(sandbox, {
    calls: (reference?: string) =>
      sandbox.state<RailCalls>(reference === undefined ? '/_sandbox/calls' : `/_sandbox/calls?reference=${encodeURIComponent(reference)}`),
    setSettlementStep: async (ms: number) => {
      await sandbox.control('settings', { settlement_step_ms: ms });
    },
    callbacksTo: async (url: string | null) => {
      await sandbox.control('webhook', { url });
    },
  });
}

/** The sandbox bridge rail (rates, NGN conversion, compliance screening) on a free loopback port, with the development key and webhook secret. */
export async function startBridgeRailSandbox(options: { settlementStepMs?: number; callbackUrl?: string | null } = {}): Promise<CrossBorderSandbox> {
  return crossBorder(
    await listen(
      createBridgeRailServer({
        apiKey: DEV_BRIDGE_RAIL_API_KEY,
        webhookSecret: DEV_BRIDGE_RAIL_WEBHOOK_SECRET,
        callbackUrl: options.callbackUrl ?? null,
        settlementStepMs: options.settlementStepMs ?? 20,
        deliveryRetryMs: 50,
      }),
    ),
  );
}

/** The sandbox payout rail (payouts abroad with MT103 confirmations) on a free loopback port, with the development key and webhook secret. */
export async function startPayoutRailSandbox(options: { settlementStepMs?: number; callbackUrl?: string | null } = {}): Promise<CrossBorderSandbox> {
  return crossBorder(
    await listen(
      createPayoutRailServer({
        apiKey: DEV_PAYOUT_RAIL_API_KEY,
        webhookSecret: DEV_PAYOUT_RAIL_WEBHOOK_SECRET,
        callbackUrl: options.callbackUrl ?? null,
        settlementStepMs: options.settlementStepMs ?? 20,
        deliveryRetryMs: 50,
      }),
    ),
  );
}

export interface CrossBorderSandboxes {
  bridgeRail: CrossBorderSandbox;
  payoutRail: CrossBorderSandbox;
  /** Points the application at them (`BRIDGE_RAIL_URL`, `PAYOUT_RAIL_URL`; keys and secrets are the development defaults). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Both cross-border sandbox rails (the servers `npm start` runs) as real HTTP servers on free loopback ports. */
export async function startCrossBorderSandboxes(options: CrossBorderSandboxOptions = {}): Promise<CrossBorderSandboxes> {
  const bridgeRail = await startBridgeRailSandbox({ settlementStepMs: options.settlementStepMs, callbackUrl: options.bridgeCallbackUrl });
  const payoutRail = await startPayoutRailSandbox({ settlementStepMs: options.settlementStepMs, callbackUrl: options.payoutCallbackUrl }).catch(
    async (err: unknown) => {
      await bridgeRail.close();
      throw err;
    },
  );
  return {
    bridgeRail,
    payoutRail,
    env: { BRIDGE_RAIL_URL: bridgeRail.url, PAYOUT_RAIL_URL: payoutRail.url },
    close: async () => {
      await Promise.all([bridgeRail.close(), payoutRail.close()]);
    },
  };
}
