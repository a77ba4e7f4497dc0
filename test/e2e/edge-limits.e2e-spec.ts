import { randomBytes } from 'node:crypto';
import { signRailPayload } from '../../sandbox/common/callbacks';
import { DEV_BRIDGE_RAIL_WEBHOOK_SECRET } from '../../src/config/dev-secrets';
import { expectErrorBody } from '../support/contract';
import { sleep } from '../support/poll';
import { asResult, RawConnection, requestHead } from '../support/raw-http';
import { TcpProxy } from '../support/tcp-proxy';
import { createBusiness, http, HttpResult, startTestApp, TestApp } from '../support/test-app';
import { startStack, Stack } from '../support/stack';
import { BRIDGE_RAIL_CALLBACK_PATH } from '../../src/modules/rail-events/rail-events.routes';

const LIST = '/api/merchant/pobo/users';
const PER_SECOND = 10;
const BURST = 20;
const AUTH_FAILURES_PER_SECOND = 5;

function expectRateLimited(result: HttpResult, limit: number): void {
  expectErrorBody(result, 429, 'rate_limited');
  expect(Number(result.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(result.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(result.headers.get('ratelimit-remaining')).toBe('0');
  expect(Number(result.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
}

/** Rate limits, credentials, logs, and the answers Fastify and Node give before any hook. */
describe('The request edge: limits, credentials, logs and framework answers', () => {
  let stack: Stack;
  let a: TestApp;
  let b: TestApp;
  let port: number;

  beforeAll(async () => {
    // Two API processes' worth of limiters over one Redis namespace, with the contract's shape at small numbers.
    const env = {
      RATE_LIMIT_PER_SECOND: String(PER_SECOND),
      RATE_LIMIT_BURST: String(BURST),
      AUTH_FAILURE_LIMIT_PER_SECOND: String(AUTH_FAILURES_PER_SECOND),
      PUBLIC_RATE_LIMIT_PER_SECOND: String(PER_SECOND),
      PUBLIC_RATE_LIMIT_BURST: String(BURST),
      // Both apps run on this process's one event loop, which a burst of 80 keeps busy: a Redis
      // answer that waits behind the others past the production budget (100 ms) would hand the
      // count to each app's in-process fallback, which is what the outage test below is for.
      RATE_LIMIT_REDIS_TIMEOUT_MS: '2000',
    };
    stack = await startStack({ name: 'edge-limits', env });
    a = stack.t;
    b = await startTestApp(stack.db.url, stack.env);
    port = Number(new URL(a.baseUrl).port);
  });

  /**
   * 80 requests at once, alternating between the two apps, against one limit of PER_SECOND with
   * bursts to BURST: one shared count lets the burst through in the first one-second window and
   * the rate in each further window the requests reached (a loaded machine can stretch 80 requests
   * over several). Counted per process, the two would have let 40 or more through in the first
   * window alone.
   */
  async function burstOverBothApps(send: (app: TestApp, i: number) => Promise<HttpResult>): Promise<{ served: HttpResult[] }> {
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 80 }, (_, i) => send(i % 2 ? a : b, i)));
    const elapsedSeconds = (performance.now() - started) / 1000;
    const served = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(results.filter((r) => r.status !== 200 && r.status !== 429).map((r) => `${r.status} ${r.text.slice(0, 200)}`)).toEqual([]);
    expect(served.length + limited.length).toBe(80);
    expect(served.length).toBeGreaterThanOrEqual(BURST);
    expect(served.length).toBeLessThanOrEqual(BURST + PER_SECOND * Math.floor(elapsedSeconds));
    for (const result of limited) expectRateLimited(result, PER_SECOND);
    return { served };
  }

  afterAll(async () => {
    await b?.close();
    await stack?.close();
  });

  describe('rate limits', () => {
    it('limits each API key across API processes, with the burst on top of the rate, and says so in headers', async () => {
      const { apiKey } = await a.createMerchant('Busy merchant');
      const { served } = await burstOverBothApps((app) => http(app.baseUrl, 'GET', LIST, { apiKey }));
      for (const result of served) {
        expect(result.headers.get('ratelimit-limit')).toBe(String(PER_SECOND));
        expect(Number(result.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
        expect(Number(result.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
      }
    });

    it('counts keys apart: one busy merchant does not limit another', async () => {
      const busy = await a.createMerchant('Busy');
      const calm = await a.createMerchant('Calm');
      await Promise.all(Array.from({ length: 40 }, () => http(a.baseUrl, 'GET', LIST, { apiKey: busy.apiKey })));
      expect((await http(a.baseUrl, 'GET', LIST, { apiKey: calm.apiKey })).status).toBe(200);
    });

    it('limits failed authentications per client IP before any key lookup', async () => {
      // Fixed one-second windows: a window that turns over mid-sequence makes a round inconclusive,
      // so up to three rounds are tried; a limiter checked after the lookup fails all three.
      let lookedUp = true;
      for (let round = 0; round < 3 && lookedUp; round++) {
        await sleep(1_100);
        const { apiKey } = await a.createMerchant(`Guessed ${round}`); // valid, and never seen by the API
        const unknownKey = apiKey.slice(0, -4) + (apiKey.endsWith('AAAA') ? 'BBBB' : 'AAAA');
        const answers: HttpResult[] = [];
        for (let i = 0; i < AUTH_FAILURES_PER_SECOND + 1; i++)
          answers.push(await http(a.baseUrl, 'GET', LIST, { headers: { 'x-api-key': `${unknownKey}${i}` } }));
        const valid = await http(b.baseUrl, 'GET', LIST, { apiKey });
        const failures = answers.slice(0, AUTH_FAILURES_PER_SECOND);
        if (failures.some((r) => r.status !== 401) || answers.at(-1)!.status !== 429) continue;
        for (const failure of failures) {
          expectErrorBody(failure, 401, 'unauthorized');
          expect(failure.headers.get('ratelimit-limit')).toBe(String(AUTH_FAILURES_PER_SECOND));
        }
        expectRateLimited(answers.at(-1)!, AUTH_FAILURES_PER_SECOND);
        // A correct key from an IP that used up its failures is refused too: it was never looked up.
        lookedUp = valid.status !== 429;
        if (!lookedUp) expectRateLimited(valid, AUTH_FAILURES_PER_SECOND);
      }
      expect(lookedUp).toBe(false);
      await sleep(1_100);
    });

    it('limits the public routes per client IP across API processes, never /health/live', async () => {
      await sleep(1_100);
      await burstOverBothApps((app, i) => http(app.baseUrl, 'GET', i % 4 < 2 ? '/health/ready' : '/openapi.json'));

      const live = await Promise.all(Array.from({ length: 60 }, () => http(a.baseUrl, 'GET', '/health/live')));
      expect(live.every((r) => r.status === 200)).toBe(true);
      expect(live[0].headers.get('ratelimit-limit')).toBeNull();
    });

    it('answers a page over the limit with an HTML 429 page and Retry-After', async () => {
      const { apiKey } = await a.createMerchant('Page merchant');
      const business = await createBusiness(a, apiKey);
      const pages = await Promise.all(Array.from({ length: 60 }, () => fetch(business.agreement.url.replace(/^http:\/\/[^/]+/, a.baseUrl))));
      const limited = pages.filter((r) => r.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      expect(pages.every((r) => r.status === 200 || r.status === 429)).toBe(true);
      expect(limited[0].headers.get('content-type')).toMatch(/^text\/html/);
      expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await limited[0].text()).toContain('Too many requests');
      await sleep(1_100);
    });

    it('counts rail callbacks failing their signature as failed authentications of the IP, and never limits valid ones', async () => {
      const path = BRIDGE_RAIL_CALLBACK_PATH;
      const callback = (signature: string | undefined, body: string) =>
        http(a.baseUrl, 'POST', path, { body, headers: signature === undefined ? {} : { 'x-rail-signature': signature } });
      const event = () =>
        JSON.stringify({
          id: `evt_${randomBytes(12).toString('hex')}`,
          type: 'transfer.updated',
          created_at: new Date().toISOString(),
          data: { id: 'tr_x', reference: 'ipi_x', status: 'pending' },
        });
      const now = () => Math.floor(Date.now() / 1000);
      let limitedAfterFailures = false;
      for (let round = 0; round < 3 && !limitedAfterFailures; round++) {
        await sleep(1_100);
        const answers: HttpResult[] = [];
        for (let i = 0; i < AUTH_FAILURES_PER_SECOND + 1; i++) {
          const body = event();
          answers.push(await callback(signRailPayload('not-the-rails-secret', now(), body), body));
        }
        const body = event();
        const valid = await callback(signRailPayload(DEV_BRIDGE_RAIL_WEBHOOK_SECRET, now(), body), body);
        // A valid callback from an IP that used up its failures is still taken.
        expect(valid.status).toBe(200);
        if (answers.slice(0, AUTH_FAILURES_PER_SECOND).some((r) => r.status !== 401) || answers.at(-1)!.status !== 429) continue;
        for (const failure of answers.slice(0, AUTH_FAILURES_PER_SECOND)) {
          expectErrorBody(failure, 401, 'unauthorized');
          expect(failure.headers.get('ratelimit-limit')).toBe(String(AUTH_FAILURES_PER_SECOND));
        }
        expectRateLimited(answers.at(-1)!, AUTH_FAILURES_PER_SECOND);
        limitedAfterFailures = true;
      }
      expect(limitedAfterFailures).toBe(true);
      await sleep(1_100);
    });

    it('keeps serving when Redis is down, limiting per process until it is back', async () => {
      const redisProxy = await new TcpProxy('127.0.0.1', 6379).start();
      const c = await startTestApp(stack.db.url, {
        REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
        QUEUE_PREFIX: `edge-limits-outage-${process.pid}-${Date.now()}`,
        RATE_LIMIT_PER_SECOND: String(PER_SECOND),
        RATE_LIMIT_BURST: String(BURST),
      });
      try {
        const { apiKey } = await c.createMerchant('Outage merchant');
        expect((await http(c.baseUrl, 'GET', LIST, { apiKey })).status).toBe(200);
        await redisProxy.cut();
        await sleep(200);
        const during = await http(c.baseUrl, 'GET', LIST, { apiKey });
        expect(during.status).toBe(200);
        expect(during.headers.get('ratelimit-limit')).toBe(String(PER_SECOND));
        // The in-process fallback still limits: a burst past the limit is refused, not served.
        const burst = await Promise.all(Array.from({ length: 60 }, () => http(c.baseUrl, 'GET', LIST, { apiKey })));
        expect(burst.some((r) => r.status === 429)).toBe(true);
        expect(burst.every((r) => r.status === 200 || r.status === 429)).toBe(true);
        expect((await http(c.baseUrl, 'GET', LIST, { headers: { 'x-api-key': 'mk_test_nope' } })).status).toBe(401);
      } finally {
        await c.close();
        await redisProxy.cut();
      }
    });
  });

  describe('credentials', () => {
    it('takes both headers carrying one key as one credential, names two different keys, and refuses a header sent twice', async () => {
      const first = await a.createMerchant('First');
      const second = await a.createMerchant('Second');
      const conflicting = await http(a.baseUrl, 'GET', LIST, { headers: { 'x-api-key': first.apiKey, authorization: `Bearer ${second.apiKey}` } });
      expectErrorBody(conflicting, 401, 'conflicting_credentials');
      expect(conflicting.headers.get('www-authenticate')).toMatch(/^Bearer /);
      const same = await http(a.baseUrl, 'GET', LIST, { headers: { 'x-api-key': first.apiKey, authorization: `Bearer ${first.apiKey}` } });
      expect(same.status).toBe(200);
      const unauthorized = await http(a.baseUrl, 'GET', LIST, { headers: { 'x-api-key': 'mk_test_nope' } });

      // Node keeps only the first of two Authorization headers; the raw headers still show both.
      const twice = new RawConnection(port);
      await twice.write(
        requestHead('GET', LIST, [
          ['Authorization', `Bearer ${first.apiKey}`],
          ['Authorization', `Bearer ${first.apiKey}`],
        ]),
      );
      const answer = await twice.answer;
      twice.destroy();
      expectErrorBody(asResult(answer), 401, 'unauthorized');
      expect(JSON.stringify({ ...JSON.parse(answer.body), requestId: undefined })).toBe(JSON.stringify({ ...unauthorized.body, requestId: undefined }));
    });
  });

  describe('logs', () => {
    it('masks a key anywhere in a logged URL, and agreement tokens on the decoded path', async () => {
      const { apiKey } = await a.createMerchant('Careless');
      const business = await createBusiness(a, apiKey);
      const token = new URL(business.agreement.url).pathname.split('/').pop()!;
      const mark = a.logs.length;
      await http(a.baseUrl, 'GET', `${LIST}?api_key=${apiKey}`);
      await http(a.baseUrl, 'GET', `${LIST}?limit=1&note=${apiKey.replace('_', '%5F')}`, { apiKey });
      const page = await http(a.baseUrl, 'GET', `/%61greements/${token}`);
      expect(page.status).toBeLessThan(500);
      await http(a.baseUrl, 'GET', `//agreements/${token}`);
      await sleep(50);
      const lines = a.logs.slice(mark).join('\n');
      expect(lines).toContain('[Redacted]');
      for (const secret of [apiKey, apiKey.slice(8), token]) expect(lines).not.toContain(secret);
    });
  });

  describe('answers Fastify and Node give before any hook', () => {
    it('answers an over-long path parameter with 414 and the contract body', async () => {
      const result = await http(a.baseUrl, 'GET', `${LIST}/${'a'.repeat(600)}`);
      expectErrorBody(result, 414, 'uri_too_long');
    });

    it('answers a malformed URL with 400 and the contract body, without echoing the URL', async () => {
      const connection = new RawConnection(port);
      await connection.write(requestHead('GET', `${LIST}/%E0%A4%A<script>`, []));
      const answer = await connection.answer;
      connection.destroy();
      expectErrorBody(asResult(answer), 400, 'bad_request');
      expect(answer.body).not.toContain('script');
    });

    it('answers headers too large with 431 and the contract body', async () => {
      const connection = new RawConnection(port);
      await connection.write(requestHead('GET', LIST, [['X-Filler', 'x'.repeat(20_000)]]));
      const answer = await connection.answer;
      connection.destroy();
      expectErrorBody(asResult(answer), 431, 'request_header_fields_too_large');
    });

    it('answers a multipart post to the agreement page with an HTML 415 page', async () => {
      const { apiKey } = await a.createMerchant('Form merchant');
      const business = await createBusiness(a, apiKey);
      const response = await fetch(business.agreement.url.replace(/^https?:\/\/[^/]+/, a.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        body: '--x\r\nContent-Disposition: form-data; name="accept"\r\n\r\nyes\r\n--x--\r\n',
      });
      expect(response.status).toBe(415);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toMatch(/<!doctype html>/i);
    });
  });

  describe('security headers', () => {
    it('marks JSON answers, successes and errors alike, no-store and nosniff', async () => {
      const { apiKey } = await a.createMerchant('Headers');
      for (const result of [await http(a.baseUrl, 'GET', LIST, { apiKey }), await http(a.baseUrl, 'GET', LIST), await http(a.baseUrl, 'GET', '/nowhere')]) {
        expect(result.headers.get('content-type')).toMatch(/^application\/json/);
        expect(result.headers.get('cache-control')).toBe('no-store');
        expect(result.headers.get('x-content-type-options')).toBe('nosniff');
      }
    });

    it('serves the API docs with a content security policy and no framing', async () => {
      const response = await fetch(`${a.baseUrl}/docs`);
      expect(response.status).toBe(200);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-eval');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    });
  });
});
