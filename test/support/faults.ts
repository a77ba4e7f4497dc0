import { Client } from 'pg';
import { sleep } from './poll';
import { http, HttpResult } from './test-app';

/**
 * A careful client, as the contract asks: the same request, with the same Idempotency-Key, again
 * after a 503, a 423 or a connection cut mid-answer. Every answer's status is counted in `statuses`.
 */
export function carefulClient(baseUrl: () => string, statuses: Map<number, number>) {
  return async (method: string, path: string, apiKey: string, body?: unknown, key?: string): Promise<HttpResult> => {
    for (let attempt = 0; ; attempt++) {
      let result: HttpResult | undefined;
      try {
        result = await http(baseUrl(), method, path, { apiKey, body, headers: key === undefined ? {} : { 'idempotency-key': key } });
      } catch (err) {
        // A connection cut mid-answer is a network failure to the client: it retries too.
        if (!/fetch failed|other side closed|socket/i.test((err as Error).message)) throw err;
      }
      if (result) statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
      if (result && result.status !== 503 && result.status !== 423) return result;
      if (attempt > 300) throw new Error(`${method} ${path} never got through`);
      await sleep(result ? Math.min(Number(result.headers.get('retry-after') ?? 1) * 1000, 500) : 100);
    }
  };
}

/**
 * The cutter: every connection of the database's other sessions (the API's pool, the worker's
 * pool and its LISTEN connection, an in-process app's), over and over, until `stop`; only the
 * suite's own client `spared` is left alone. `stop` answers how many sessions it cut.
 */
export async function cutConnectionsInLoop(databaseUrl: string, spared: Client): Promise<{ stop(): Promise<number> }> {
  const cutter = new Client({ connectionString: databaseUrl, application_name: 'connection-cutter' });
  await cutter.connect();
  const database = new URL(databaseUrl).pathname.slice(1);
  const sparedPid = (await spared.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  let cutting = true;
  let cuts = 0;
  const loop = (async () => {
    while (cutting) {
      const { rowCount } = await cutter.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND pid <> $2`,
        [database, sparedPid],
      );
      cuts += rowCount ?? 0;
      await sleep(100 + Math.random() * 300);
    }
  })();
  return {
    stop: async () => {
      cutting = false;
      await loop;
      await cutter.end();
      return cuts;
    },
  };
}
