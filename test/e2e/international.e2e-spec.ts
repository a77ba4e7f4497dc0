import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client, Pool } from 'pg';
import { Outbox } from '../../src/jobs';
import { BRIDGE_RAIL, BridgeRail, PAYOUT_RAIL, PayoutRail } from '../../src/modules/cross-border-rails';
import { InternationalSettlementService } from '../../src/modules/international-intents';
import { INTERNATIONAL_JOBS } from '../../src/modules/international-intents/international-intents.jobs';
import { BRIDGE_RAIL_RATES } from '../../sandbox/bridge-rail/bridge-rail.server';
import { spawnApi } from '../support/api-process';
import { launchBrowser } from '../support/browser';
import { expectErrorBody, expectInternationalIntent } from '../support/contract';
import {
  createInternationalIntent,
  createQuote,
  INTENTS,
  intentBody,
  InternationalStack,
  isFinal,
  PIPELINE,
  pollIntent,
  QUOTES,
  startInternationalStack,
  verifiedBusiness,
} from '../support/international';
import { balanceOf, fundedMerchant, ledgerVerify, newKey, post } from '../support/money-stack';
import { eventually, sleep } from '../support/poll';
import { createBusiness, http } from '../support/test-app';

const run = promisify(execFile);
/** Screenshots for a human look; never committed. */
const SCREENSHOT_DIR = process.env.RECEIPT_SCREENSHOT_DIR ?? tmpdir();

/** Every status seen moves forward along the pipeline (or ends in `rejected`). */
function expectForwardOnly(seen: any[]): void {
  let at = 0;
  for (const intent of seen) {
    expectInternationalIntent(intent);
    if (intent.status === 'rejected') continue;
    const index = PIPELINE.indexOf(intent.status);
    expect(index).toBeGreaterThanOrEqual(at);
    at = index;
  }
  const rejectedAt = seen.findIndex((intent) => intent.status === 'rejected');
  if (rejectedAt >= 0) expect(seen.slice(rejectedAt).every((intent) => intent.status === 'rejected')).toBe(true);
}

/** The balance once none of the merchant's intents is in flight: an earlier test's intent settling would move it mid-comparison. */
async function quietBalance(stack: InternationalStack, key: string): Promise<{ available: number; reserved: number }> {
  await eventually(
    () => http(stack.t.baseUrl, 'GET', `${INTENTS}?limit=100`, { apiKey: key }),
    (r) => r.body.response.every(isFinal),
    20_000,
    50,
  );
  return balanceOf(stack.t, key);
}

/** Where an intent's money is, by ledger account kind (the merchant's and the platform's): the sum of its postings' lines, in kobo. */
async function positionsOf(stack: InternationalStack, intentId: string): Promise<Record<string, number>> {
  const { rows } = await stack.pg.query<{ kind: string; amount: string }>(
    `SELECT a.kind, sum(e.amount)::text AS amount FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE t.source_id = $1 GROUP BY a.kind HAVING sum(e.amount) <> 0`,
    [intentId],
  );
  return Object.fromEntries(rows.map((row) => [row.kind, Number(row.amount)]));
}

const kobo = (amount: number) => Math.round(amount * 100);

async function balanceTransactions(stack: InternationalStack, apiKey: string, sourceId: string): Promise<any[]> {
  const result = await http(stack.t.baseUrl, 'GET', '/api/merchant/balance-transactions?limit=100', { apiKey });
  expect(result.status).toBe(200);
  return result.body.response.filter((btx: any) => btx.sourceId === sourceId);
}

/**
 * International payment intents end to end: a balance funded through Naira collections, a
 * business verified through KYB, a quote, the intent, and the worker moving it through the
 * sandbox bridge and payout rails (real HTTP servers calling the API back) to `settled`.
 */
describe('International payment intents', () => {
  let stack: InternationalStack;
  let apiKey: string;
  let business: string;

  beforeAll(async () => {
    stack = await startInternationalStack({ name: 'international', settlementStepMs: 150 });
    ({ apiKey } = await fundedMerchant(stack.t, 5_000_000));
    business = await verifiedBusiness(stack, apiKey);
  }, 60_000);

  afterAll(() => stack?.close());

  /** `npm run international:receivable` against the suite's database. */
  const receivable = (intentId: string, args: string[], note: string) =>
    run('npm', ['run', '--silent', 'international:receivable', '--', '--intent', intentId, ...args, '--note', note], {
      cwd: `${__dirname}/../..`,
      env: { ...process.env, ...stack.env, DATABASE_URL: stack.db.url },
    });

  /** The rail's record of the intent's leg: `transfers` at the bridge rail, `payouts` at the payout rail. */
  const railRecord = async (collection: 'transfers' | 'payouts', intentId: string): Promise<any> => {
    const rail = collection === 'transfers' ? stack.bridgeRail : stack.payoutRail;
    return (await rail.state<any>(`/_sandbox/${collection}`))[collection].find((r: any) => r.reference === intentId);
  };
  const railReturn = async (collection: 'transfers' | 'payouts', intentId: string): Promise<any> => (await railRecord(collection, intentId))?.return ?? null;

  /** Where the intent's money is once nothing is left at a rail or owed: waits for the returns to land. */
  const booksClosed = async (intentId: string): Promise<Record<string, number>> =>
    eventually(
      () => positionsOf(stack, intentId),
      (positions) => Object.keys(positions).every((kind) => !/rail_in_transit|at_bridge_rail|paid_abroad|receivable_/.test(kind)),
      20_000,
      100,
    );

  /** The platform's share of a return: what the bridge rail gave back short of (or over) the converted amount sent. */
  const returnDifference = (returned: { amount: number }, option: { sourceAmount: number; fee: number }): Record<string, number> => {
    const difference = kobo(option.sourceAmount - option.fee) - returned.amount;
    return difference === 0 ? {} : { bank_rail: difference, recovery_differences: -difference };
  };

  const reject = (id: string, note: string) =>
    run('npm', ['run', '--silent', 'international:reject', '--', '--intent', id, '--note', note], {
      cwd: `${__dirname}/../..`,
      env: { ...process.env, ...stack.env, DATABASE_URL: stack.db.url },
    });

  /** A new merchant's intent to `accountNumber`, once it is in `state`; the merchant's balance from before it. */
  const newIntentIn = async (state: string, accountNumber: string) => {
    const { apiKey } = await fundedMerchant(stack.t, 1_000_000);
    const business = await verifiedBusiness(stack, apiKey);
    const before = await quietBalance(stack, apiKey);
    const quote = await createQuote(stack.t, apiKey, { poboUserId: business });
    const created = await createInternationalIntent(stack.t, apiKey, intentBody(quote, { accountNumber }));
    await pollIntent(stack.t, apiKey, created.intentId, (i) => i.status === state);
    return { apiKey, before, quote, intentId: created.intentId as string };
  };

  describe('quotes', () => {
    it('prices each route from the rate table, rounding the source amount up to the kobo', async () => {
      const quote = await createQuote(stack.t, apiKey, { poboUserId: business, destinationCountry: 'US', currency: 'USD', amount: 1000 });
      expect(quote).toMatchObject({ poboUserId: business, destinationCountry: 'US', currency: 'USD', amount: 1000 });
      expect(quote.options.map((o: any) => o.routeType)).toEqual(['ngn', 'usdc']);
      // ngn at 1550.75 with ₦500 + 1.5 %: 1,550,750.00 converted, fee 500 + 23,261.25.
      expect(quote.options[0]).toMatchObject({
        sourceCurrency: 'NGN',
        exchangeRate: BRIDGE_RAIL_RATES.USD.routes[0].rate,
        fee: 23761.25,
        sourceAmount: 1574511.25,
      });
      expect(Date.parse(quote.expiresAt) - Date.parse(quote.createdAt)).toBe(15 * 60_000);

      // 10.01 GHS at 128.6543 is 1,287.829543 NGN: 1,287.83 after rounding up; fee 200 + ceil(2 % of it) = 225.76.
      const cedis = await createQuote(stack.t, apiKey, { poboUserId: business, destinationCountry: 'gh', currency: 'ghs', amount: 10.01 });
      expect(cedis.options).toEqual([expect.objectContaining({ routeType: 'ngn', exchangeRate: '128.6543', fee: 225.76, sourceAmount: 1513.59 })]);

      const read = await http(stack.t.baseUrl, 'GET', `${QUOTES}/${quote.quoteId}`, { apiKey });
      expect(read.status).toBe(200);
      expect(read.body.response).toEqual(quote);
    });

    it("refuses a corridor no route serves, and a business that is not the merchant's", async () => {
      const japan = await http(stack.t.baseUrl, 'POST', QUOTES, {
        apiKey,
        body: { poboUserId: business, destinationCountry: 'JP', currency: 'JPY', amount: 100 },
      });
      expectErrorBody(japan, 400, 'unsupported_corridor');
      const other = await stack.t.createMerchant('Other');
      const foreign = await http(stack.t.baseUrl, 'POST', QUOTES, {
        apiKey: other.apiKey,
        body: { poboUserId: business, destinationCountry: 'US', currency: 'USD', amount: 100 },
      });
      expectErrorBody(foreign, 404, 'resource_not_found');
      expectErrorBody(await http(stack.t.baseUrl, 'GET', `${QUOTES}/qt_000000000000000000000000`, { apiKey }), 404, 'quote_not_found');
    });
  });

  describe('the pipeline', () => {
    it('goes from pending to settled, forward only, with the money accounted for at every step', async () => {
      const before = await quietBalance(stack, apiKey);
      const quote = await createQuote(stack.t, apiKey, { poboUserId: business });
      const created = await createInternationalIntent(stack.t, apiKey, intentBody(quote));
      expectInternationalIntent(created);
      const option = quote.options[0];
      expect(created).toMatchObject({
        status: 'pending',
        quoteId: quote.quoteId,
        quoteOptionId: option.quoteOptionId,
        routeType: 'ngn',
        poboUserId: business,
        amount: 100,
        currency: 'USD',
        sourceAmount: option.sourceAmount,
        sourceCurrency: 'NGN',
        purposeOfTransfer: 'Information Service Charges',
        quoteExpiresAt: quote.expiresAt,
        processedAt: null,
        settledAt: null,
      });
      expect(created).not.toHaveProperty('receiptUrl');
      expect(created).not.toHaveProperty('adminNote');
      // The whole source amount leaves available at once (the worker may already have moved the converted part on to the bridge rail).
      expect((await balanceOf(stack.t, apiKey)).available).toBeCloseTo(before.available - option.sourceAmount, 2);

      const seen = await pollIntent(stack.t, apiKey, created.intentId, isFinal);
      expectForwardOnly(seen);
      const settled = seen.at(-1);
      expect(settled.status).toBe('settled');
      // Each state of the pipeline was observable on the way (each leg takes 150 ms in this sandbox).
      for (const status of ['bridge_initiated', 'withdrawal_initiated']) expect(seen.map((i) => i.status)).toContain(status);
      for (const intent of seen) {
        const at = PIPELINE.indexOf(intent.status);
        expect(intent.processedAt !== null).toBe(at > PIPELINE.indexOf('processing'));
        expect('telexUrl' in intent).toBe(at >= PIPELINE.indexOf('withdrawal_confirmed'));
        expect('receiptUrl' in intent).toBe(intent.status === 'settled');
        expect(intent.settledAt !== null).toBe(intent.status === 'settled');
      }

      const after = await balanceOf(stack.t, apiKey);
      expect(after.available).toBeCloseTo(before.available - option.sourceAmount, 2);
      expect(after.reserved).toBeCloseTo(before.reserved, 2);
      const moves = await balanceTransactions(stack, apiKey, created.intentId);
      expect(moves.map((m) => [m.type, m.amount]).sort()).toEqual([
        ['fee', -option.fee],
        ['international_payment', Number((-(option.sourceAmount - option.fee)).toFixed(2))],
      ]);
      // The ledger followed the money: the converted amount went through each rail's position to the
      // recipient, the fee to revenue; nothing is left reserved or on its way.
      expect(await positionsOf(stack, created.intentId)).toEqual({
        available: -kobo(option.sourceAmount),
        paid_abroad: kobo(option.sourceAmount - option.fee),
        fee_revenue: kobo(option.fee),
      });
      const kinds = (await stack.pg.query(`SELECT type FROM ledger_transactions WHERE source_id = $1 ORDER BY created_at`, [created.intentId])).rows.map(
        (r) => r.type,
      );
      expect(kinds).toEqual([
        'international_reserved',
        'international_bridge_initiated',
        'international_bridge_confirmed',
        'international_withdrawal_initiated',
        'international_withdrawal_confirmed',
        'international_settled',
      ]);
      // Each rail created its leg once.
      expect(await stack.bridgeRail.calls(created.intentId)).toMatchObject({ created: 1 });
      expect(await stack.payoutRail.calls(created.intentId)).toMatchObject({ created: 1 });
      expect((await ledgerVerify(stack)).code).toBe(0);

      const listed = await http(stack.t.baseUrl, 'GET', INTENTS, { apiKey });
      expect(listed.status).toBe(200);
      expect(listed.body.response[0]).toEqual(settled);
    });

    it("a rail's callback that lands while the worker is still calling it adds no job: that worker carries the intent on", async () => {
      const outbox = stack.t.app.get(Outbox, { strict: false });
      const enqueue = jest.spyOn(outbox, 'enqueue');
      // The worker gets each rail's answer only once that rail's callback has moved the intent
      // (real rails, real signed callbacks): the order a busy worker sees.
      const reads = new Pool({ connectionString: stack.db.url, max: 4 });
      const statusOf = async (id: string) =>
        (await reads.query<{ status: string }>('SELECT status FROM international_payment_intents WHERE id = $1', [id])).rows[0].status;
      const answerAfterCallback =
        <T extends { reference: string }>(call: (...args: any[]) => Promise<T>) =>
        async (...args: any[]): Promise<T> => {
          const before = await statusOf(args[0].reference);
          const answer = await call(...args);
          await eventually(
            () => statusOf(answer.reference),
            (status) => status !== before,
            10_000,
            20,
          );
          return answer;
        };
      const bridge = stack.worker!.get<BridgeRail>(BRIDGE_RAIL, { strict: false });
      const payouts = stack.worker!.get<PayoutRail>(PAYOUT_RAIL, { strict: false });
      const [realTransfer, realPayout] = [bridge.createTransfer.bind(bridge), payouts.createPayout.bind(payouts)];
      const createTransfer = jest.spyOn(bridge, 'createTransfer').mockImplementation(answerAfterCallback(realTransfer));
      const createPayout = jest.spyOn(payouts, 'createPayout').mockImplementation(answerAfterCallback(realPayout));
      await Promise.all([stack.bridgeRail.setSettlementStep(0), stack.payoutRail.setSettlementStep(0)]);
      try {
        const ids: string[] = [];
        for (let i = 0; i < 4; i++)
          ids.push((await createInternationalIntent(stack.t, apiKey, intentBody(await createQuote(stack.t, apiKey, { poboUserId: business })))).intentId);
        for (const id of ids) expect((await pollIntent(stack.t, apiKey, id, isFinal)).at(-1).status).toBe('settled');
        expect(createTransfer).toHaveBeenCalledTimes(ids.length);
        expect(createPayout).toHaveBeenCalledTimes(ids.length);
        // Every leg was moved by its callback, and the only job of each intent is its first.
        const history = await stack.pg.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM international_payment_intent_status_history WHERE intent_id = ANY($1)`,
          [ids],
        );
        expect(history.rows[0].n).toBe(ids.length * (PIPELINE.length - 1));
        const advances = enqueue.mock.calls.filter(([, job, payload]) => job.name === INTERNATIONAL_JOBS.advance.name && ids.includes(payload.intentId));
        expect(advances.map(([, , payload]) => payload)).toEqual(ids.map((intentId) => ({ intentId, from: 'pending' })));
      } finally {
        enqueue.mockRestore();
        createTransfer.mockRestore();
        createPayout.mockRestore();
        await reads.end();
        await Promise.all([stack.bridgeRail.setSettlementStep(150), stack.payoutRail.setSettlementStep(150)]);
      }
    });

    it('is rejected at processing by compliance screening (account ending 0000), releasing the funds once', async () => {
      const before = await quietBalance(stack, apiKey);
      const quote = await createQuote(stack.t, apiKey, { poboUserId: business });
      const created = await createInternationalIntent(stack.t, apiKey, intentBody(quote, { accountNumber: '000123450000' }));
      const seen = await pollIntent(stack.t, apiKey, created.intentId, isFinal);
      expectForwardOnly(seen);
      const rejected = seen.at(-1);
      expect(rejected.status).toBe('rejected');
      expect(rejected.adminNote).toMatch(/compliance/i);
      expect(rejected.processedAt).not.toBeNull();
      expect(rejected).not.toHaveProperty('receiptUrl');
      expect(seen.some((i) => ['bridge_initiated', 'bridge_confirmed'].includes(i.status))).toBe(false);
      expect(await balanceOf(stack.t, apiKey)).toEqual(before);
      const reversals = (await balanceTransactions(stack, apiKey, created.intentId)).filter((m) => m.type === 'international_payment_reversal');
      expect(reversals).toEqual([expect.objectContaining({ amount: quote.options[0].sourceAmount })]);
      expect(await stack.payoutRail.calls(created.intentId)).toMatchObject({ created: 0 });
      expect((await ledgerVerify(stack)).code).toBe(0);
    });

    it('is rejected after withdrawal_initiated when the payout fails (IBAN ending 9999), releasing the funds once', async () => {
      const before = await quietBalance(stack, apiKey);
      const quote = await createQuote(stack.t, apiKey, { poboUserId: business, destinationCountry: 'DE', currency: 'EUR', amount: 50 });
      // A valid German IBAN whose account part ends 9999.
      const created = await createInternationalIntent(
        stack.t,
        apiKey,
        intentBody(quote, { bankCodeType: 'iban', bankCode: 'de41 1001 0010 0000 0099 99', accountNumber: undefined }, quote.options[1]),
      );
      expect(created).toMatchObject({ bankCodeType: 'iban', bankCode: 'DE41100100100000009999', routeType: 'usdc' });
      expect(created).not.toHaveProperty('accountNumber');
      const seen = await pollIntent(stack.t, apiKey, created.intentId, isFinal);
      expectForwardOnly(seen);
      expect(seen.at(-1)).toMatchObject({ status: 'rejected', adminNote: expect.stringMatching(/beneficiary_account_closed/) });
      expect(seen.map((i) => i.status)).toContain('withdrawal_initiated');
      expect(seen.some((i) => 'telexUrl' in i)).toBe(false);
      expect(await balanceOf(stack.t, apiKey)).toEqual(before);
      const reversals = (await balanceTransactions(stack, apiKey, created.intentId)).filter((m) => m.type === 'international_payment_reversal');
      expect(reversals).toHaveLength(1);
      // The merchant was whole at once; then the rails gave the money back: the failed payout to the
      // bridge side, the bridge rail in NGN at its rate of the moment. What it gave back short of what
      // was sent is the platform's; every position and receivable is closed.
      expect(await booksClosed(created.intentId)).toEqual(returnDifference(await railReturn('transfers', created.intentId), quote.options[1]));
      expect(await railRecord('payouts', created.intentId)).toMatchObject({ status: 'returned', return: { status: 'completed' } });
      expect(await balanceOf(stack.t, apiKey)).toEqual(before);
      const verified = await ledgerVerify(stack);
      expect(verified.code).toBe(0);
      expect(verified.report.openReceivables.map((r: any) => r.sourceId)).not.toContain(created.intentId);
    });
  });

  describe('returns the rails refuse', () => {
    /**
     * A new merchant's intent, held at `state` by a slow leg at the rail of `collection`, rejected by
     * the operator there, and the rail's refusal to return the money (by `accountNumber`).
     */
    async function rejectedWithRefusedReturn(collection: 'transfers' | 'payouts', state: string, accountNumber: string) {
      const rail = collection === 'transfers' ? stack.bridgeRail : stack.payoutRail;
      await rail.setSettlementStep(60_000);
      try {
        const { apiKey, before, quote, intentId } = await newIntentIn(state, accountNumber);
        // Steps from now on (the return's) are quick again; the leg's own stays pending.
        await rail.setSettlementStep(150);
        await reject(intentId, 'Recipient failed enhanced due diligence');
        expect(await balanceOf(stack.t, apiKey)).toEqual(before);
        await eventually(
          () => railReturn(collection, intentId),
          (r) => r?.status === 'refused',
          20_000,
          100,
        );
        return { apiKey, before, intentId, converted: kobo(quote.options[0].sourceAmount - quote.options[0].fee) };
      } finally {
        await rail.setSettlementStep(150);
      }
    }

    it('a bridge rail refusing to return (account ending 3333) leaves a receivable that ledger:verify lists, until an operator writes it off', async () => {
      const { intentId, converted } = await rejectedWithRefusedReturn('transfers', 'bridge_initiated', '000123453333');
      expect(await positionsOf(stack, intentId)).toEqual({ bridge_rail_in_transit: converted, receivable_bridge_rail: -converted });
      const verified = await ledgerVerify(stack);
      expect(verified.code).toBe(0);
      expect(verified.report.openReceivables).toContainEqual(
        expect.objectContaining({ sourceId: intentId, owedBy: 'bridge_rail', currency: 'NGN', amount: converted / 100 }),
      );
      // Once older than LEDGER_RECEIVABLE_MAX_AGE_HOURS, an open receivable fails the check.
      const strict = await run('npm', ['run', '--silent', 'ledger:verify'], {
        cwd: `${__dirname}/../..`,
        env: { ...process.env, DATABASE_URL: stack.db.url, LEDGER_RECEIVABLE_MAX_AGE_HOURS: '0' },
      }).catch((err) => err);
      expect(strict.code).toBe(1);
      expect(JSON.parse(strict.stdout)).toMatchObject({ ok: false, overdueReceivables: expect.arrayContaining([intentId]) });

      // It will not come back: written off, the money lost at the rails and the advance an expense.
      const { stdout } = await receivable(intentId, ['--write-off'], 'Bridge rail refuses to return it');
      expect(JSON.parse(stdout)).toEqual({
        intentId,
        outcome: 'written_off',
        owedBy: 'bridge_rail',
        currency: 'NGN',
        owed: converted / 100,
        recovered: 0,
        note: 'Bridge rail refuses to return it',
      });
      expect(await positionsOf(stack, intentId)).toEqual({ lost_at_rails: converted, written_off: -converted });
      const notes = await stack.pg.query(`SELECT note FROM ledger_transactions WHERE source_id = $1 AND type = 'international_receivable_written_off'`, [
        intentId,
      ]);
      expect(notes.rows).toEqual([{ note: 'Bridge rail refuses to return it' }]);
      expect((await ledgerVerify(stack)).report.openReceivables.map((r: any) => r.sourceId)).not.toContain(intentId);
      // Once cleared, there is nothing left to clear.
      const again = await receivable(intentId, ['--write-off'], 'Twice').catch((err) => err);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/no open receivable/);
    });

    it('a payout rail refusing to return (account ending 4444) leaves a receivable on it, until an operator records what came back by hand', async () => {
      const { apiKey, before, intentId, converted } = await rejectedWithRefusedReturn('payouts', 'withdrawal_initiated', '000123454444');
      expect(await positionsOf(stack, intentId)).toEqual({ payout_rail_in_transit: converted, receivable_payout_rail: -converted });
      // The bridge rail is never asked while the payout rail holds the money.
      expect(await railReturn('transfers', intentId)).toBeNull();

      // Recovered by hand, ₦123.45 short: the shortfall is the platform's, the books are closed.
      const recovered = (converted - 12_345) / 100;
      const { stdout } = await receivable(intentId, ['--recovered', recovered.toFixed(2)], 'Returned by the payout rail by hand');
      expect(JSON.parse(stdout)).toMatchObject({ outcome: 'recovered', owedBy: 'payout_rail', owed: converted / 100, recovered });
      expect(await positionsOf(stack, intentId)).toEqual({ bank_rail: 12_345, recovery_differences: -12_345 });
      expect(await balanceOf(stack.t, apiKey)).toEqual(before);
      expect((await ledgerVerify(stack)).code).toBe(0);
    });
  });

  describe('refusals reserve nothing', () => {
    async function expectRefused(body: Record<string, unknown>, status: number, code: string, key = apiKey): Promise<void> {
      const before = await quietBalance(stack, key);
      const result = await post(stack.t, key, INTENTS, body);
      expectErrorBody(result, status, code);
      expect(await balanceOf(stack.t, key)).toEqual(before);
    }

    it('an expired quote, a used quote, an option of another quote, an unknown quote', async () => {
      const expired = await createQuote(stack.t, apiKey, { poboUserId: business });
      await stack.pg.query(`UPDATE quotes SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.quoteId]);
      await expectRefused(intentBody(expired), 409, 'quote_expired');

      const used = await createQuote(stack.t, apiKey, { poboUserId: business });
      await createInternationalIntent(stack.t, apiKey, intentBody(used));
      await expectRefused(intentBody(used), 409, 'quote_already_used');

      const one = await createQuote(stack.t, apiKey, { poboUserId: business });
      const other = await createQuote(stack.t, apiKey, { poboUserId: business });
      await expectRefused(intentBody(one, {}, other.options[0]), 404, 'quote_not_found');
      await expectRefused(intentBody(one, { quoteId: 'qt_000000000000000000000000' }), 404, 'quote_not_found');
      // The refused quote is still usable.
      await createInternationalIntent(stack.t, apiKey, intentBody(one));
    });

    it("another merchant's quote, and a business that has not passed KYB", async () => {
      const quote = await createQuote(stack.t, apiKey, { poboUserId: business });
      const other = await fundedMerchant(stack.t, 1_000_000);
      await expectRefused(intentBody(quote), 404, 'quote_not_found', other.apiKey);

      // A business whose agreement is still pending gets no quote at all.
      const { poboUserId } = await createBusiness(stack.t, apiKey, { businessName: 'Unverified Ltd' });
      const refused = await post(stack.t, apiKey, QUOTES, { poboUserId, destinationCountry: 'US', currency: 'USD', amount: 100 });
      expectErrorBody(refused, 409, 'kyb_not_verified');
      expect(Number((await stack.pg.query('SELECT count(*) FROM quotes WHERE pobo_user_id = $1', [poboUserId])).rows[0].count)).toBe(0);

      // A quote priced while the business was verified is refused at the intent once it no longer is.
      const priced = await createQuote(stack.t, apiKey, { poboUserId: business });
      await stack.pg.query(`UPDATE pobo_businesses SET kyb_status = 'action_required' WHERE id = $1`, [business]);
      try {
        await expectRefused(intentBody(priced), 409, 'kyb_not_verified');
      } finally {
        await stack.pg.query(`UPDATE pobo_businesses SET kyb_status = 'verified' WHERE id = $1`, [business]);
      }
    });

    it('a KYB rejection in flight while the intent is created: the creation waits for it and is refused', async () => {
      const quote = await createQuote(stack.t, apiKey, { poboUserId: business });
      const before = await quietBalance(stack, apiKey);
      const kyb = new Client({ connectionString: stack.db.url });
      await kyb.connect();
      try {
        // The KYB decision is written but not yet committed when the request arrives.
        await kyb.query('BEGIN');
        await kyb.query(`UPDATE pobo_businesses SET kyb_status = 'declined' WHERE id = $1`, [business]);
        let answered = false;
        const creating = post(stack.t, apiKey, INTENTS, intentBody(quote)).finally(() => (answered = true));
        // The request waits on the business's row lock, whatever the machine's speed.
        await eventually(
          async () =>
            (
              await stack.pg.query<{ waiting: number }>(
                `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
              )
            ).rows[0].waiting,
          (waiting) => waiting > 0,
        );
        expect(answered).toBe(false);
        await kyb.query('COMMIT');
        expectErrorBody(await creating, 409, 'kyb_not_verified');
        expect(await balanceOf(stack.t, apiKey)).toEqual(before);
      } finally {
        await kyb.query('ROLLBACK');
        await kyb.query(`UPDATE pobo_businesses SET kyb_status = 'verified' WHERE id = $1`, [business]);
        await kyb.end();
      }
    });

    it('insufficient funds', async () => {
      const poor = await fundedMerchant(stack.t, 1000);
      const poorBusiness = await verifiedBusiness(stack, poor.apiKey);
      const quote = await createQuote(stack.t, poor.apiKey, { poboUserId: poorBusiness });
      await expectRefused(intentBody(quote), 409, 'insufficient_funds', poor.apiKey);
    });

    it.each([
      ['a BIC of the wrong shape', { bankCodeType: 'swift', bankCode: 'CHASUS3' }, 'bankCode'],
      ['an IBAN with wrong check digits', { bankCodeType: 'iban', bankCode: 'DE00370400440532013000', accountNumber: undefined }, 'bankCode'],
      ['an IBAN of the wrong length for its country', { bankCodeType: 'iban', bankCode: 'GB82WEST1234569876543', accountNumber: undefined }, 'bankCode'],
      ['an ABA number with a bad checksum', { bankCodeType: 'routing_number', bankCode: '021000022' }, 'bankCode'],
      ['a purpose not on the list', { purposeOfTransfer: 'Gifts' }, 'purposeOfTransfer'],
      ['no account number for a SWIFT recipient', { accountNumber: undefined }, 'accountNumber'],
    ])('%s: 400 on the field', async (_name, overrides, field) => {
      const quote = await createQuote(stack.t, apiKey, { poboUserId: business });
      const before = await quietBalance(stack, apiKey);
      const result = await post(stack.t, apiKey, INTENTS, intentBody(quote, overrides));
      expectErrorBody(result, 400, 'validation_failed');
      expect(result.body.error.details.map((d: any) => d.field)).toContain(field);
      expect(await balanceOf(stack.t, apiKey)).toEqual(before);
    });

    it.each(['quoteId', 'quoteOptionId', 'recipientFullName', 'bankCodeType', 'bankCode', 'purposeOfTransfer'])('without %s: 400', async (field) => {
      const quote = await createQuote(stack.t, apiKey, { poboUserId: business });
      const body = intentBody(quote);
      delete body[field];
      const result = await post(stack.t, apiKey, INTENTS, body);
      expectErrorBody(result, 400, 'validation_failed');
      expect(result.body.error.details.map((d: any) => d.field)).toContain(field);
    });

    it.each(['poboUserId', 'destinationCountry', 'currency', 'amount'])('a quote without %s: 400', async (field) => {
      const body: Record<string, unknown> = { poboUserId: business, destinationCountry: 'US', currency: 'USD', amount: 100 };
      delete body[field];
      const result = await http(stack.t.baseUrl, 'POST', QUOTES, { apiKey, body });
      expectErrorBody(result, 400, 'validation_failed');
      expect(result.body.error.details.map((d: any) => d.field)).toContain(field);
    });

    it('requires an Idempotency-Key', async () => {
      const quote = await createQuote(stack.t, apiKey, { poboUserId: business });
      expectErrorBody(await post(stack.t, apiKey, INTENTS, intentBody(quote), null), 400, 'idempotency_key_required');
    });
  });

  describe('ownership', () => {
    it("answers another merchant's intent with 404", async () => {
      const quote = await createQuote(stack.t, apiKey, { poboUserId: business });
      const created = await createInternationalIntent(stack.t, apiKey, intentBody(quote));
      const other = await stack.t.createMerchant('Nosy');
      expectErrorBody(await http(stack.t.baseUrl, 'GET', `${INTENTS}/${created.intentId}`, { apiKey: other.apiKey }), 404, 'resource_not_found');
      const theirs = await http(stack.t.baseUrl, 'GET', INTENTS, { apiKey: other.apiKey });
      expect(theirs.body.response).toEqual([]);
    });
  });

  describe('idempotent creation across two API processes', () => {
    it('creates one intent and reserves once for a burst of identical requests on both', async () => {
      const second = await spawnApi(stack.db.url, stack.env);
      try {
        const before = await quietBalance(stack, apiKey);
        const quote = await createQuote(stack.t, apiKey, { poboUserId: business });
        const key = newKey();
        const body = intentBody(quote);
        const results = await Promise.all(Array.from({ length: 16 }, (_, i) => post(i % 2 ? stack.t : second, apiKey, INTENTS, body, key)));
        const created = results.filter((r) => r.status === 201);
        expect(created.length).toBeGreaterThanOrEqual(1);
        for (const result of results) expect([201, 423]).toContain(result.status);
        const ids = new Set(created.map((r) => r.body.response.intentId));
        expect(ids.size).toBe(1);
        expect(created.filter((r) => r.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
        const rows = await stack.pg.query(`SELECT id FROM international_payment_intents WHERE quote_id = $1`, [quote.quoteId]);
        expect(rows.rows).toHaveLength(1);
        const after = await balanceOf(stack.t, apiKey);
        expect(after.available).toBeCloseTo(before.available - quote.options[0].sourceAmount, 2);
      } finally {
        await second.kill();
      }
    });
  });

  describe('operator rejection', () => {
    it.each([
      ['processing', 'held in compliance review at the bridge rail (account ending 1111)', '000123451111'],
      ['withdrawal_initiated', 'held at the payout rail (account ending 2222)', '000123452222'],
    ])(
      'holds an intent in %s, %s, until an operator rejects it: the merchant whole at once, the rails give the money back',
      async (state, _why, accountNumber) => {
        const { apiKey, before, quote, intentId } = await newIntentIn(state, accountNumber);
        // Held: several settlement steps later it has not moved.
        await sleep(600);
        const held = await http(stack.t.baseUrl, 'GET', `${INTENTS}/${intentId}`, { apiKey });
        expect(held.body.response.status).toBe(state);

        const { stdout } = await reject(intentId, 'Held too long');
        expect(JSON.parse(stdout)).toMatchObject({ intentId, from: state, status: 'rejected' });
        expect(await balanceOf(stack.t, apiKey)).toEqual(before);
        // The transfer in review is cancelled, all it was sent given back (nothing had left the
        // reservation in the books); the held payout goes back to the bridge side, and the completed
        // transfer is converted back at the bridge rail's rate.
        const bridgeReturn = await eventually(
          () => railReturn('transfers', intentId),
          (r) => r?.status === 'completed',
          20_000,
          100,
        );
        expect(await booksClosed(intentId)).toEqual(state === 'processing' ? {} : returnDifference(bridgeReturn, quote.options[0]));
        if (state === 'withdrawal_initiated') expect(await railRecord('payouts', intentId)).toMatchObject({ status: 'returned' });
        expect(await balanceOf(stack.t, apiKey)).toEqual(before);
        expect((await ledgerVerify(stack)).code).toBe(0);
      },
    );

    it('rejects an intent that has not settled with a note, releasing the funds once; rejecting it again is refused', async () => {
      // The bridge leg slow: the intent waits at bridge_initiated.
      await stack.bridgeRail.setSettlementStep(60_000);
      try {
        // A merchant of its own: no other intent of this suite moves its balance meanwhile.
        const { apiKey } = await fundedMerchant(stack.t, 1_000_000);
        const business = await verifiedBusiness(stack, apiKey);
        const before = await quietBalance(stack, apiKey);
        const quote = await createQuote(stack.t, apiKey, { poboUserId: business });
        const created = await createInternationalIntent(stack.t, apiKey, intentBody(quote));
        await pollIntent(stack.t, apiKey, created.intentId, (i) => i.status === 'bridge_initiated');
        // Steps from now on (the return's) are quick again; the transfer's own stays pending.
        await stack.bridgeRail.setSettlementStep(150);
        const cli = (id: string) => reject(id, 'Recipient failed enhanced due diligence');
        const { stdout } = await cli(created.intentId);
        expect(JSON.parse(stdout)).toMatchObject({ intentId: created.intentId, from: 'bridge_initiated', status: 'rejected' });
        const [rejected] = (await pollIntent(stack.t, apiKey, created.intentId, isFinal)).slice(-1);
        expect(rejected).toMatchObject({ status: 'rejected', adminNote: 'Recipient failed enhanced due diligence' });
        expect(await balanceOf(stack.t, apiKey)).toEqual(before);
        await expect(cli(created.intentId)).rejects.toMatchObject({ code: 1 });
        expect((await balanceTransactions(stack, apiKey, created.intentId)).filter((m) => m.type === 'international_payment_reversal')).toHaveLength(1);
        // The converted amount had left for the bridge rail, still pending there: the rail cancels it
        // and gives back all it was sent, which closes its position and the platform's receivable.
        expect(await booksClosed(created.intentId)).toEqual({});
        expect(await railRecord('transfers', created.intentId)).toMatchObject({
          status: 'returned',
          return: { status: 'completed', amount: kobo(quote.options[0].sourceAmount - quote.options[0].fee) },
        });
        expect((await ledgerVerify(stack)).code).toBe(0);
      } finally {
        await stack.bridgeRail.setSettlementStep(150);
      }
    });
  });

  describe('a rejection racing the payout rail', () => {
    it("ends each intent one way only, settled or rejected and returned, whichever of the operator and the rail's completion comes first", async () => {
      const STEP_MS = 300;
      await stack.payoutRail.setSettlementStep(STEP_MS);
      const settlement = stack.t.app.get(InternationalSettlementService, { strict: false });
      try {
        const { apiKey } = await fundedMerchant(stack.t, 2_000_000);
        const business = await verifiedBusiness(stack, apiKey);
        const before = await quietBalance(stack, apiKey);
        // The operator's rejection lands at a different moment of each payout's settlement step,
        // from well before the rail completes it to after it did.
        const created: { intentId: string; quote: any }[] = [];
        for (let i = 0; i < 8; i++) {
          const quote = await createQuote(stack.t, apiKey, { poboUserId: business });
          created.push({ quote, intentId: (await createInternationalIntent(stack.t, apiKey, intentBody(quote))).intentId });
        }
        const raced = await Promise.all(
          [0, 100, 200, 250, 300, 350, 400, 600].map(async (delayMs, i) => {
            const { intentId, quote } = created[i];
            await pollIntent(stack.t, apiKey, intentId, (i) => i.status === 'withdrawal_initiated' || isFinal(i), 20_000);
            await sleep(delayMs);
            const rejection = await settlement.rejectByOperator(intentId, 'Raced').then(
              (from) => ({ from }),
              (err: unknown) => ({ refused: (err as { code?: string }).code }),
            );
            return { intentId, quote, rejection };
          }),
        );
        let spentOnSettled = 0;
        for (const { intentId, quote, rejection } of raced) {
          const [final] = (await pollIntent(stack.t, apiKey, intentId, isFinal)).slice(-1);
          const reversals = (await balanceTransactions(stack, apiKey, intentId)).filter((m) => m.type === 'international_payment_reversal');
          if (final.status === 'settled') {
            // The rail won: the rejection was refused, the recipient paid, nothing given back.
            spentOnSettled += kobo(quote.options[0].sourceAmount);
            expect(rejection).toEqual({ refused: 'conflict' });
            expect(reversals).toEqual([]);
            expect(await railRecord('payouts', intentId)).toMatchObject({ status: 'completed', return: null });
            expect(await positionsOf(stack, intentId)).toMatchObject({ paid_abroad: kobo(quote.options[0].sourceAmount - quote.options[0].fee) });
          } else {
            // The operator won (the payout cancelled, or recalled once paid): one reversal, and both
            // rails gave the money back.
            expect(final.status).toBe('rejected');
            expect(rejection).toHaveProperty('from');
            expect(reversals).toHaveLength(1);
            await booksClosed(intentId);
            expect(await railRecord('payouts', intentId)).toMatchObject({ status: 'returned', return: { status: 'completed' } });
            expect(await railRecord('transfers', intentId)).toMatchObject({ status: 'returned', return: { status: 'completed' } });
          }
        }
        // The merchant paid for the settled ones only.
        expect(kobo((await balanceOf(stack.t, apiKey)).available)).toBe(kobo(before.available) - spentOnSettled);
        expect((await ledgerVerify(stack)).report).toMatchObject({ ok: true, railDifferences: [] });
      } finally {
        await stack.payoutRail.setSettlementStep(150);
      }
    });
  });

  describe('reconciliation with the rails', () => {
    it('ledger:verify names each difference between where the ledger has the money and what a rail reports, and is clean once they are resolved', async () => {
      // A payout held at the payout rail (account ending 2222): the ledger has it on its way there.
      const { apiKey, before, quote, intentId } = await newIntentIn('withdrawal_initiated', '000123452222');
      const converted = kobo(quote.options[0].sourceAmount - quote.options[0].fee);
      expect(await positionsOf(stack, intentId)).toMatchObject({ payout_rail_in_transit: converted });
      const clean = await ledgerVerify(stack);
      expect(clean.report).toMatchObject({ ok: true, railDifferences: [] });
      expect(clean.report.rails.compared).toBeGreaterThan(0);
      // The held payout is part of what the payout rail holds for us (with what earlier tests left there).
      expect(clean.report.rails.balances.payout_rail.find((b: any) => b.currency === 'USD').amount).toBeGreaterThanOrEqual(100);

      // The rails' records change behind the ledger's back, through their own APIs: the payout rail
      // returns the payout nobody asked it to return, and the bridge rail holds money under a
      // reference that is none of our intents.
      const bridge = stack.worker!.get<BridgeRail>(BRIDGE_RAIL, { strict: false });
      const payouts = stack.worker!.get<PayoutRail>(PAYOUT_RAIL, { strict: false });
      const budget = { timeoutMs: 2_000, retries: 1 };
      await payouts.returnPayout(intentId, budget);
      await eventually(
        () => railRecord('payouts', intentId),
        (payout) => payout.status === 'returned',
        10_000,
        50,
      );
      const ghost = `ipi_ghost${Date.now()}`;
      const recipient = {
        fullName: 'Nobody',
        email: null,
        country: 'US',
        bankCodeType: 'routing_number' as const,
        bankCode: '021000021',
        accountNumber: '000123451111',
      };
      await bridge.createTransfer(
        { reference: ghost, routeType: 'ngn', sourceAmount: 1_550_750, destinationCurrency: 'USD', destinationAmount: 1_000, recipient },
        budget,
      );

      const tampered = await ledgerVerify(stack);
      expect(tampered.code).toBe(1);
      expect(tampered.report.ok).toBe(false);
      expect(tampered.report.railDifferences).toEqual(
        expect.arrayContaining([
          {
            reference: intentId,
            rail: 'payout_rail',
            problem: 'status_differs',
            ledger: { place: 'payout_rail_in_transit', currency: 'NGN', amount: converted / 100 },
            found: { status: 'returned', currency: 'USD', amount: 100, returnStatus: 'completed' },
          },
          {
            reference: ghost,
            rail: 'bridge_rail',
            problem: 'unknown_to_ledger',
            ledger: null,
            found: { status: 'in_review', currency: 'NGN', amount: 15_507.5, returnStatus: null },
          },
        ]),
      );
      expect(tampered.report.railDifferences).toHaveLength(2);
      expect(tampered.report.rails.balances.bridge_rail.find((b: any) => b.currency === 'NGN').amount).toBeGreaterThanOrEqual(15_507.5);

      // Resolved: the operator rejects the intent, whose money the rails then give back through
      // the recovery (the payout rail's return is the one it already made); the stray transfer is
      // returned to whoever sent it.
      await reject(intentId, 'Recalled by the payout rail');
      expect(await balanceOf(stack.t, apiKey)).toEqual(before);
      await booksClosed(intentId);
      await bridge.returnTransfer(ghost, budget);
      await eventually(
        () => railRecord('transfers', ghost),
        (transfer) => transfer.status === 'returned',
        10_000,
        50,
      );
      expect((await ledgerVerify(stack)).report).toMatchObject({ ok: true, railDifferences: [] });
    });
  });

  describe('receipts', () => {
    it('serves a printable receipt and the SWIFT payout confirmation at unguessable URLs, in a real Chromium', async () => {
      const quote = await createQuote(stack.t, apiKey, { poboUserId: business, destinationCountry: 'GB', currency: 'GBP', amount: 250.5 });
      const created = await createInternationalIntent(stack.t, apiKey, intentBody(quote, { recipientFullName: 'Ada <b>Lovelace</b>', bankCode: 'NWBKGB2L' }));
      const telexAt = (await pollIntent(stack.t, apiKey, created.intentId, (i) => 'telexUrl' in i)).at(-1);
      const settled = (await pollIntent(stack.t, apiKey, created.intentId, isFinal)).at(-1);
      expect(settled.status).toBe('settled');
      expect(settled.telexUrl).toBe(telexAt.telexUrl);
      // The token is the URL's credential: 128 random bits, and the receipt's and the telex's are the same one.
      const token = new URL(settled.receiptUrl).pathname.split('/')[2];
      expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(new URL(settled.telexUrl).pathname).toBe(`/receipts/${token}/telex`);
      const local = (url: string) => `${stack.t.baseUrl}${new URL(url).pathname}`;

      const browser = await launchBrowser({ viewport: { width: 1024, height: 1400 } });
      try {
        const page = await browser.context.newPage();
        const response = await page.goto(local(settled.receiptUrl));
        expect(response?.status()).toBe(200);
        expect(response?.headers()['cache-control']).toBe('no-store');
        expect(response?.headers()['content-security-policy']).toBeDefined();
        const text = await page.locator('body').innerText();
        // Sender, recipient (escaped, shown as text), amounts, rate, fee and references.
        for (const shown of ['Globex Exports Ltd', 'Ada <b>Lovelace</b>', 'NWBKGB2L', '250.50', 'GBP', '2085.4', created.intentId, quote.quoteId])
          expect(text).toContain(shown);
        expect(text).toContain(settled.sourceAmount.toLocaleString('en-US', { minimumFractionDigits: 2 }));
        expect(await page.locator('b').count()).toBe(0);
        // The link is all it takes to open the receipt: the account shows its last four characters only.
        expect(settled.accountNumber.length).toBeGreaterThan(4);
        expect(text).toContain(`•••• ${settled.accountNumber.slice(-4)}`);
        expect(text).not.toContain(settled.accountNumber);
        const screenshot = join(SCREENSHOT_DIR, 'international-receipt-1024.png');
        await page.screenshot({ path: screenshot, fullPage: true });
        expect((await stat(screenshot)).size).toBeGreaterThan(10_000);
        const pdf = await page.pdf({ format: 'A4' });
        expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

        const telex = await page.goto(local(settled.telexUrl));
        expect(telex?.status()).toBe(200);
        const mt103 = await page.locator('body').innerText();
        for (const tag of [':20:', ':23B:CRED', ':32A:', 'GBP250,50', ':50K:', ':57A:NWBKGB2L', ':59:', ':70:', ':71A:OUR']) expect(mt103).toContain(tag);
        // The telex, a bank's payout confirmation, keeps it whole.
        expect(mt103).toContain(settled.accountNumber);
        await page.screenshot({ path: join(SCREENSHOT_DIR, 'international-telex-1024.png'), fullPage: true });

        // Any other token, a pending intent's token, and a telex of a non-SWIFT payment: the same 404 page.
        const missing = await page.goto(`${stack.t.baseUrl}/receipts/${'A'.repeat(22)}`);
        expect(missing?.status()).toBe(404);
        expect(missing?.headers()['content-type']).toMatch(/^text\/html/);
      } finally {
        await browser.close();
      }
    });
  });
});
