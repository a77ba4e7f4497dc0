import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with a request `hold` matches: never forward it, or forward it and never answer. */
export type HoldMode = 'drop' | 'swallow';

export interface RpcProxy {
  url: string;
  /** From now on, JSON-RPC calls `matches` selects are held in `mode`; null stops holding. */
  hold(matches: ((call: { method: string; params: unknown[] }) => boolean) | null, mode?: HoldMode): void;
  /** How many calls were held so far. */
  held(): number;
  close(): Promise<void>;
}

/**
 * A JSON-RPC proxy in front of a chain's node, to cut a process off at one exact call: a held call
 * gets no answer, as when the process dies while waiting for it, and (in `drop` mode) never
 * reaches the node either.
 */
export async function startRpcProxy(target: string): Promise<RpcProxy> {
  let matcher: ((call: { method: string; params: unknown[] }) => boolean) | null = null;
  let mode: HoldMode = 'drop';
  let held = 0;
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let call: { method: string; params: unknown[] } | undefined;
      try {
        call = JSON.parse(body.toString()) as { method: string; params: unknown[] };
      } catch {
        call = undefined;
      }
      const hold = call !== undefined && !Array.isArray(call) && matcher !== null && matcher(call);
      if (hold) {
        held++;
        hanging.add(res);
        if (mode === 'drop') return;
      }
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
        async (answer) => {
          if (hold) return;
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
        },
        () => res.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hold: (matches, holdMode = 'drop') => {
      matcher = matches;
      mode = holdMode;
    },
    held: () => held,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
