import { randomBytes } from 'node:crypto';
import { nubanFor } from '../../src/common/banking/nuban';
import { requestFingerprint } from '../../src/modules/idempotency/idempotency.fingerprint';
import { acceptAgreementDirectly, kybApplication } from '../support/kyb-fixtures';
import { eventually, sleep } from '../support/poll';
import { spawnApi } from '../support/api-process';
import { createIntent, ledgerVerify, MoneyStack, newKey, post, startMoneyStack } from '../support/money-stack';
import { asResult, RawConnection, requestHead } from '../support/raw-http';
import { TcpProxy } from '../support/tcp-proxy';
import { http, startTestApp, TestApp } from '../support/test-app';

const PI = '/api/merchant/payment-intents';
const body = () => ({ merchantReference: `ref-${randomBytes(6).toString('hex')}`, amount: 2500 });
const withdrawal = (amount: number) => ({
  merchantReference: `wd-${randomBytes(6).toString('hex')}`,
  amount,
  bankCode: '044',
  accountNumber: nubanFor('044', '069000003'),
  accountName: 'Acme Stores Ltd',
});

describe('Idempotency-Key', () => {
  let stack: MoneyStack;
  let t: TestApp;
  let apiKey: string;
  let merchantId: string;

  beforeAll(async () => {
    stack = await startMoneyStack({ name: 'idem' });
    t = stack.t;
    ({ apiKey, merchantId } = await t.createMerchant());
  });

  afterAll(() => stack?.close());

  const intents = async (reference: string) => (await stack.pg.query('SELECT id FROM payment_intents WHERE merchant_reference = $1', [reference])).rows;
  const keyRow = async (key: string, merchant = merchantId) =>
    (await stack.pg.query('SELECT status, recovery_point FROM idempotency_keys WHERE merchant_id = $1 AND key = $2', [merchant, key])).rows[0];

  describe('format', () => {
    it.each([
      ['POST', PI],
      ['POST', '/api/merchant/withdrawals'],
      ['POST', `${PI}/pi_000000000000000000000000/confirm`],
    ])('is required on %s %s: 400 idempotency_key_required, nothing runs', async (method, path) => {
      const result = await post(t, apiKey, path, path === PI ? body() : {}, null);
      expect(result.status).toBe(400);
      expect(result.body.error.code).toBe('idempotency_key_required');
    });

    it.each([
      ['too short', 'a'.repeat(15)],
      ['too long', 'a'.repeat(256)],
      ['not printable ASCII', `${'a'.repeat(16)}é`],
      ['a control character', `${'a'.repeat(16)}\u0001`],
    ])('refuses a key %s with 400 idempotency_key_invalid and stores nothing', async (_why, key) => {
      const sent = body();
      let status: number;
      let code: string;
      try {
        const result = await post(t, apiKey, PI, sent, key);
        status = result.status;
        code = result.body.error.code;
      } catch {
        // fetch itself refuses some header bytes; nothing reached the server then.
        return;
      }
      expect(status).toBe(400);
      expect(code).toBe('idempotency_key_invalid');
      expect(await intents(sent.merchantReference)).toEqual([]);
    });

    it('refuses two Idempotency-Key headers with 400 idempotency_key_invalid, never merging them into one key', async () => {
      const sent = body();
      const json = JSON.stringify(sent);
      for (const keys of [
        [newKey(), newKey()],
        [newKey(), ''],
      ]) {
        const connection = new RawConnection(Number(new URL(t.baseUrl).port));
        const headers: Array<[string, string]> = [
          ['x-api-key', apiKey],
          ['content-type', 'application/json'],
          ['content-length', String(Buffer.byteLength(json))],
          ...keys.map((k): [string, string] => ['Idempotency-Key', k]),
        ];
        await connection.write(requestHead('POST', PI, headers) + json);
        const answer = asResult(await connection.answer);
        connection.destroy();
        expect(answer.status).toBe(400);
        expect(answer.body.error.code).toBe('idempotency_key_invalid');
        // Nothing ran under either key, nor under the two joined.
        expect(await keyRow(keys.join(', '))).toBeUndefined();
        expect(await keyRow(keys[0])).toBeUndefined();
      }
      expect(await intents(sent.merchantReference)).toEqual([]);
    });

    it('accepts 16 and 255 characters, and a key in double quotes is the same key', async () => {
      const key = `k${randomBytes(8).toString('hex').slice(0, 15)}`;
      const sent = body();
      const first = await post(t, apiKey, PI, sent, key);
      expect(first.status).toBe(201);
      const quoted = await post(t, apiKey, PI, sent, `"${key}"`);
      expect(quoted.headers.get('idempotent-replayed')).toBe('true');
      expect(quoted.text).toBe(first.text);
      expect((await post(t, apiKey, PI, body(), 'x'.repeat(200) + randomBytes(27).toString('hex').slice(0, 55))).status).toBe(201);
    });
  });

  describe('replay', () => {
    it('replays a completed request: stored status, byte-identical body, Idempotent-Replayed; the operation ran once', async () => {
      const key = newKey();
      const sent = body();
      const first = await post(t, apiKey, PI, sent, key);
      const second = await post(t, apiKey, PI, sent, key);

      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(second.status).toBe(201);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(second.text).toBe(first.text);
      // Again, now from the process's memory of finished keys: the same answer, and the same refusal of other data.
      const third = await post(t, apiKey, PI, sent, key);
      expect([third.status, third.headers.get('idempotent-replayed'), third.text]).toEqual([201, 'true', first.text]);
      expect((await post(t, apiKey, PI, { ...sent, amount: 1 }, key)).body.error.code).toBe('idempotency_key_reused');
      expect(await intents(sent.merchantReference)).toHaveLength(1);
    });

    it('key order and whitespace do not change the request; a changed value does', async () => {
      const key = newKey();
      const reference = `ref-${randomBytes(6).toString('hex')}`;
      const first = await post(t, apiKey, PI, `{"merchantReference":"${reference}","amount":2500}`, key);
      const reordered = await post(t, apiKey, PI, `{ "amount" : 2500 ,\n  "merchantReference" : "${reference}" }`, key);
      expect(reordered.status).toBe(201);
      expect(reordered.headers.get('idempotent-replayed')).toBe('true');
      expect(reordered.text).toBe(first.text);
      const changed = await post(t, apiKey, PI, `{"amount":2500.01,"merchantReference":"${reference}"}`, key);
      expect(changed.status).toBe(409);
    });

    it('changed data with the same key: 409 idempotency_key_reused without Retry-After, also on another endpoint', async () => {
      const key = newKey();
      const sent = body();
      expect((await post(t, apiKey, PI, sent, key)).status).toBe(201);

      const changed = await post(t, apiKey, PI, { ...sent, amount: 2600 }, key);
      expect(changed.status).toBe(409);
      expect(changed.body.error.code).toBe('idempotency_key_reused');
      expect(changed.headers.get('retry-after')).toBeNull();
      const elsewhere = await post(t, apiKey, '/api/merchant/withdrawals', withdrawal(10), key);
      expect(elsewhere.status).toBe(409);
      expect(elsewhere.body.error.code).toBe('idempotency_key_reused');
      expect(await intents(sent.merchantReference)).toHaveLength(1);
    });

    it('is scoped per merchant: the same key runs for each merchant', async () => {
      const { apiKey: other } = await t.createMerchant();
      const key = newKey();
      const a = await post(t, apiKey, PI, body(), key);
      const b = await post(t, other, PI, body(), key);
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(b.headers.get('idempotent-replayed')).toBeNull();
      expect(b.body.response.paymentIntentId).not.toBe(a.body.response.paymentIntentId);
    });

    it('an unauthenticated caller never sees a stored answer', async () => {
      const key = newKey();
      expect((await post(t, apiKey, PI, body(), key)).status).toBe(201);
      const stranger = await http(t.baseUrl, 'POST', PI, { headers: { 'idempotency-key': key, 'x-api-key': 'mk_test_nope' }, body: body() });
      expect(stranger.status).toBe(401);
    });
  });

  describe('what is stored', () => {
    it('a request refused by validation stores nothing: the corrected request with the same key runs', async () => {
      const key = newKey();
      const sent = body();
      const invalid = await post(t, apiKey, PI, { ...sent, amount: 10.001 }, key);
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.details).toEqual([expect.objectContaining({ field: 'amount' })]);
      expect(await keyRow(key)).toBeUndefined();

      const corrected = await post(t, apiKey, PI, sent, key);
      expect(corrected.status).toBe(201);
      expect(corrected.headers.get('idempotent-replayed')).toBeNull();
    });

    it('a business refusal is stored and replayed, even once it would succeed', async () => {
      const { apiKey: poor, merchantId: poorId } = await t.createMerchant();
      const key = newKey();
      const request = withdrawal(100);
      const refused = await post(t, poor, '/api/merchant/withdrawals', request, key);
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('insufficient_funds');
      expect(await keyRow(key, poorId)).toEqual({ status: 'completed', recovery_point: 'finished' });
      expect((await stack.pg.query('SELECT count(*)::int AS n FROM withdrawals WHERE merchant_id = $1', [poorId])).rows[0].n).toBe(0);

      // Money arrives; the same key still answers what it answered.
      const intent = await createIntent(t, poor, { amount: 500 });
      await post(t, poor, `/api/merchant/test-helpers/payment-intents/${intent.paymentIntentId}/fund`, {});
      await eventually(
        async () => (await http(t.baseUrl, 'GET', `${PI}/${intent.paymentIntentId}`, { apiKey: poor })).body.response.status,
        (s) => s === 'funds_received',
        10_000,
        50,
      );
      expect((await post(t, poor, `${PI}/${intent.paymentIntentId}/confirm`, {})).status).toBe(200);

      const replay = await post(t, poor, '/api/merchant/withdrawals', request, key);
      expect(replay.status).toBe(409);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.text).toBe(refused.text);
      expect((await post(t, poor, '/api/merchant/withdrawals', request, newKey())).status).toBe(201);
    });

    it('is honoured on an optional-key POST (the test-mode transfer): one transfer however often it is retried', async () => {
      const intent = await createIntent(t, apiKey, { amount: 800 });
      const key = newKey();
      const first = await post(t, apiKey, `/api/merchant/test-helpers/payment-intents/${intent.paymentIntentId}/fund`, {}, key);
      const again = await post(t, apiKey, `/api/merchant/test-helpers/payment-intents/${intent.paymentIntentId}/fund`, {}, key);
      expect(first.status).toBe(202);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(first.text);
      const transfers = (await stack.bankRail.state<any>('/_sandbox/transfers')).transfers.filter(
        (tr: any) => tr.account_number === intent.virtualAccount.accountNumber,
      );
      expect(transfers).toHaveLength(1);
    });

    it('is honoured when sent on creating a business and on a fresh agreement link: one business, one fresh link', async () => {
      const key = newKey();
      const business = { businessName: 'Idempotent Traders Ltd', email: 'ops@idempotent.example', phoneNumber: '+2348012345678', country: 'NG' };
      const first = await post(t, apiKey, '/api/merchant/pobo/users', business, key);
      const again = await post(t, apiKey, '/api/merchant/pobo/users', business, key);
      expect(first.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(first.text);
      expect((await stack.pg.query('SELECT count(*)::int AS n FROM pobo_businesses WHERE business_name = $1', [business.businessName])).rows[0].n).toBe(1);

      const id = first.body.response.poboUserId;
      const linkKey = newKey();
      const link = await post(t, apiKey, `/api/merchant/pobo/users/${id}/agreement-link`, undefined, linkKey);
      const linkAgain = await post(t, apiKey, `/api/merchant/pobo/users/${id}/agreement-link`, undefined, linkKey);
      expect(link.status).toBe(201);
      expect(linkAgain.text).toBe(link.text);
      // One fresh link: the creation's and this one, the first voided.
      expect(
        (await stack.pg.query('SELECT count(*)::int AS n, count(voided_at)::int AS voided FROM agreement_links WHERE business_id = $1', [id])).rows[0],
      ).toEqual({ n: 2, voided: 1 });
    });

    it('is honoured on a KYB submission: a retry replays the 202 instead of the 409 of a second submission; another document is another request', async () => {
      const business = (
        await post(t, apiKey, '/api/merchant/pobo/users', {
          businessName: 'Keyed KYB Ltd',
          email: 'kyb@keyed.example',
          phoneNumber: '+2348012345678',
          country: 'NG',
        })
      ).body.response;
      await acceptAgreementDirectly(stack.pg, business.poboUserId);
      const path = `/api/merchant/pobo/users/${business.poboUserId}/onboarding`;
      const application = kybApplication('RC-KEYED-HOLD');
      const key = newKey();

      const first = await post(t, apiKey, path, application, key);
      const retry = await post(t, apiKey, path, application, key);
      expect(first.status).toBe(202);
      expect(retry.status).toBe(202);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.text).toBe(first.text);
      expect((await stack.pg.query('SELECT count(*)::int AS n FROM kyb_applications WHERE business_id = $1', [business.poboUserId])).rows[0].n).toBe(1);

      const otherDocument = JSON.parse(JSON.stringify(application));
      otherDocument.company_files[0].files[0] = Buffer.from('%PDF-1.4 another document').toString('base64');
      const changed = await post(t, apiKey, path, otherDocument, key);
      expect(changed.status).toBe(409);
      expect(changed.body.error.code).toBe('idempotency_key_reused');
      // Without a key, a second submission is still refused before its body is read.
      expect((await post(t, apiKey, path, application, null)).body.error.code).toBe('kyb_state_conflict');
    });

    it('keys are removed 24 hours on by the reaper, and the key then runs afresh', async () => {
      const key = newKey();
      const sent = body();
      expect((await post(t, apiKey, PI, sent, key)).status).toBe(201);
      await stack.pg.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE merchant_id = $1 AND key = $2`, [merchantId, key]);
      expect(
        await eventually(
          () => keyRow(key),
          (row) => row === undefined,
          10_000,
          100,
        ),
      ).toBeUndefined();
      const rerun = await post(t, apiKey, PI, { ...sent, merchantReference: `${sent.merchantReference}-2` }, key);
      expect(rerun.status).toBe(201);
      expect(rerun.headers.get('idempotent-replayed')).toBeNull();
    });
  });

  describe('a request still running', () => {
    afterEach(() => stack.bankRail.faults({}));

    it('an identical request gets 423 idempotency_request_in_progress with Retry-After; changed data gets 409; then the replay', async () => {
      await stack.bankRail.faults({ latencyMs: 1_500 });
      const key = newKey();
      const sent = body();
      const first = post(t, apiKey, PI, sent, key);
      await eventually(
        () => keyRow(key),
        (row) => row !== undefined,
        2_000,
        20,
      );

      const second = await post(t, apiKey, PI, sent, key);
      expect(second.status).toBe(423);
      expect(second.body.error.code).toBe('idempotency_request_in_progress');
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const changed = await post(t, apiKey, PI, { ...sent, amount: 1 }, key);
      expect(changed.status).toBe(409);
      expect(changed.headers.get('retry-after')).toBeNull();

      const done = await first;
      expect(done.status).toBe(201);
      const replay = await post(t, apiKey, PI, sent, key);
      expect(replay.text).toBe(done.text);
      expect(await intents(sent.merchantReference)).toHaveLength(1);
    });

    it('a request whose holder died is taken over once the lock runs out, and finishes exactly once', async () => {
      const key = newKey();
      const sent = body();
      const fingerprint = requestFingerprint('POST', PI, {}, sent);
      // What a process killed right after its claim leaves behind: in progress, lock run out.
      await stack.pg.query(
        `INSERT INTO idempotency_keys (merchant_id, key, fingerprint, status, lock_token, locked_until, expires_at)
         VALUES ($1, $2, $3, 'in_progress', gen_random_uuid(), now() - interval '1 second', now() + interval '1 day')`,
        [merchantId, key, fingerprint],
      );
      const retry = await post(t, apiKey, PI, sent, key);
      expect(retry.status).toBe(201);
      expect(await keyRow(key)).toEqual({ status: 'completed', recovery_point: 'finished' });
      expect(await intents(sent.merchantReference)).toHaveLength(1);
    });
  });

  it('the ledger verifies', async () => {
    expect(await ledgerVerify(stack)).toEqual({ code: 0, report: expect.objectContaining({ ok: true }) });
  });
});

describe('Idempotency-Key: a late finisher and an unreachable store', () => {
  let stack: MoneyStack;

  beforeAll(async () => {
    stack = await startMoneyStack({ name: 'idem-lock', env: { IDEMPOTENCY_LOCK_MS: '1000' }, worker: false });
  });

  afterAll(() => stack?.close());

  it('a request that ran past its lock cannot overwrite the answer of the retry that took over', async () => {
    const { t } = stack;
    const { apiKey } = await t.createMerchant();
    await stack.bankRail.faults({ latencyMs: 1_600 });
    const key = newKey();
    const sent = body();
    const slow = post(t, apiKey, PI, sent, key);
    await sleep(1_200);
    // The lock ran out while the first waits on the rail: this retry takes it over.
    const takeover = post(t, apiKey, PI, sent, key);
    const [late, won] = await Promise.all([slow, takeover]);
    await stack.bankRail.faults({});

    expect(won.status).toBe(201);
    expect(late.status).toBe(423);
    expect(late.body.error.code).toBe('idempotency_request_in_progress');
    const replay = await post(t, apiKey, PI, sent, key);
    expect(replay.text).toBe(won.text);
    expect((await stack.pg.query('SELECT id FROM payment_intents WHERE merchant_reference = $1', [sent.merchantReference])).rows).toEqual([
      { id: won.body.response.paymentIntentId },
    ]);
  });

  it('with PostgreSQL unreachable: 503 with Retry-After, and the operation never runs unclaimed', async () => {
    const proxy = await new TcpProxy('127.0.0.1', 5432).start();
    const app = await startTestApp(stack.db.url.replace(':5432/', `:${proxy.port}/`), { ...stack.env, DB_POOL_SIZE: '2' });
    try {
      const { apiKey } = await app.createMerchant();
      // The key is confirmed (and cached) while the database is up.
      expect((await http(app.baseUrl, 'GET', PI, { apiKey })).status).toBe(200);
      const railRequests = stack.bankRail.requests.length;
      await proxy.cut();

      const result = await post(app, apiKey, PI, body(), newKey());
      expect(result.status).toBe(503);
      expect(result.body.error.code).toBe('service_unavailable');
      expect(Number(result.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(stack.bankRail.requests.length).toBe(railRequests);
    } finally {
      await proxy.restore();
      await app.close();
      await proxy.cut();
    }
  });
});

describe('Idempotency-Key across two API processes', () => {
  let stack: MoneyStack;

  beforeAll(async () => {
    stack = await startMoneyStack({ name: 'idem-two', worker: false });
  });

  afterAll(() => stack?.close());

  it('20 identical requests at once over two processes: one intent, every successful answer identical', async () => {
    const second = await spawnApi(stack.db.url, stack.env);
    try {
      const { apiKey } = await stack.t.createMerchant();
      await stack.bankRail.faults({ latencyMs: 200 });
      const key = newKey();
      const sent = body();
      const apps = [stack.t, second];
      /** A client that retries after Retry-After while the first request runs. */
      const attempt = async (i: number) => {
        for (;;) {
          const result = await post(apps[i % 2], apiKey, PI, sent, key);
          if (result.status !== 423) return result;
          await sleep(Number(result.headers.get('retry-after')) * 1000);
        }
      };
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(i)));
      await stack.bankRail.faults({});

      expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
      expect(new Set(results.map((r) => r.text)).size).toBe(1);
      expect(results.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
      expect((await stack.pg.query('SELECT count(*)::int AS n FROM payment_intents WHERE merchant_reference = $1', [sent.merchantReference])).rows[0].n).toBe(
        1,
      );
      const accounts = (await stack.bankRail.state<any>('/_sandbox/accounts')).accounts.filter(
        (a: any) => a.reference === results[0].body.response.paymentIntentId,
      );
      expect(accounts).toHaveLength(1);
    } finally {
      await second.kill();
    }
  });
});
