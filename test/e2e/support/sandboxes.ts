import { FastifyInstance } from 'fastify';
import { createBankRailServer } from '../../../sandbox/bank-rail/bank-rail.server';
import { createVerificationProviderServer } from '../../../sandbox/verification-provider/verification-provider.server';
import { DEV_BANK_RAIL_API_KEY, DEV_VERIFICATION_PROVIDER_API_KEY } from '../../../src/config/app.config';

export interface Sandbox {
  url: string;
  /** `POST /_sandbox/faults` with this body; `{}` clears. */
  faults(faults: Record<string, unknown>): Promise<void>;
  state<T = any>(path: string): Promise<T>;
  close(): Promise<void>;
}

async function listen(app: FastifyInstance): Promise<Sandbox> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  return {
    url,
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
    close: async () => {
      // Requests held by a `hang` fault would otherwise keep the server open.
      app.server.closeAllConnections();
      await app.close();
    },
  };
}

/** Both sandbox third parties as real HTTP servers on free loopback ports. */
export async function startSandboxes(reviewDelayMs: number): Promise<{ verification: Sandbox; bankRail: Sandbox; env: Record<string, string> }> {
  const verification = await listen(createVerificationProviderServer({ apiKey: DEV_VERIFICATION_PROVIDER_API_KEY, reviewDelayMs }));
  const bankRail = await listen(createBankRailServer({ apiKey: DEV_BANK_RAIL_API_KEY }));
  return { verification, bankRail, env: { VERIFICATION_PROVIDER_URL: verification.url, BANK_RAIL_URL: bankRail.url } };
}
