import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { ApiProcess, spawnWorker } from '../support/api-process';
import { carefulClient, cutConnectionsInLoop } from '../support/faults';
import {
  createInternationalIntent,
  createQuote,
  intentBody,
  INTENTS,
  InternationalStack,
  QUOTES,
  startInternationalStack,
  verifiedBusiness,
} from '../support/international';
import { balanceOf, fundedMerchant, ledgerVerify, newKey } from '../support/money-stack';
import { eventually } from '../support/poll';

/** What a settled intent posted: each move of its money once. */
const SETTLED_POSTINGS = [
  'international_bridge_confirmed',
  'international_bridge_initiated',
  'international_reserved',
  'international_settled',
  'international_withdrawal_confirmed',
  'international_withdrawal_initiated',
];
/** A Redis database of this suite's own, so wiping it touches no other suite. */
const REDIS_URL = 'redis://127.0.0.1:6379/9';

const JOB_LOCK_MS = 2_000;
/** Long enough to see each waiting state, and to kill a worker in it, after a worker start and a lock's takeover. */
const STEP_MS = 10_000;

/**
 * Worker processes as in production (`src/worker.ts`), killed with SIGKILL at every stage of one
 * intent's pipeline: mid-call to each rail (the rail acted, the answer was not recorded), and in
 * each state between. Each restart resumes where the last one stopped; the intent settles once,
 * and each rail created its leg once however often it was asked.
 */
describe('International settlement: the worker killed between every pair of stages', () => {
  let stack: InternationalStack;
  let worker: ApiProcess | undefined;

  /** One worker at most: a second would go on working while the test believes it killed the only one. */
  const startWorker = async () => {
    worker ??= await spawnWorker(stack.db.url, stack.env);
  };
  const killWorker = async () => {
    await worker?.kill();
    worker = undefined;
  };
  const statusOf = async (id: string): Promise<string> =>
    (await stack.pg.query(`SELECT status FROM international_payment_intents WHERE id = $1`, [id])).rows[0].status;
  /** The types of the ledger transactions the intent posted, in order of type. */
  const postingsOf = async (id: string): Promise<string[]> =>
    (await stack.pg.query<{ type: string }>(`SELECT type FROM ledger_transactions WHERE source_id = $1 ORDER BY type`, [id])).rows.map((r) => r.type);
  const reaches = async (id: string, status: string) =>
    expect(
      await eventually(
        () => statusOf(id),
        (s) => s === status,
        30_000,
        20,
      ),
    ).toBe(status);

  /** Runs `test` with both rails' steps short (1.5 s: returns and legs a test waits on), then puts back the suite's. */
  const withQuickRails = async (test: () => Promise<void>) => {
    await stack.bridgeRail.setSettlementStep(1_500);
    await stack.payoutRail.setSettlementStep(1_500);
    try {
      await test();
    } finally {
      await stack.bridgeRail.setSettlementStep(STEP_MS);
      await stack.payoutRail.setSettlementStep(STEP_MS);
    }
  };

  beforeAll(async () => {
    stack = await startInternationalStack({
      name: 'intl-crash',
      worker: false,
      settlementStepMs: STEP_MS,
      env: { REDIS_URL, JOB_LOCK_MS: String(JOB_LOCK_MS), PERIODIC_JOB_INTERVAL_MS: '300', PROVIDER_TIMEOUT_MS: '10000' },
    });
  }, 60_000);

  afterAll(async () => {
    await killWorker();
    const redis = new Redis(REDIS_URL);
    await redis.flushdb();
    redis.disconnect();
    await stack?.close();
  });

  it('resumes after each kill and settles once', async () => {
    // Setting up needs a worker too (KYB is forwarded by it).
    await startWorker();
    const { apiKey } = await fundedMerchant(stack.t, 1_000_000);
    const business = await verifiedBusiness(stack, apiKey);
    await killWorker();
    const before = await balanceOf(stack.t, apiKey);

    const quote = await createQuote(stack.t, apiKey, { poboUserId: business });
    const { intentId: id } = await createInternationalIntent(stack.t, apiKey, intentBody(quote));
    expect(await statusOf(id)).toBe('pending');

    // 1. Killed mid-call to the bridge rail: the rail created the transfer, its answer never arrived.
    await stack.bridgeRail.faults({ answerDelayMs: 3_000 });
    await startWorker();
    await eventually(
      () => stack.bridgeRail.calls(id),
      (calls) => calls.created === 1,
      20_000,
      20,
    );
    expect(await statusOf(id)).toBe('processing');
    await killWorker();
    await stack.bridgeRail.faults({});

    // 2. The next worker takes the job over once its lock runs out, asks again, gets the same transfer; killed while the leg runs.
    await startWorker();
    await reaches(id, 'bridge_initiated');
    await killWorker();
    // The bridge rail's callback lands on the API with no worker running.
    await reaches(id, 'bridge_confirmed');

    // 3. Killed mid-call to the payout rail.
    await stack.payoutRail.faults({ answerDelayMs: 3_000 });
    await startWorker();
    await eventually(
      () => stack.payoutRail.calls(id),
      (calls) => calls.created === 1,
      20_000,
      20,
    );
    expect(await statusOf(id)).toBe('bridge_confirmed');
    await killWorker();
    await stack.payoutRail.faults({});

    // 4. Resumed, and killed while the payout runs; its callback lands with no worker and settles
    // the intent (nothing is left to wait for once the payout completed).
    await startWorker();
    await reaches(id, 'withdrawal_initiated');
    await killWorker();
    await reaches(id, 'settled');

    const history = (await stack.pg.query(`SELECT to_status FROM international_payment_intent_status_history WHERE intent_id = $1 ORDER BY id`, [id])).rows.map(
      (r) => r.to_status,
    );
    expect(history).toEqual(['processing', 'bridge_initiated', 'bridge_confirmed', 'withdrawal_initiated', 'withdrawal_confirmed', 'settled']);
    // Each move posted its money once, however often the worker was killed around it.
    expect(await postingsOf(id)).toEqual(SETTLED_POSTINGS);
    // Each rail was asked at least twice for its leg (once by the killed worker), and created it once.
    const bridge = await stack.bridgeRail.calls(id);
    const payout = await stack.payoutRail.calls(id);
    expect(bridge.created).toBe(1);
    expect(payout.created).toBe(1);
    expect(bridge.createRequests).toBeGreaterThanOrEqual(2);
    expect(payout.createRequests).toBeGreaterThanOrEqual(2);
    const after = await balanceOf(stack.t, apiKey);
    expect(after.available).toBeCloseTo(before.available - quote.options[0].sourceAmount, 2);
    expect(after.reserved).toBe(0);
    expect((await ledgerVerify(stack)).code).toBe(0);
  }, 120_000);

  it('a late rejection gets the money back once, the worker killed while each rail was asked for it', async () => {
    await withQuickRails(async () => {
      await startWorker();
      const { apiKey } = await fundedMerchant(stack.t, 1_000_000);
      const business = await verifiedBusiness(stack, apiKey);
      const before = await balanceOf(stack.t, apiKey);
      const quote = await createQuote(stack.t, apiKey, { poboUserId: business });
      // A payout that never completes: the intent waits in withdrawal_initiated for the operator.
      const { intentId: id } = await createInternationalIntent(stack.t, apiKey, intentBody(quote, { accountNumber: '000123452222' }));
      await reaches(id, 'withdrawal_initiated');
      const returnOf = async (collection: 'transfers' | 'payouts') => {
        const rail = collection === 'transfers' ? stack.bridgeRail : stack.payoutRail;
        return (await rail.state<any>(`/_sandbox/${collection}`))[collection].find((r: any) => r.reference === id)?.return ?? null;
      };

      // 1. The operator rejects; the worker asks the payout rail for the money and is killed before its answer.
      await stack.payoutRail.faults({ answerDelayMs: 3_000 });
      await promisify(execFile)('npm', ['run', '--silent', 'international:reject', '--', '--intent', id, '--note', 'Held too long'], {
        cwd: `${__dirname}/../..`,
        env: { ...process.env, ...stack.env, DATABASE_URL: stack.db.url },
      });
      expect(await balanceOf(stack.t, apiKey)).toEqual(before);
      await eventually(
        () => returnOf('payouts'),
        (r) => r !== null,
        20_000,
        20,
      );
      await killWorker();
      await stack.payoutRail.faults({});

      // 2. The payout rail's callback lands with no worker running; a new worker asks the bridge rail and is killed too.
      await stack.bridgeRail.faults({ answerDelayMs: 3_000 });
      await startWorker();
      await eventually(
        () => returnOf('transfers'),
        (r) => r !== null,
        20_000,
        20,
      );
      await killWorker();
      await stack.bridgeRail.faults({});

      // 3. The bridge rail's callback lands; the last worker takes the stalled jobs over and asks again.
      await startWorker();
      const positions = async () =>
        (
          await stack.pg.query(
            `SELECT a.kind, sum(e.amount)::bigint AS amount FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transactions t ON t.id = e.transaction_id
          WHERE t.source_id = $1 AND a.merchant_id IS NULL GROUP BY a.kind HAVING sum(e.amount) <> 0`,
            [id],
          )
        ).rows
          .map((r) => r.kind)
          .sort();
      const returned = await eventually(
        () => returnOf('transfers'),
        (r) => r?.status === 'completed',
        20_000,
        50,
      );
      const settled = await eventually(positions, (kinds) => !kinds.some((kind) => /rail_in_transit|at_bridge_rail|receivable_/.test(kind)), 30_000, 100);
      const sent = Math.round((quote.options[0].sourceAmount - quote.options[0].fee) * 100);
      expect(settled).toEqual(sent === returned.amount ? [] : ['bank_rail', 'recovery_differences']);
      // Let the restarted jobs ask again once more: nothing moves twice.
      await new Promise((resolve) => setTimeout(resolve, 3 * JOB_LOCK_MS));
      const postings = await postingsOf(id);
      expect(postings.filter((type) => type === 'international_payout_returned')).toHaveLength(1);
      expect(postings.filter((type) => type === 'international_returned')).toHaveLength(1);
      expect(postings.filter((type) => type === 'international_released')).toHaveLength(1);
      expect(await balanceOf(stack.t, apiKey)).toEqual(before);
      expect((await ledgerVerify(stack)).code).toBe(0);
    });
  }, 180_000);

  it('an operator rejection from each state before settled refunds the merchant once and gets the money back from the rails', async () => {
    await withQuickRails(async () => {
      await startWorker();
      const { apiKey } = await fundedMerchant(stack.t, 5_000_000);
      const business = await verifiedBusiness(stack, apiKey);
      const run = promisify(execFile);
      const reject = (id: string) =>
        run('npm', ['run', '--silent', 'international:reject', '--', '--intent', id, '--note', 'Stopped by operations'], {
          cwd: `${__dirname}/../..`,
          env: { ...process.env, ...stack.env, DATABASE_URL: stack.db.url },
        });
      const record = async (collection: 'transfers' | 'payouts', id: string) => {
        const rail = collection === 'transfers' ? stack.bridgeRail : stack.payoutRail;
        return (await rail.state<any>(`/_sandbox/${collection}`))[collection].find((r: any) => r.reference === id);
      };
      const platform = async (id: string) =>
        (
          await stack.pg.query(
            `SELECT a.kind FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transactions t ON t.id = e.transaction_id
              WHERE t.source_id = $1 AND a.merchant_id IS NULL GROUP BY a.kind HAVING sum(e.amount) <> 0`,
            [id],
          )
        ).rows.map((r) => r.kind as string);

      /** Brings a new intent to `state` with the worker as it must be for that (running or killed), and answers its id. */
      const intentIn = async (state: string): Promise<string> => {
        const account = { processing: '000123451111', withdrawal_initiated: '000123452222' }[state] ?? '000123456789';
        if (state === 'pending') await killWorker();
        // The operator's command takes seconds to start: the bridge leg waits longer than that.
        if (state === 'bridge_initiated') await stack.bridgeRail.setSettlementStep(60_000);
        const quote = await createQuote(stack.t, apiKey, { poboUserId: business });
        const { intentId } = await createInternationalIntent(stack.t, apiKey, intentBody(quote, { accountNumber: account }));
        if (state === 'pending') return intentId;
        if (state === 'bridge_initiated') {
          await reaches(intentId, state);
          // Steps from now on (the return's) are quick again; the transfer's own stays pending.
          await stack.bridgeRail.setSettlementStep(1_500);
          return intentId;
        }
        if (state === 'bridge_confirmed') {
          // The worker dies just before: the rail's callback moves the intent there, and nothing moves it on.
          await reaches(intentId, 'bridge_initiated');
          await killWorker();
        }
        await reaches(intentId, state);
        return intentId;
      };

      // `withdrawal_confirmed` settles in the payout's own transaction: no operator can catch an intent there.
      for (const state of ['pending', 'processing', 'bridge_initiated', 'bridge_confirmed', 'withdrawal_initiated']) {
        if (!worker && state !== 'pending') await startWorker();
        const before = await balanceOf(stack.t, apiKey);
        const id = await intentIn(state);
        const { stdout } = await reject(id);
        expect(JSON.parse(stdout)).toMatchObject({ intentId: id, from: state, status: 'rejected' });
        if (!worker) await startWorker();
        // Back to where it was at once, whatever the rails do next.
        const now = await balanceOf(stack.t, apiKey);
        expect(now.available).toBeCloseTo(before.available, 2);
        const reached = !['pending', 'processing'].includes(state);
        // The rails gave the money back: nothing stays at a rail or owed to the platform.
        const closed = await eventually(
          () => platform(id),
          (kinds) => !kinds.some((kind) => /rail_in_transit|at_bridge_rail|paid_abroad|receivable_/.test(kind)),
          30_000,
          100,
        );
        expect(closed.every((kind) => ['bank_rail', 'recovery_differences'].includes(kind))).toBe(true);
        const transfer = await record('transfers', id);
        if (reached) expect(transfer).toMatchObject({ status: 'returned', return: { status: 'completed' } });
        // Nothing had left the reservation in the books, but the rail held the transfer in review: it is cancelled.
        if (state === 'processing')
          expect(
            await eventually(
              () => record('transfers', id),
              (t) => t?.status === 'returned',
              20_000,
              100,
            ),
          ).toMatchObject({ status: 'returned' });
        if (state === 'pending') expect(transfer).toBeUndefined();
        if (state.startsWith('withdrawal')) expect(await record('payouts', id)).toMatchObject({ status: 'returned' });
        const reversals = (
          await stack.pg.query(`SELECT count(*)::int AS n FROM balance_transactions WHERE source_id = $1 AND type = 'international_payment_reversal'`, [id])
        ).rows[0].n;
        expect([state, reversals]).toEqual([state, 1]);
      }
      expect((await balanceOf(stack.t, apiKey)).reserved).toBe(0);
      expect((await ledgerVerify(stack)).code).toBe(0);
    });
  }, 300_000);

  it('every PostgreSQL connection cut in a loop, Redis wiped and the worker killed while intents move: each settles once, the ledger whole', async () => {
    await withQuickRails(async () => {
      await startWorker();
      const { apiKey } = await fundedMerchant(stack.t, 5_000_000);
      const business = await verifiedBusiness(stack, apiKey);
      const before = await balanceOf(stack.t, apiKey);
      const statuses = new Map<number, number>();
      const client = carefulClient(() => stack.t.baseUrl, statuses);
      const redis = new Redis(REDIS_URL);
      const cutter = await cutConnectionsInLoop(stack.db.url, stack.pg);
      let cuts = 0;
      const ids: string[] = [];
      const sent: number[] = [];
      /** A worker again; one whose boot a cut connection broke exits, and the next try starts it. */
      const restart = async () => {
        for (let attempt = 0; !worker; attempt++) {
          try {
            await startWorker();
          } catch (err) {
            if (attempt > 20) throw err;
          }
        }
      };
      try {
        for (let i = 0; i < 4; i++) {
          const quote = await client('POST', QUOTES, apiKey, { poboUserId: business, destinationCountry: 'US', currency: 'USD', amount: 100 + i });
          expect(quote.status).toBe(201);
          const created = await client('POST', INTENTS, apiKey, intentBody(quote.body.response), newKey());
          expect({ status: created.status, error: created.body.error }).toEqual({ status: 201, error: undefined });
          ids.push(created.body.response.intentId);
          sent.push(quote.body.response.options[0].sourceAmount);
        }
        // Halfway (the first intent past the bridge rail): Redis loses every job and lock, and the worker is killed.
        await eventually(
          () => statusOf(ids[0]),
          (status) => !['pending', 'processing', 'bridge_initiated'].includes(status),
          60_000,
          50,
        );
        await redis.flushdb();
        await killWorker();
        await restart();
        const settled = await eventually(
          async () => (await stack.pg.query(`SELECT status FROM international_payment_intents WHERE id = ANY($1)`, [ids])).rows.map((r) => r.status),
          (all) => all.every((status) => status === 'settled'),
          120_000,
          200,
        );
        expect(settled).toEqual(ids.map(() => 'settled'));
      } finally {
        cuts = await cutter.stop();
        redis.disconnect();
      }
      expect(cuts).toBeGreaterThan(0);
      for (const id of ids) {
        expect([id, await postingsOf(id)]).toEqual([id, SETTLED_POSTINGS]);
        expect(await stack.bridgeRail.calls(id)).toMatchObject({ created: 1 });
        expect(await stack.payoutRail.calls(id)).toMatchObject({ created: 1 });
      }
      const after = await balanceOf(stack.t, apiKey);
      expect(after.available).toBeCloseTo(before.available - sent.reduce((sum, amount) => sum + amount, 0), 2);
      expect(after.reserved).toBe(0);
      expect((await ledgerVerify(stack)).code).toBe(0);
    });
  }, 240_000);
});
