import { randomBytes } from 'node:crypto';
import { nubanFor } from '../../src/common/banking/nuban';
import { ApiProcess, spawnApi, spawnWorker } from '../support/api-process';
import { carefulClient, cutConnectionsInLoop } from '../support/faults';
import { eventually, sleep } from '../support/poll';
import { ledgerVerify, MoneyStack, newKey, startMoneyStack } from '../support/money-stack';
import { RawConnection, requestHead } from '../support/raw-http';
import { http, TEST_LIMITS } from '../support/test-app';

const BODY_IDLE_TIMEOUT_MS = 500;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
/** A merchant route of each kind, a public one, a rail callback and no route at all. */
const PATHS = ['/api/merchant/balance', '/api/merchant/payment-intents', '/health/ready', '/api/rails/bank/events', '/no/such/route'];

/** How much of the request is written before the client goes. */
type Cut = 'mid-headers' | 'mid-body' | 'after-body' | 'after-answer';
const CUTS: Cut[] = ['mid-headers', 'mid-body', 'after-body', 'after-answer'];

interface Framing {
  name: string;
  /** Headers announcing the body. */
  headers: Array<[string, string]>;
  /** The body bytes, split where a client cut mid-body would stop. */
  parts: [string, string];
}
const FRAMINGS: Framing[] = [
  {
    name: 'a JSON body',
    headers: [
      ['content-type', 'application/json'],
      ['content-length', '2'],
    ],
    parts: ['{', '}'],
  },
  {
    name: 'junk after the body',
    headers: [
      ['content-type', 'application/json'],
      ['content-length', '2'],
    ],
    parts: ['{}', '\x00\xff junk'],
  },
  {
    name: 'a half-sent body',
    headers: [
      ['content-type', 'application/json'],
      ['content-length', '40'],
    ],
    parts: ['{"a":', ''],
  },
  {
    name: 'an unfinished chunked body',
    headers: [
      ['content-type', 'application/json'],
      ['transfer-encoding', 'chunked'],
    ],
    parts: ['2\r\n{}\r\n', ''],
  },
];

const alive = (p: ApiProcess) => p.child.exitCode === null && p.child.signalCode === null;

/**
 * Found by a probe of the running service: one authenticated GET with a body whose client left
 * ended the API process 10 s later, and the worker could die on a terminated PostgreSQL
 * connection. Both processes run here as production runs them (their own Node processes), so
 * that an exit shows.
 */
describe('No request ends the API process', () => {
  let stack: MoneyStack;
  let api: ApiProcess;
  let apiKey: string;

  beforeAll(async () => {
    stack = await startMoneyStack({ name: 'survive', worker: false });
    api = await spawnApi(stack.db.url, { ...stack.env, ...TEST_LIMITS, BODY_IDLE_TIMEOUT_MS: String(BODY_IDLE_TIMEOUT_MS) });
    ({ apiKey } = await stack.t.createMerchant());
  });

  afterAll(async () => {
    await api?.kill();
    await stack?.close();
  });

  /** One request written up to `cut`, then the client goes (or, `after-answer`, reads the answer first). */
  async function send(method: string, path: string, framing: Framing, cut: Cut): Promise<number | undefined> {
    const connection = new RawConnection(Number(new URL(api.baseUrl).port), { headOnly: method === 'HEAD' });
    const head = requestHead(method, path, [['x-api-key', apiKey], ...framing.headers]);
    try {
      if (cut === 'mid-headers') {
        await connection.write(head.slice(0, head.length - 10));
        return undefined;
      }
      await connection.write(head + framing.parts[0]);
      if (cut === 'mid-body') return undefined;
      await connection.write(framing.parts[1]);
      if (cut === 'after-body') return undefined;
      // No answer at all counts too: the process must still be there afterwards.
      const answer = connection.answer.catch(() => undefined);
      return (await Promise.race([answer, sleep(BODY_IDLE_TIMEOUT_MS * 6).then(() => undefined)]))?.status;
    } finally {
      connection.destroy();
    }
  }

  it('survives every method with a body, junk or a half-sent body, whatever point the client leaves at, and answers no 5xx', async () => {
    const cases = METHODS.flatMap((method) => PATHS.flatMap((path) => FRAMINGS.flatMap((framing) => CUTS.map((cut) => ({ method, path, framing, cut })))));
    const statuses: Array<{ what: string; status: number | undefined }> = [];
    for (let i = 0; i < cases.length; i += 40) {
      await Promise.all(
        cases.slice(i, i + 40).map(async ({ method, path, framing, cut }) => {
          statuses.push({ what: `${method} ${path} with ${framing.name}, client gone ${cut}`, status: await send(method, path, framing, cut) });
        }),
      );
    }
    // The body deadline of every abandoned request has passed, twice over.
    await sleep(BODY_IDLE_TIMEOUT_MS * 4);

    expect(statuses.filter(({ status }) => status !== undefined && status >= 500)).toEqual([]);
    expect(alive(api)).toBe(true);
    expect(api.output()).not.toMatch(/crashed|Unhandled 'error' event/);
    expect((await http(api.baseUrl, 'GET', '/health/live')).status).toBe(200);
    const balance = await http(api.baseUrl, 'GET', '/api/merchant/balance', { apiKey });
    expect(balance.status).toBe(200);
  });
});

describe('A PostgreSQL connection lost at any point answers 503, never 500, and no process ends', () => {
  let stack: MoneyStack;
  let api: ApiProcess;
  let worker: ApiProcess;

  beforeAll(async () => {
    stack = await startMoneyStack({ name: 'cuts', worker: false });
    // A request whose key could not be given back (its release was cut too) holds it for the
    // lock's length before a retry takes over: short here, so the suite's retries get through.
    const env = { ...stack.env, ...TEST_LIMITS, DB_POOL_SIZE: '4', IDEMPOTENCY_LOCK_MS: '3000' };
    api = await spawnApi(stack.db.url, env);
    worker = await spawnWorker(stack.db.url, env);
    await stack.callbacksTo(api.baseUrl);
  });

  afterAll(async () => {
    await worker?.kill();
    await api?.kill();
    await stack?.close();
  });

  it('cuts every connection of the API and the worker in a loop under load: every request ends as it would have, and the ledger verifies', async () => {
    const statuses = new Map<number, number>();
    const retried = carefulClient(() => api.baseUrl, statuses);
    // Created before the cuts begin: this suite's in-process app makes them.
    const merchants = await Promise.all(Array.from({ length: 6 }, (_, i) => stack.t.createMerchant(`Cut merchant ${i}`)));
    const cutter = await cutConnectionsInLoop(stack.db.url, stack.pg);
    let cuts = 0;

    const account = nubanFor('044', '069000003');
    const flows = await Promise.all(
      merchants.map(async ({ apiKey }, i) => {
        const expected = { confirmed: 0, withdrawn: 0, intents: [] as string[], withdrawals: [] as string[] };
        for (let round = 0; round < 3; round++) {
          const reference = `cut-${i}-${round}-${randomBytes(4).toString('hex')}`;
          const created = await retried('POST', '/api/merchant/payment-intents', apiKey, { merchantReference: reference, amount: 5000 }, newKey());
          expect(created.status).toBe(201);
          const id = created.body.response.paymentIntentId as string;
          expected.intents.push(reference);
          expect((await retried('POST', `/api/merchant/test-helpers/payment-intents/${id}/fund`, apiKey, {}, newKey())).status).toBe(202);
          const funded = await eventually(
            () => retried('GET', `/api/merchant/payment-intents/${id}`, apiKey),
            (r) => r.body.response.status === 'funds_received',
            30_000,
            100,
          );
          expect(funded.body.response.status).toBe('funds_received');
          const confirmed = await retried('POST', `/api/merchant/payment-intents/${id}/confirm`, apiKey, {}, newKey());
          expect(confirmed.status).toBe(200);
          expected.confirmed += 5000;
          const withdrawal = await retried(
            'POST',
            '/api/merchant/withdrawals',
            apiKey,
            { merchantReference: `wd-${reference}`, amount: 1000, bankCode: '044', accountNumber: account, accountName: 'Acme Stores Ltd' },
            newKey(),
          );
          expect(withdrawal.status).toBe(201);
          expected.withdrawn += 1000;
          expected.withdrawals.push(withdrawal.body.response.withdrawalId);
        }
        return { apiKey, expected };
      }),
    ).finally(async () => {
      cuts = await cutter.stop();
    });

    expect(cuts).toBeGreaterThan(20);
    expect([...statuses.keys()].filter((status) => status >= 500 && status !== 503)).toEqual([]);
    for (const { apiKey, expected } of flows) {
      for (const id of expected.withdrawals) {
        const settled = await eventually(
          () => retried('GET', `/api/merchant/withdrawals/${id}`, apiKey),
          (r) => r.body.response.status === 'succeeded',
          60_000,
          200,
        );
        expect(settled.body.response.status).toBe('succeeded');
      }
      const balance = (await retried('GET', '/api/merchant/balance', apiKey)).body.response[0];
      // Each withdrawal carries the deployment's flat fee, read off the withdrawals themselves.
      const fees = (
        await Promise.all(expected.withdrawals.map(async (id) => (await retried('GET', `/api/merchant/withdrawals/${id}`, apiKey)).body.response.fee as number))
      ).reduce((a, b) => a + b, 0);
      expect(balance).toMatchObject({ available: expected.confirmed - expected.withdrawn - fees, reserved: 0 });
    }
    const perReference = await stack.pg.query(
      `SELECT merchant_reference, count(*)::int AS n FROM payment_intents GROUP BY merchant_reference HAVING count(*) > 1`,
    );
    expect(perReference.rows).toEqual([]);
    expect(alive(api)).toBe(true);
    expect(alive(worker)).toBe(true);
    expect(api.output() + worker.output()).not.toMatch(/crashed|Unhandled 'error' event/);
    const verified = await ledgerVerify(stack);
    expect(verified.code).toBe(0);
    process.stdout.write(`connection cuts: ${cuts} sessions terminated; answers by status ${JSON.stringify(Object.fromEntries(statuses))}\n`);
  }, 240_000);
});
