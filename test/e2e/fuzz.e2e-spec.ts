import fc from 'fast-check';
import type { Client } from 'pg';
import {
  MAGIC_PAYOUT_BANK_CODE,
  PAYOUT_ACCOUNT_NOT_FOUND,
  PAYOUT_STAYS_PROCESSING,
  PAYOUT_SUCCEEDS_THEN_RETURNED,
} from '../../sandbox/bank-rail/bank-rail.server';
import { nubanFor } from '../../src/common/banking/nuban';
import { csrfFieldValue, newCsrfCookieValue } from '../../src/modules/agreement-page/agreement-page.csrf';
import { TERMS_VERSION } from '../../src/modules/agreements/agreement.terms';
import {
  applyMutations,
  closeAgent,
  contractViolation,
  garbageBody,
  Mutation,
  mutationOf,
  nastyString,
  oddContentType,
  oddPathSegment,
  oddQuery,
  RawRequest,
  RawResponse,
  send,
} from '../support/fuzz';
import {
  corridor,
  FORGED,
  internationalPathSegment,
  internationalQuery,
  isReceiptRoute,
  nearToken,
  Rail,
  RAIL_EVENT_SHAPE,
  railEvent,
  railReference,
  receiptPage,
  receiptSegment,
  receiptViolation,
  RECIPIENTS,
  signatureHeader,
  signatureHolds,
  signaturePlan,
} from '../support/fuzz-international';
import {
  amountRefusalViolation,
  bodyKey,
  idTarget,
  invalidAmount,
  KeyPlan,
  keyAnswerViolation,
  keyHeader,
  keyPlan,
  moneyQuery,
  moneyTarget,
  optionalBodyKey,
  segmentFor,
  unique,
} from '../support/fuzz-money';
import {
  createInternationalIntent,
  createQuote,
  intentBody,
  INTENTS,
  InternationalStack,
  isFinal,
  pollIntent,
  QUOTES,
  startInternationalStack,
  verifiedBusiness,
} from '../support/international';
import { acceptAgreementDirectly, harborApplication, kybApplication } from '../support/kyb-fixtures';
import { createIntent, fundedMerchant, fundIntent, ledgerVerify, MoneyStack, post, startMoneyStack } from '../support/money-stack';
import { eventually, sleep } from '../support/poll';
import { servedDocuments } from '../support/openapi-contract';
import { RawConnection, requestHead } from '../support/raw-http';
import { createBusiness, http, HttpResult, sessionCookieOf, startTestApp, TestApp } from '../support/test-app';
import { startStack, Stack } from '../support/stack';
import { BRIDGE_RAIL_CALLBACK_PATH, PAYOUT_RAIL_CALLBACK_PATH } from '../../src/modules/rail-events/rail-events.routes';

/**
 * Property-based fuzzing over real HTTP: every route that takes a body, and the GET routes'
 * query strings and path parameters, get thousands of hostile requests (valid bodies with
 * fields replaced by arbitrary JSON, NUL, lone surrogates, huge numbers, deep nesting, arrays
 * for objects and objects for strings; raw garbage; odd content types, queries and paths).
 * Whatever the request, the answer is never a 5xx, always carries `X-Request-Id`, and a refusal
 * is the contract's error body with that id. The money routes (payment intents, withdrawals,
 * the test helper, balance) run on a stack of their own, with their Idempotency-Key and amounts
 * fuzzed on their own too, and end with the ledger's check; so do the international routes
 * (quotes, international payment intents, receipt pages, the cross-border rails' signed
 * callbacks), on a stack with both cross-border rails and a worker. FUZZ_RUNS scales the runs
 * per route (the money and international routes half each, or less; seed: FUZZ_SEED, to replay
 * a failure).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const USERS = '/api/merchant/pobo/users';
const CONCURRENCY = 8;
/** Pages for people, whose refusals may be their HTML pages: the agreement page, receipts. */
const HTML_PAGES = ['/agreements/', '/receipts/'];

type Auth = 'valid' | 'none' | 'unknown' | 'bearer' | 'other-merchant';
type Target = { kind: 'own' } | { kind: 'foreign' } | { kind: 'raw'; segment: string };
type Body = { kind: 'mutated'; mutations: Mutation[] } | { kind: 'valid' } | { kind: 'garbage'; bytes: Buffer } | { kind: 'none' };

interface MerchantKeys {
  own: string;
  other: string;
}

interface FuzzOptions<T> {
  after?: (res: RawResponse) => Promise<void>;
  runs?: number;
  baseUrl?: string;
  check?: (plan: T, res: RawResponse) => string | null;
}

/** A request as a failure message shows it: enough to send it again by hand. */
function describeRequest(req: RawRequest): string {
  const { 'x-api-key': apiKeyHeader, authorization, ...headers } = req.headers;
  const auth = apiKeyHeader === undefined ? (authorization === undefined ? 'no credentials' : 'an Authorization header') : 'an X-Api-Key';
  const utf8 = req.body === undefined ? '' : req.body.toString();
  const text =
    req.body === undefined || Buffer.from(utf8).equals(req.body) ? JSON.stringify(utf8.slice(0, 600)) : `(base64) ${req.body.toString('base64').slice(0, 800)}`;
  const body = req.body === undefined ? 'no body' : `body ${text}${req.body.length > 600 ? ` (${req.body.length} bytes)` : ''}`;
  return `${req.method} ${req.path.slice(0, 600)} with ${auth}, headers ${JSON.stringify(headers).slice(0, 600)}, ${body}`;
}

const auth: fc.Arbitrary<Auth> = fc.oneof(
  { arbitrary: fc.constant<Auth>('valid'), weight: 16 },
  { arbitrary: fc.constantFrom<Auth>('none', 'unknown', 'bearer', 'other-merchant'), weight: 3 },
);
const target: fc.Arbitrary<Target> = fc.oneof(
  { arbitrary: fc.constant<Target>({ kind: 'own' }), weight: 12 },
  { arbitrary: fc.constant<Target>({ kind: 'foreign' }), weight: 1 },
  { arbitrary: oddPathSegment.map((segment): Target => ({ kind: 'raw', segment })), weight: 3 },
);
const contentType = fc.oneof({ arbitrary: fc.constant<string | null>('application/json'), weight: 8 }, { arbitrary: oddContentType, weight: 2 });
const query = fc.option(oddQuery, { freq: 6 });

function body(base: unknown): fc.Arbitrary<Body> {
  return fc.oneof(
    { arbitrary: fc.array(mutationOf(base), { minLength: 1, maxLength: 3 }).map((mutations): Body => ({ kind: 'mutated', mutations })), weight: 14 },
    { arbitrary: fc.constant<Body>({ kind: 'valid' }), weight: 1 },
    { arbitrary: garbageBody.map((bytes): Body => ({ kind: 'garbage', bytes })), weight: 3 },
    { arbitrary: fc.constant<Body>({ kind: 'none' }), weight: 1 },
  );
}

function bodyBytes(plan: Body, base: unknown): Buffer | undefined {
  switch (plan.kind) {
    case 'mutated':
      return Buffer.from(applyMutations(base, plan.mutations));
    case 'valid':
      return Buffer.from(JSON.stringify(base));
    case 'garbage':
      return plan.bytes;
    case 'none':
      return undefined;
  }
}

/** A form field's value as it goes on the wire: encoded text of any kind, or malformed encoding. */
const formValue = fc.oneof(
  nastyString(30)
    .filter((s) => (s as string & { isWellFormed(): boolean }).isWellFormed())
    .map((s) => encodeURIComponent(s)),
  fc.constantFrom('%ff', '%00', '%', '%zz', '%ED%A0%80', '+', '%2B', 'a'.repeat(5_000), '%E2%80%AE'),
);

interface FormPlan {
  csrf: 'valid' | 'missing' | { raw: string };
  terms: 'valid' | 'missing' | { raw: string };
  extra: [string, string][];
  duplicateCsrf: boolean;
}

const formPlan: fc.Arbitrary<FormPlan> = fc.record({
  csrf: fc.oneof(
    { arbitrary: fc.constant<'valid'>('valid'), weight: 3 },
    { arbitrary: fc.constant<'missing'>('missing'), weight: 1 },
    { arbitrary: formValue.map((raw) => ({ raw })), weight: 2 },
  ),
  terms: fc.oneof(
    { arbitrary: fc.constant<'valid'>('valid'), weight: 3 },
    { arbitrary: fc.constant<'missing'>('missing'), weight: 1 },
    { arbitrary: formValue.map((raw) => ({ raw })), weight: 2 },
  ),
  extra: fc.array(fc.tuple(formValue, formValue), { maxLength: 2 }),
  duplicateCsrf: fc.boolean(),
});

describe('Fuzz: hostile requests never get a 5xx, and every refusal has the contract shape', () => {
  let stack: Stack;
  let t: TestApp;
  let pg: Client;
  let apiKey: string;
  let otherKey: string;
  let linkBusiness: string;
  let kybBusiness: string;
  /** In action_required, with an application to correct. */
  let correctionBusiness: string;
  let foreignBusiness: string;
  let pageToken: string;
  const cookieValue = newCsrfCookieValue();
  const sent: Record<string, { requests: number; ms: number; statuses: Record<number, number> }> = {};

  beforeAll(async () => {
    stack = await startStack({ name: 'fuzz', merchants: ['Fuzzed', 'Other'] });
    ({ t, pg } = stack);
    [apiKey, otherKey] = stack.merchants.map((merchant) => merchant.apiKey);
    linkBusiness = (await createBusiness(t, apiKey)).poboUserId;
    kybBusiness = (await createBusiness(t, apiKey)).poboUserId;
    await acceptAgreementDirectly(pg, kybBusiness);
    correctionBusiness = (await createBusiness(t, apiKey)).poboUserId;
    await acceptAgreementDirectly(pg, correctionBusiness);
    const submitted = await http(t.baseUrl, 'POST', `${USERS}/${correctionBusiness}/onboarding`, { apiKey, body: kybApplication('RC-FUZZ-FIX-HOLD') });
    expect(submitted.status).toBe(202);
    await pg.query(`UPDATE pobo_businesses SET kyb_status = 'action_required' WHERE id = $1`, [correctionBusiness]);
    foreignBusiness = (await createBusiness(t, otherKey)).poboUserId;
    await newPageBusiness();
  });

  afterAll(async () => {
    closeAgent();
    const total = Object.values(sent).reduce((sum, s) => sum + s.requests, 0);
    const lines = Object.entries(sent).map(
      ([route, s]) => `${route}: ${s.requests} requests in ${(s.ms / 1000).toFixed(1)} s, by status ${JSON.stringify(s.statuses)}`,
    );
    console.log(`Fuzzed ${total} requests\n${lines.join('\n')}`);
    await stack?.close();
  });

  async function newPageBusiness(): Promise<void> {
    const { agreement } = await createBusiness(t, apiKey);
    pageToken = new URL(agreement.url).pathname.split('/').pop()!;
  }

  /** The headers of an authentication plan; `keys` are the merchant's and another merchant's API keys. */
  const keyFor = (a: Auth, keys: MerchantKeys = { own: apiKey, other: otherKey }): Record<string, string> =>
    ({
      valid: { 'x-api-key': keys.own },
      none: {},
      unknown: { 'x-api-key': 'mk_test_2NEpo7TZRRrLZSi2U' },
      bearer: { authorization: `Bearer ${keys.own}` },
      'other-merchant': { 'x-api-key': keys.other },
    })[a];

  /** A query string as a path's tail. */
  const q = (query: string | null) => (query === null ? '' : `?${query}`);
  const segmentOf = (target: Target, own: string) => (target.kind === 'own' ? own : target.kind === 'foreign' ? foreignBusiness : target.segment);

  /**
   * Sends `runs` requests built from generated plans, CONCURRENCY at a time, and checks that each
   * answer keeps the contract. The agreement page and receipts answer people: their refusals may
   * be their HTML pages. `after` restores state a request that got through changed (or collects
   * what it created); `check` is a further property of each answer (what is wrong with it, or
   * null); `baseUrl` the app to send to.
   */
  async function fuzz<T>(route: string, plans: fc.Arbitrary<T>, toRequest: (plan: T) => RawRequest, options: FuzzOptions<T> = {}) {
    const { after, runs = RUNS, baseUrl = t.baseUrl, check } = options;
    const stats = (sent[route] ??= { requests: 0, ms: 0, statuses: {} });
    const started = Date.now();
    const one = async (plan: T) => {
      const req = toRequest(plan);
      const res = await send(baseUrl, req);
      stats.requests++;
      stats.statuses[res.status] = (stats.statuses[res.status] ?? 0) + 1;
      const html = HTML_PAGES.some((prefix) => req.path.startsWith(prefix));
      const violation = contractViolation(res, { html, replayed: res.headers['idempotent-replayed'] === 'true' }) ?? check?.(plan, res) ?? null;
      if (violation) throw new Error(`${describeRequest(req)}\n→ ${violation}`);
      // A file download (the CSV export) is the one success that is not an envelope.
      const file = req.path.split('?')[0].endsWith('.csv');
      if (
        !html &&
        !file &&
        res.status < 300 &&
        Object.keys(JSON.parse(res.text) as object)
          .sort()
          .join() !== 'message,response'
      ) {
        throw new Error(`success body of ${req.method} ${req.path} is not an envelope`);
      }
      return res;
    };
    await fc.assert(
      // A few requests at once, as clients send them: the app waits on PostgreSQL and Redis meanwhile.
      fc.asyncProperty(fc.array(plans, { minLength: CONCURRENCY, maxLength: CONCURRENCY }), async (batch) => {
        const responses = await Promise.all(batch.map(one));
        for (const res of responses) await after?.(res);
      }),
      { numRuns: Math.ceil(runs / CONCURRENCY), seed: SEED },
    );
    stats.ms += Date.now() - started;
  }

  const headersOf = (a: Auth, type: string | null, bytes: Buffer | undefined, keys?: MerchantKeys): Record<string, string> => ({
    ...keyFor(a, keys),
    ...(type !== null && (bytes !== undefined || type !== 'application/json') ? { 'content-type': type } : {}),
  });

  describe('Merchant Dashboard accounts', () => {
    const DASHBOARD = '/api/dashboard';
    const PASSWORD = 'correct horse battery staple';
    /** Fewer runs than the merchant routes: an accepted sign-up or login costs an argon2id hash. */
    const DASHBOARD_RUNS = Math.min(RUNS, 300);
    let account: { email: string; cookie: string; csrf: string };

    type SessionPlan = 'valid' | 'none' | 'forged' | 'api-key' | 'both';
    const session = fc.constantFrom<SessionPlan>('valid', 'valid', 'valid', 'none', 'forged', 'api-key', 'both');
    const csrf = fc.oneof(
      { arbitrary: fc.constant<'valid'>('valid'), weight: 3 },
      { arbitrary: fc.constant<'missing'>('missing'), weight: 1 },
      // Any value a client can send in a header (visible ASCII): the wrong token, one of another shape, none.
      { arbitrary: fc.stringMatching(/^[!-~]{0,60}$/).map((raw) => ({ raw })), weight: 1 },
    );
    const sessionHeaders = (plan: SessionPlan, token: 'valid' | 'missing' | { raw: string }): Record<string, string> => ({
      ...(plan === 'valid' || plan === 'both'
        ? { cookie: account.cookie }
        : plan === 'forged'
          ? { cookie: 'dashboard_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }
          : {}),
      ...(plan === 'api-key' || plan === 'both' ? { 'x-api-key': apiKey } : {}),
      ...(token === 'valid' ? { 'x-csrf-token': account.csrf } : token === 'missing' ? {} : { 'x-csrf-token': token.raw }),
    });
    const signedIn = (result: HttpResult) => {
      if (result.status !== 200 && result.status !== 201) throw new Error(`signing in answered ${result.status}: ${result.text}`);
      return { cookie: sessionCookieOf(result)!, csrf: result.body.response.csrfToken as string };
    };

    beforeAll(async () => {
      const email = `fuzz-${process.pid}@acme.example`;
      const result = await http(t.baseUrl, 'POST', `${DASHBOARD}/signup`, { body: { email, password: PASSWORD, merchantName: 'Fuzz' } });
      expect(result.status).toBe(201);
      account = { email, ...signedIn(result) };
    });

    it('the public account routes (sign-up, login, reset, verification, invitation): odd bodies, content types and queries', async () => {
      const token = 'q0mJ2pWm3kW0yq1Yb0n8l0O7hB9kYw3V8q6H2d1c4f0';
      const bases = {
        signup: { email: 'new-account@acme.example', password: PASSWORD, merchantName: 'Acme' },
        login: { email: account.email, password: PASSWORD },
        'password-reset': { email: account.email },
        'password-reset/confirm': { token, newPassword: 'a brand new passphrase' },
        'verify-email': { token },
        'invitations/accept': { token, password: PASSWORD },
      };
      for (const [route, base] of Object.entries(bases)) {
        await fuzz(
          `dashboard: ${route}`,
          fc.record({ contentType, query, body: body(base) }),
          (plan) => {
            const bytes = bodyBytes(plan.body, base);
            return { method: 'POST', path: `${DASHBOARD}/${route}${q(plan.query)}`, headers: headersOf('none', plan.contentType, bytes), body: bytes };
          },
          { runs: DASHBOARD_RUNS },
        );
      }
    });

    it('the setup routes: odd sessions, CSRF tokens, path ids, bodies and queries', async () => {
      // Each route with the body it takes (none for reads and deletions); `:id` is a path id.
      const routes: Record<string, unknown> = {
        'GET api-keys': undefined,
        'POST api-keys': { name: 'Fuzzed key' },
        'POST api-keys/:id/roll': { expiresInHours: 1 },
        'DELETE api-keys/:id': undefined,
        'GET members': undefined,
        'POST members': { email: 'invitee@acme.example', role: 'developer' },
        'PATCH members/:id': { role: 'owner' },
        'DELETE members/:id': undefined,
        'GET invitations': undefined,
        'DELETE invitations/:id': undefined,
        'GET team-settings': undefined,
        'PUT team-settings': { requireTwoFactor: false },
        'GET audit-log': undefined,
        'GET audit-log/:id': undefined,
        'POST two-factor': undefined,
        'POST two-factor/confirm': { code: '123456' },
        'DELETE two-factor': { code: '123456' },
        'POST verify-email/resend': undefined,
        'POST password': { currentPassword: 'not the password', newPassword: 'a brand new passphrase' },
        'GET balance': undefined,
        'GET balance-transactions': undefined,
        'GET balance-transactions/export.csv': undefined,
        'GET businesses': undefined,
        'GET businesses/:id': undefined,
        'GET payment-intents': undefined,
        'GET payment-intents/:id': undefined,
        'GET withdrawals': undefined,
        'GET withdrawals/:id': undefined,
        'GET international-payment-intents': undefined,
        'GET international-payment-intents/:id': undefined,
        'GET international-payment-intents/:id/timeline': undefined,
        'GET quotes': undefined,
        'GET quotes/:id': undefined,
        'GET search': undefined,
        'GET vault': undefined,
        'GET vault/businesses': undefined,
        'GET vault/transactions': undefined,
        'POST payment-intents/:id/confirm': {},
        'POST withdrawals': { merchantReference: 'fuzz-payout', amount: 1000, bankCode: '058', accountNumber: '0123456785', accountName: 'Acme Stores Ltd' },
        'POST businesses/:id/agreement-link': undefined,
        'POST test-helpers/payment-intents/:id/fund': { amount: 1000 },
      };
      const segment = fc.oneof(
        fc.constantFrom(
          'key_000000000000000000000000',
          'usr_000000000000000000000000',
          'inv_000000000000000000000000',
          'aud_000000000000000000000000',
          'pobo_000000000000000000000000',
          'pi_000000000000000000000000',
          'wd_000000000000000000000000',
          'ipi_000000000000000000000000',
          'qt_000000000000000000000000',
        ),
        oddPathSegment,
      );
      await fuzz(
        'dashboard: setup routes',
        fc
          .record({ route: fc.constantFrom(...Object.keys(routes)), session, csrf, segment, query, contentType, body: body({}), key: keyPlan })
          .chain((plan) => (routes[plan.route] === undefined ? fc.constant(plan.body) : body(routes[plan.route])).map((b) => ({ ...plan, body: b }))),
        (plan) => {
          const [method, path] = plan.route.split(' ');
          const base = routes[plan.route] ?? {};
          const bytes = routes[plan.route] === undefined && plan.body.kind !== 'garbage' ? undefined : bodyBytes(plan.body, base);
          return {
            method,
            path: `${DASHBOARD}/${path.replace(':id', plan.segment)}${q(plan.query)}`,
            headers: {
              ...sessionHeaders(plan.session, plan.csrf),
              // The money-moving routes take an Idempotency-Key; the others ignore it.
              ...(method === 'POST' ? keyHeader(plan.key, plan.route) : {}),
              ...(bytes === undefined || plan.contentType === null ? {} : { 'content-type': plan.contentType }),
            },
            body: bytes,
          };
        },
        { runs: DASHBOARD_RUNS },
      );
    });

    it('the session routes: odd sessions, CSRF tokens, path ids and queries', async () => {
      const routes = fc.constantFrom('GET me', 'GET sessions', 'DELETE sessions/:id', 'POST logout');
      await fuzz(
        'dashboard: session routes',
        fc.record({ route: routes, session, csrf, segment: fc.oneof(fc.constant('ses_000000000000000000000000'), oddPathSegment), query }),
        (plan) => {
          const [method, path] = plan.route.split(' ');
          const target = path.replace(':id', plan.segment);
          return { method, path: `${DASHBOARD}/${target}${q(plan.query)}`, headers: sessionHeaders(plan.session, plan.csrf) };
        },
        {
          runs: DASHBOARD_RUNS,
          // A logout that got through ended the session: sign in again for the next runs.
          after: async (res) => {
            if (res.status === 200 && res.text.includes('"Signed out"')) {
              account = {
                ...account,
                ...signedIn(await http(t.baseUrl, 'POST', `${DASHBOARD}/login`, { body: { email: account.email, password: PASSWORD } })),
              };
            }
          },
        },
      );
    });
  });

  it('POST /api/merchant/pobo/users (create)', async () => {
    const base = { businessName: 'Acme Trading Ltd', email: 'finance@acme.example', phoneNumber: '+2348012345678', country: 'NG', allowNairaCollection: true };
    await fuzz('create', fc.record({ auth, contentType, query, body: body(base) }), (plan) => {
      const bytes = bodyBytes(plan.body, base);
      return {
        method: 'POST',
        path: `${USERS}${plan.query === null ? '' : `?${plan.query}`}`,
        headers: headersOf(plan.auth, plan.contentType, bytes),
        body: bytes,
      };
    });
  });

  it('POST /api/merchant/pobo/users/:id/agreement-link', async () => {
    const base = {};
    await fuzz('agreement-link', fc.record({ auth, target, contentType, query, body: body(base) }), (plan) => {
      const bytes = bodyBytes(plan.body, base);
      const path = `${USERS}/${segmentOf(plan.target, linkBusiness)}/agreement-link${plan.query === null ? '' : `?${plan.query}`}`;
      return { method: 'POST', path, headers: headersOf(plan.auth, plan.contentType, bytes), body: bytes };
    });
  });

  it('POST /api/merchant/pobo/users/:id/onboarding (KYB application)', async () => {
    const base = kybApplication('RC-FUZZ-HOLD');
    await fuzz(
      'kyb',
      fc.record({ auth, target, contentType, query, body: body(base) }),
      (plan) => {
        const bytes = bodyBytes(plan.body, base);
        const path = `${USERS}/${segmentOf(plan.target, kybBusiness)}/onboarding${plan.query === null ? '' : `?${plan.query}`}`;
        return { method: 'POST', path, headers: headersOf(plan.auth, plan.contentType, bytes), body: bytes };
      },
      {
        after: async (res) => {
          // An application that got through: make the business submittable again for the next run.
          if (res.status === 202) await pg.query(`UPDATE pobo_businesses SET kyb_status = 'not_started' WHERE id = $1`, [kybBusiness]);
        },
      },
    );
  });

  it('PATCH /api/merchant/pobo/users/:id/onboarding (KYB correction, Harbor format)', async () => {
    const base = harborApplication('RC-FUZZ-FIX-HOLD');
    await fuzz(
      'kyb-correction',
      fc.record({ auth, target, contentType, query, body: body(base) }),
      (plan) => {
        const bytes = bodyBytes(plan.body, base);
        const path = `${USERS}/${segmentOf(plan.target, correctionBusiness)}/onboarding${plan.query === null ? '' : `?${plan.query}`}`;
        return { method: 'PATCH', path, headers: headersOf(plan.auth, plan.contentType, bytes), body: bytes };
      },
      {
        after: async (res) => {
          // A correction that got through: back to action_required, its application the one to correct next.
          if (res.status === 202) await pg.query(`UPDATE pobo_businesses SET kyb_status = 'action_required' WHERE id = $1`, [correctionBusiness]);
        },
      },
    );
  });

  it('POST /agreements/:token (the agreement page form)', async () => {
    const page = fc.record({
      token: fc.oneof({ arbitrary: fc.constant<string | null>(null), weight: 6 }, { arbitrary: oddPathSegment, weight: 2 }),
      cookie: fc.constantFrom<'valid' | 'none' | 'garbage'>('valid', 'valid', 'valid', 'none', 'garbage'),
      contentType: fc.oneof(
        { arbitrary: fc.constant<string | null>('application/x-www-form-urlencoded'), weight: 6 },
        { arbitrary: oddContentType, weight: 2 },
      ),
      body: fc.oneof(
        { arbitrary: formPlan.map((form) => ({ kind: 'form' as const, form })), weight: 6 },
        {
          arbitrary: fc
            .array(mutationOf({ csrf_token: 'c', terms_version: TERMS_VERSION }), { minLength: 1, maxLength: 2 })
            .map((mutations) => ({ kind: 'json' as const, mutations })),
          weight: 1,
        },
        { arbitrary: garbageBody.map((bytes) => ({ kind: 'garbage' as const, bytes })), weight: 1 },
      ),
    });
    await fuzz(
      'agreement-page',
      page,
      (plan) => {
        const token = plan.token ?? pageToken;
        const csrf = csrfFieldValue(t.config.linkSigningSecret, cookieValue, token);
        let bytes: Buffer;
        if (plan.body.kind === 'form') {
          const { form } = plan.body;
          const fields: [string, string][] = [];
          if (form.csrf !== 'missing') fields.push(['csrf_token', form.csrf === 'valid' ? csrf : form.csrf.raw]);
          if (form.duplicateCsrf) fields.push(['csrf_token', csrf]);
          if (form.terms !== 'missing') fields.push(['terms_version', form.terms === 'valid' ? TERMS_VERSION : form.terms.raw]);
          fields.push(...form.extra);
          bytes = Buffer.from(fields.map(([k, v]) => `${k}=${v}`).join('&'));
        } else if (plan.body.kind === 'json') {
          bytes = Buffer.from(applyMutations({ csrf_token: csrf, terms_version: TERMS_VERSION }, plan.body.mutations));
        } else {
          bytes = plan.body.bytes;
        }
        const cookies: Record<typeof plan.cookie, Record<string, string>> = {
          valid: { cookie: `agreement_csrf=${cookieValue}` },
          none: {},
          garbage: { cookie: 'agreement_csrf=%ff; a=b=c; ;' },
        };
        const cookie = cookies[plan.cookie];
        return {
          method: 'POST',
          path: `/agreements/${token}`,
          headers: { ...cookie, ...(plan.contentType === null ? {} : { 'content-type': plan.contentType }) },
          body: bytes,
        };
      },
      {
        after: async (res) => {
          // Accepted (the fuzzer sent the form as the page would): continue with a fresh business.
          if (res.status === 200) await newPageBusiness();
        },
      },
    );
  });

  it('GET routes: odd query strings and path parameters', async () => {
    const get = fc.oneof(
      fc.record({ route: fc.constant('list' as const), auth, query: oddQuery }),
      fc.record({ route: fc.constantFrom('one' as const, 'onboarding' as const, 'page' as const), auth, target, query }),
    );
    await fuzz(
      'get',
      get,
      (plan) => {
        const q = plan.query === null ? '' : `?${plan.query}`;
        if (plan.route === 'list') return { method: 'GET', path: `${USERS}?${plan.query}`, headers: keyFor(plan.auth) };
        const segment = segmentOf(plan.target, linkBusiness);
        const path = { one: `${USERS}/${segment}${q}`, onboarding: `${USERS}/${segment}/onboarding${q}`, page: `/agreements/${segment}${q}` }[plan.route];
        return { method: 'GET', path, headers: keyFor(plan.auth) };
      },
      { runs: Math.ceil(RUNS / 2) },
    );
  });

  /**
   * The request edge on every documented route: any method with a body (JSON, junk after it, a
   * body that never finishes, an unfinished chunked one), headers sent twice (credentials, the
   * Idempotency-Key, the content type, a rail signature), and clients that leave before the headers
   * end, mid-body or right after the body. An answered request keeps the contract; whatever the
   * clients did, the process is still there to answer afterwards (an app of its own with a short
   * body deadline, so every abandoned body's deadline passes within the test).
   */
  it('any route and method: bodies on every method, duplicate headers, and clients leaving at any point', async () => {
    const idleMs = 300;
    const edge = await startTestApp(stack.db.url, { BODY_IDLE_TIMEOUT_MS: String(idleMs) });
    try {
      const { merchant, rails } = await servedDocuments(edge.baseUrl);
      const paths = [...Object.keys(merchant.paths), ...Object.keys(rails.paths)].map((path) => path.replace(/\{[^}]+\}/g, linkBusiness));
      const framings: Array<{ headers: Array<[string, string]>; parts: [string, string] }> = [
        {
          headers: [
            ['content-type', 'application/json'],
            ['content-length', '2'],
          ],
          parts: ['{', '}'],
        },
        {
          headers: [
            ['content-type', 'application/json'],
            ['content-length', '2'],
          ],
          parts: ['{}', 'GARBAGE \x00\xff\r\n\r\n'],
        },
        {
          headers: [
            ['content-type', 'application/json'],
            ['content-length', '64'],
          ],
          parts: ['{"a":', '1'],
        },
        {
          headers: [
            ['content-type', 'application/json'],
            ['transfer-encoding', 'chunked'],
          ],
          parts: ['2\r\n{}\r\n', ''],
        },
        { headers: [], parts: ['', ''] },
      ];
      const twice: Record<string, [string, string]> = {
        'idempotency-key': ['fuzz-key-aaaaaaaaaaaa', 'fuzz-key-bbbbbbbbbbbb'],
        'x-api-key': [apiKey, otherKey],
        authorization: [`Bearer ${apiKey}`, `Bearer ${apiKey}`],
        'content-type': ['application/json', 'text/plain'],
        'x-rail-signature': ['t=1,v1=00', `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`],
      };
      const plan = fc.record({
        path: fc.constantFrom(...paths),
        method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
        framing: fc.nat(framings.length - 1),
        duplicated: fc.subarray(Object.keys(twice)),
        leave: fc.constantFrom('never', 'never', 'mid-headers', 'mid-body', 'after-body'),
      });
      const port = Number(new URL(edge.baseUrl).port);
      await fc.assert(
        fc.asyncProperty(fc.array(plan, { minLength: CONCURRENCY, maxLength: CONCURRENCY }), async (batch) => {
          await Promise.all(
            batch.map(async ({ path, method, framing, duplicated, leave }) => {
              const { headers, parts } = framings[framing];
              const sentHeaders: Array<[string, string]> = [['x-api-key', apiKey], ...headers];
              for (const name of duplicated) {
                const kept = sentHeaders.filter(([header]) => header !== name);
                sentHeaders.splice(0, sentHeaders.length, ...kept, [name, twice[name][0]], [name, twice[name][1]]);
              }
              const head = requestHead(method, path, sentHeaders);
              const connection = new RawConnection(port, { headOnly: method === 'HEAD' });
              try {
                if (leave === 'mid-headers') return void (await connection.write(head.slice(0, head.length - 7)));
                await connection.write(head + parts[0]);
                if (leave === 'mid-body') return;
                await connection.write(parts[1]);
                if (leave === 'after-body') return;
                const answer = await Promise.race([connection.answer.catch(() => undefined), sleep(idleMs * 10).then(() => undefined)]);
                if (answer === undefined) throw new Error(`${method} ${path} with ${JSON.stringify(sentHeaders.slice(1))}: no answer`);
                const html = HTML_PAGES.some((prefix) => path.startsWith(prefix)) || path === '/docs';
                const violation = contractViolation({ status: answer.status, headers: answer.headers, text: answer.body }, { html });
                if (method === 'HEAD' ? answer.status >= 500 : violation)
                  throw new Error(`${method} ${path} with ${JSON.stringify(sentHeaders.slice(1))}, ${JSON.stringify(parts)}\n→ ${violation ?? answer.status}`);
              } finally {
                connection.destroy();
              }
            }),
          );
        }),
        { numRuns: Math.ceil(RUNS / 4 / CONCURRENCY), seed: SEED },
      );
      // Every abandoned body's deadline has passed: the app still answers, with and without a key.
      await sleep(idleMs * 4);
      expect((await http(edge.baseUrl, 'GET', '/health/live')).status).toBe(200);
      expect((await http(edge.baseUrl, 'GET', USERS, { apiKey })).status).toBe(200);
    } finally {
      await edge.close();
    }
  });

  /**
   * The money routes, on a stack of their own (database, the sandbox bank rail calling the app
   * back; no worker: nothing here waits on a job). One merchant is funded through the API so that
   * withdrawals can succeed, a few intents are funded so that confirmations can; the suite ends
   * with the ledger's own check, whatever got through.
   */
  describe('money routes', () => {
    const PI = '/api/merchant/payment-intents';
    const WD = '/api/merchant/withdrawals';
    const fundPath = (segment: string) => `/api/merchant/test-helpers/payment-intents/${segment}/fund`;
    const GOOD_ACCOUNT = nubanFor('044', '069000003');
    /** Payees: mostly one that is paid, sometimes the rail's fixed outcomes (fails, stays processing, paid then returned). */
    const PAYEES = [
      ['044', GOOD_ACCOUNT],
      ['044', GOOD_ACCOUNT],
      ['044', GOOD_ACCOUNT],
      [MAGIC_PAYOUT_BANK_CODE, PAYOUT_ACCOUNT_NOT_FOUND],
      [MAGIC_PAYOUT_BANK_CODE, PAYOUT_STAYS_PROCESSING],
      [MAGIC_PAYOUT_BANK_CODE, PAYOUT_SUCCEEDS_THEN_RETURNED],
    ] as const;
    /** Each money route's share of FUZZ_RUNS: seven properties here, some calling the rail, so half each. */
    const MONEY_RUNS = Math.ceil(RUNS / 2);

    /** A new merchant reference, or one already taken (409 `merchant_reference_in_use`). */
    const reference = fc.constantFrom<'fresh' | 'taken'>('fresh', 'fresh', 'fresh', 'fresh', 'fresh', 'taken');

    let stack: MoneyStack;
    let baseUrl: string;
    let keys: MerchantKeys;
    let merchantId: string;
    /** `funds_received`, each confirmable once. */
    let fundedIntents: string[];
    /** `awaiting_payment`, expecting a sender: the test helper's target. */
    let awaitingIntent: string;
    let ownWithdrawal: string;
    let ownBtx: string;
    let foreign: { intent: string; withdrawal: string; btx: string };
    const referenceOf = (plan: 'fresh' | 'taken', prefix: string) => (plan === 'fresh' ? unique(prefix) : `${prefix}-taken`);
    const withdrawal = (merchantReference: string, amount: number, payee: readonly [string, string] = PAYEES[0]) => ({
      merchantReference,
      amount,
      bankCode: payee[0],
      accountNumber: payee[1],
      accountName: 'Acme Stores Ltd',
      narration: 'Fuzz payout',
    });

    const moneyHeaders = (a: Auth, type: string | null, bytes: Buffer | undefined, key: KeyPlan, sticky?: string) => ({
      ...headersOf(a, type, bytes, keys),
      ...keyHeader(key, sticky),
    });

    beforeAll(async () => {
      // The rail's default timeout again (the stack's 2 s is for suites that time it out): a sandbox slowed by a loaded machine is not what is fuzzed here.
      stack = await startMoneyStack({ name: 'fuzz', worker: false, env: { WITHDRAWAL_FEE_KOBO: '1000', PROVIDER_TIMEOUT_MS: '10000' } });
      const app = stack.t;
      baseUrl = app.baseUrl;
      const own = await fundedMerchant(app, 1_000_000_000);
      const other = await fundedMerchant(app, 10_000);
      keys = { own: own.apiKey, other: other.apiKey };
      merchantId = own.merchantId;
      fundedIntents = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const intent = await createIntent(app, keys.own, { amount: 1000 });
          await fundIntent(app, keys.own, intent.paymentIntentId, {}, (i) => i.status === 'funds_received');
          return intent.paymentIntentId as string;
        }),
      );
      awaitingIntent = (await createIntent(app, keys.own, { expectedSenderBankName: 'Guaranty Trust Bank', expectedSenderAccountNumber: '0123456789' }))
        .paymentIntentId;
      const payout = async (apiKey: string) => {
        const created = await post(app, apiKey, WD, withdrawal(unique('payout'), 100));
        expect(created.status).toBe(201);
        return created.body.response.withdrawalId as string;
      };
      const firstBtx = async (apiKey: string) =>
        (await http(baseUrl, 'GET', '/api/merchant/balance-transactions', { apiKey })).body.response[0].balanceTransactionId as string;
      ownWithdrawal = await payout(keys.own);
      ownBtx = await firstBtx(keys.own);
      foreign = { intent: (await createIntent(app, keys.other)).paymentIntentId, withdrawal: await payout(keys.other), btx: await firstBtx(keys.other) };
    });

    afterAll(async () => {
      await stack?.close();
    });

    it('POST /api/merchant/payment-intents (create)', async () => {
      const base = {
        merchantReference: 'order',
        amount: 5000,
        expectedSenderBankName: 'Guaranty Trust Bank',
        expectedSenderAccountNumber: '0123456789',
        expiresInMinutes: 30,
      };
      await fuzz(
        'money: create intent',
        fc.record({ auth, contentType, query, key: bodyKey, reference, body: body(base) }),
        (plan) => {
          const bytes = bodyBytes(plan.body, { ...base, merchantReference: referenceOf(plan.reference, 'order') });
          return { method: 'POST', path: `${PI}${q(plan.query)}`, headers: moneyHeaders(plan.auth, plan.contentType, bytes, plan.key), body: bytes };
        },
        { baseUrl, runs: MONEY_RUNS },
      );
    });

    it('POST /api/merchant/payment-intents/:id/confirm', async () => {
      const base = {};
      await fuzz(
        'money: confirm intent',
        fc.record({ auth, target: moneyTarget, contentType, query, key: bodyKey, body: body(base) }),
        (plan) => {
          const bytes = bodyBytes(plan.body, base);
          const path = `${PI}/${segmentFor(plan.target, [...fundedIntents, awaitingIntent], foreign.intent)}/confirm${q(plan.query)}`;
          return { method: 'POST', path, headers: moneyHeaders(plan.auth, plan.contentType, bytes, plan.key), body: bytes };
        },
        { baseUrl, runs: MONEY_RUNS },
      );
    });

    it('POST /api/merchant/withdrawals (create)', async () => {
      const base = withdrawal('payout', 100);
      await fuzz(
        'money: create withdrawal',
        fc.record({ auth, contentType, query, key: bodyKey, reference, payee: fc.constantFrom(...PAYEES), body: body(base) }),
        (plan) => {
          const bytes = bodyBytes(plan.body, withdrawal(referenceOf(plan.reference, 'payout'), 100, plan.payee));
          return { method: 'POST', path: `${WD}${q(plan.query)}`, headers: moneyHeaders(plan.auth, plan.contentType, bytes, plan.key), body: bytes };
        },
        { baseUrl, runs: MONEY_RUNS },
      );
    });

    it('POST /api/merchant/test-helpers/payment-intents/:id/fund (Idempotency-Key optional)', async () => {
      const base = { amount: 5000, senderBankName: 'Guaranty Trust Bank', senderAccountNumber: '0123456789' };
      await fuzz(
        'money: fund intent (test helper)',
        fc.record({ auth, target: moneyTarget, contentType, query, key: optionalBodyKey, body: body(base) }),
        (plan) => {
          const bytes = bodyBytes(plan.body, base);
          const path = `${fundPath(segmentFor(plan.target, [awaitingIntent, awaitingIntent, awaitingIntent, fundedIntents[0]], foreign.intent))}${q(plan.query)}`;
          return { method: 'POST', path, headers: moneyHeaders(plan.auth, plan.contentType, bytes, plan.key), body: bytes };
        },
        { baseUrl, runs: MONEY_RUNS },
      );
    });

    it('GET money routes: odd query strings, cursors and path ids', async () => {
      const lists = {
        intents: PI,
        withdrawals: WD,
        'balance-transactions': '/api/merchant/balance-transactions',
        balance: '/api/merchant/balance',
        banks: '/api/merchant/banks',
      };
      const get = fc.oneof(
        fc.record({
          route: fc.constantFrom<keyof typeof lists>('intents', 'withdrawals', 'balance-transactions', 'balance', 'banks'),
          auth,
          cursor: fc.constantFrom<'none' | 'own' | 'foreign'>('none', 'none', 'own', 'foreign'),
          query: fc.option(moneyQuery, { freq: 4 }),
        }),
        fc.record({ route: fc.constantFrom<'intent' | 'withdrawal'>('intent', 'withdrawal'), auth, target: moneyTarget, query }),
      );
      await fuzz(
        'money: GET',
        get,
        (plan) => {
          const headers = keyFor(plan.auth, keys);
          if ('target' in plan) {
            const segment =
              plan.route === 'intent' ? segmentFor(plan.target, fundedIntents, foreign.intent) : segmentFor(plan.target, [ownWithdrawal], foreign.withdrawal);
            return { method: 'GET', path: `${plan.route === 'intent' ? PI : WD}/${segment}${q(plan.query)}`, headers };
          }
          // A real cursor, the merchant's or another's (balance and banks take none: there it is an unknown parameter).
          const btx = [ownBtx, foreign.btx];
          const ids = {
            intents: [fundedIntents[0], foreign.intent],
            withdrawals: [ownWithdrawal, foreign.withdrawal],
            'balance-transactions': btx,
            balance: btx,
            banks: btx,
          }[plan.route];
          const cursor = plan.cursor === 'none' ? [] : [`limit=1&cursor=${plan.cursor === 'own' ? ids[0] : ids[1]}`];
          const parts = [...cursor, ...(plan.query === null ? [] : [plan.query])];
          return { method: 'GET', path: `${lists[plan.route]}${parts.length === 0 ? '' : `?${parts.join('&')}`}`, headers };
        },
        { baseUrl, runs: MONEY_RUNS },
      );
    });

    it('Idempotency-Key: hostile values on the money POSTs are 400 idempotency_key_invalid/required, 409, 423 or a success', async () => {
      const plans = fc.record({
        route: fc.constantFrom<'create' | 'confirm' | 'withdraw' | 'fund'>('create', 'confirm', 'withdraw', 'fund'),
        key: keyPlan,
        /** A body of its own, or the same one every time (a replay when the key is too). */
        body: fc.constantFrom<'fresh' | 'same'>('fresh', 'fresh', 'same'),
        intent: fc.nat(1_000),
      });
      await fuzz(
        'money: Idempotency-Key',
        plans,
        (plan) => {
          const ref = plan.body === 'fresh' ? unique('keyed') : 'keyed-same';
          const intent = plan.intent % (fundedIntents.length + 1);
          const { path, json } = {
            create: { path: PI, json: { merchantReference: ref, amount: 2500 } },
            confirm: { path: `${PI}/${[...fundedIntents, awaitingIntent][intent]}/confirm`, json: {} },
            withdraw: { path: WD, json: withdrawal(ref, 1) },
            fund: { path: fundPath(awaitingIntent), json: plan.body === 'fresh' ? { amount: 5000 } : {} },
          }[plan.route];
          const bytes = Buffer.from(JSON.stringify(json));
          const sticky = plan.route === 'confirm' ? `confirm-${intent}` : plan.route;
          return { method: 'POST', path, headers: moneyHeaders('valid', 'application/json', bytes, plan.key, sticky), body: bytes };
        },
        {
          baseUrl,
          runs: MONEY_RUNS,
          check: (plan, res) => keyAnswerViolation(plan.key, res, plan.route !== 'fund'),
        },
      );
    });

    it('amounts: zero, negative, over 2 decimals or the maximum, strings, arrays, objects are a 400 naming amount', async () => {
      // `null`: no amount at all, which only the test helper takes (it sends the intent's).
      const plans = fc.oneof(
        fc.record({ route: fc.constantFrom<'create' | 'withdraw' | 'fund'>('create', 'withdraw', 'fund'), amount: invalidAmount }),
        fc.record({ route: fc.constantFrom<'create' | 'withdraw'>('create', 'withdraw'), amount: fc.constant(null) }),
      );
      await fuzz(
        'money: amounts',
        plans,
        (plan) => {
          const { path, json } = {
            create: { path: PI, json: { merchantReference: unique('amount'), amount: 1 } },
            withdraw: { path: WD, json: withdrawal(unique('amount'), 1) },
            fund: { path: fundPath(awaitingIntent), json: { amount: 1 } },
          }[plan.route];
          const bytes = Buffer.from(
            applyMutations(json, [plan.amount === null ? { op: 'delete', path: ['amount'] } : { op: 'replace', path: ['amount'], fragment: plan.amount }]),
          );
          return { method: 'POST', path, headers: moneyHeaders('valid', 'application/json', bytes, { kind: 'fresh' }), body: bytes };
        },
        {
          baseUrl,
          runs: MONEY_RUNS,
          check: (plan, res) => amountRefusalViolation(plan.amount, res),
        },
      );
    });

    it('the money stays balanced whatever was sent: ledger:verify passes and the balance is what the intents and withdrawals say', async () => {
      // One snapshot: the rail's callbacks may still be landing.
      const { rows } = await stack.pg.query<Record<string, string>>(
        `SELECT (SELECT COALESCE(sum(amount), 0) FROM payment_intents WHERE merchant_id = $1 AND status = 'succeeded') AS confirmed,
                (SELECT COALESCE(sum(amount + fee), 0) FROM withdrawals WHERE merchant_id = $1 AND status <> 'failed') AS withdrawn,
                (SELECT COALESCE(sum(amount + fee), 0) FROM withdrawals WHERE merchant_id = $1 AND status IN ('pending', 'processing')) AS in_flight,
                (SELECT count(*) FROM withdrawals WHERE merchant_id = $1) AS withdrawals,
                (SELECT balance FROM ledger_accounts WHERE merchant_id = $1 AND kind = 'available' AND currency = 'NGN') AS available,
                (SELECT balance FROM ledger_accounts WHERE merchant_id = $1 AND kind = 'reserved' AND currency = 'NGN') AS reserved`,
        [merchantId],
      );
      const money = Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
      console.log(`Money after fuzzing: ${JSON.stringify(money)} (kobo)`);
      expect(money.withdrawals).toBeGreaterThan(1);
      expect(money.available).toBe(money.confirmed - money.withdrawn);
      // In flight: the whole source amount is reserved until the bridge leg starts, the fee alone after.
      expect(money.reserved).toBe(money.in_flight);
      expect(await ledgerVerify(stack)).toEqual({ code: 0, report: expect.objectContaining({ ok: true }) });
    });
  });

  /**
   * The international routes (quotes, international payment intents, receipts, the cross-border
   * rails' callbacks), on a stack of their own: both sandbox rails calling the app back, and a
   * worker, which verifies the business through KYB and then runs every intent that gets through
   * to `settled` or `rejected` while the fuzzing goes on. The merchant is funded through the API
   * and draws its valid bodies from a pool of real quotes (refilled by the quotes that the fuzzing
   * creates), so some creations succeed; the block ends with the ledger's check.
   */
  describe('international routes', () => {
    /**
     * Each international route's share of FUZZ_RUNS: half, as the money routes', for the POSTs and
     * the callbacks; a quarter for the GETs (simple reads) and an eighth for what checks one field.
     */
    const INTL_RUNS = Math.ceil(RUNS / 2);
    const INTL_READ_RUNS = Math.ceil(RUNS / 4);
    /** Quotes that go into the pool: what the merchant's balance pays for many times over (NGN). */
    const CHEAP = 2_000_000;
    /** How long each rail leg of the intents the fuzzing creates stays open (the seeded ones settle at once). */
    const SETTLEMENT_STEP_MS = 5_000;
    const intlTarget = idTarget(internationalPathSegment);
    type Quote = { quoteId: string; poboUserId: string; expiresAt: string; options: { quoteOptionId: string; sourceAmount: number }[] };
    type Refused = 'used' | 'expired' | 'unverified' | 'dear' | 'foreign' | 'unknown';
    /** The quote a create pays from: the pool's first (mostly), or one it must refuse. */
    const quotePick = fc.oneof(
      { arbitrary: fc.constant<'fresh'>('fresh'), weight: 12 },
      { arbitrary: fc.constantFrom<Refused>('used', 'expired', 'unverified', 'dear', 'foreign', 'unknown'), weight: 4 },
    );
    /** The option: the quote's first or second (the first when it has one), or another quote's. */
    const optionPick = fc.constantFrom<'first' | 'second' | 'other-quote'>('first', 'first', 'first', 'first', 'second', 'second', 'other-quote');

    let stack: InternationalStack;
    let baseUrl: string;
    let keys: MerchantKeys;
    let merchantId: string;
    let business: string;
    let businesses: Record<'verified' | 'unverified' | 'foreign' | 'unknown', string>;
    /** Unused quotes of the verified business, cheap enough: a valid body pays from the first. */
    const pool: Quote[] = [];
    const pooled = new Set<string>();
    let refused: Record<Refused, Quote>;
    /** Every quote id the merchant has, and another merchant's. */
    const quoteIds: string[] = [];
    let foreignQuote: string;
    /** The merchant's intents: seeded (settled SWIFT, settled IBAN, rejected) and what the fuzzing created. */
    const intentIds: string[] = [];
    let foreignIntent: string;
    /** Tokens of the settled SWIFT payment (receipt and telex), the settled IBAN one (receipt only), the rejected one (none). */
    let tokens: string[];

    const toPool = (quote: Quote) => {
      if (pooled.has(quote.quoteId)) return;
      pooled.add(quote.quoteId);
      pool.push(quote);
    };

    /** After a POST: what it created joins the targets (a cheap quote of the verified business the pool), a quote used leaves the pool. */
    const collect = (res: RawResponse) => {
      if (res.status !== 201) return Promise.resolve();
      const created = JSON.parse(res.text).response;
      if (typeof created.intentId === 'string') {
        if (!intentIds.includes(created.intentId)) intentIds.push(created.intentId);
        const used = pool.findIndex((quote) => quote.quoteId === created.quoteId);
        if (used >= 0) pool.splice(used, 1);
      } else if (typeof created.quoteId === 'string') {
        if (!quoteIds.includes(created.quoteId)) quoteIds.push(created.quoteId);
        const quote = created as Quote;
        if (quote.poboUserId === business && quote.options.every((option) => option.sourceAmount <= CHEAP)) toPool(quote);
      }
      return Promise.resolve();
    };

    /** The body of a create: the picked quote and option (refused quotes when the pool has run dry), paid to the recipient. */
    const createBody = (pick: 'fresh' | Refused, option: 'first' | 'second' | 'other-quote', recipient: Record<string, unknown>) => {
      const quote = pick === 'fresh' ? (pool[0] ?? refused.used) : refused[pick];
      const chosen = option === 'other-quote' ? refused.used.options[0] : (quote.options[option === 'second' ? 1 : 0] ?? quote.options[0]);
      return intentBody(quote, recipient, chosen);
    };

    beforeAll(async () => {
      stack = await startInternationalStack({ name: 'fuzz-intl', env: { PROVIDER_TIMEOUT_MS: '10000' } });
      const app = stack.t;
      baseUrl = app.baseUrl;
      const [own, other] = await Promise.all([fundedMerchant(app, 1_000_000_000), fundedMerchant(app, 1_000_000)]);
      keys = { own: own.apiKey, other: other.apiKey };
      merchantId = own.merchantId;
      // Both verified businesses collect Naira too: their own accounts are fuzzed here as well.
      const [verified, foreign, unverified] = await Promise.all([
        verifiedBusiness(stack, keys.own, { allowNairaCollection: true }),
        verifiedBusiness(stack, keys.other, { allowNairaCollection: true }),
        createBusiness(app, keys.own, { businessName: 'Unverified Ltd' }).then((b) => b.poboUserId),
      ]);
      business = verified;
      businesses = { verified, unverified, foreign, unknown: 'pobo_000000000000000000000000' };
      const corridors = [
        { destinationCountry: 'US', currency: 'USD', amount: 100 },
        { destinationCountry: 'GB', currency: 'GBP', amount: 50 },
        { destinationCountry: 'DE', currency: 'EUR', amount: 60 },
        { destinationCountry: 'GH', currency: 'GHS', amount: 1500 },
        { destinationCountry: 'KE', currency: 'KES', amount: 12_000 },
      ];
      const quote = (apiKey: string, body: Record<string, unknown>): Promise<Quote> => createQuote(app, apiKey, { poboUserId: business, ...body });
      // A quote of a business that is not verified: priced while it was, then its KYB moved on.
      const setKyb = (status: string) => stack.pg.query('UPDATE pobo_businesses SET kyb_status = $2 WHERE id = $1', [unverified, status]);
      await setKyb('verified');
      const unverifiedQuote = await quote(keys.own, { poboUserId: unverified });
      await setKyb('agreement_pending');
      const [fresh, [swift, iban, rejected, expired, dear, foreignPaid]] = await Promise.all([
        Promise.all(Array.from({ length: 24 }, (_, i) => quote(keys.own, corridors[i % corridors.length]))),
        Promise.all([
          quote(keys.own, {}),
          quote(keys.own, corridors[2]),
          quote(keys.own, {}),
          quote(keys.own, {}),
          quote(keys.own, { amount: 10_000_000 }),
          quote(keys.other, { poboUserId: foreign }),
        ]),
      ]);
      fresh.forEach(toPool);
      await stack.pg.query(`UPDATE quotes SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.quoteId]);
      refused = {
        used: swift,
        expired,
        unverified: unverifiedQuote,
        dear,
        foreign: foreignPaid,
        unknown: { ...swift, quoteId: 'qt_000000000000000000000000' },
      };
      const created = await Promise.all([
        createInternationalIntent(app, keys.own, intentBody(swift)),
        createInternationalIntent(app, keys.own, intentBody(iban, RECIPIENTS[2])),
        createInternationalIntent(app, keys.own, intentBody(rejected, { accountNumber: '000123450000' })),
        createInternationalIntent(app, keys.other, intentBody(foreignPaid)),
      ]);
      const final = await Promise.all(
        created.map(async (intent, i) => (await pollIntent(app, i === 3 ? keys.other : keys.own, intent.intentId, isFinal)).at(-1)),
      );
      expect(final.map((intent) => intent.status)).toEqual(['settled', 'settled', 'rejected', 'settled']);
      intentIds.push(...created.slice(0, 3).map((intent) => intent.intentId as string));
      foreignIntent = created[3].intentId;
      quoteIds.push(...[...fresh, swift, iban, rejected, expired, unverifiedQuote, dear].map((q) => q.quoteId));
      foreignQuote = foreignPaid.quoteId;
      expect(final[0].telexUrl).toBe(`${final[0].receiptUrl}/telex`);
      expect(final[1]).not.toHaveProperty('telexUrl');
      // The rejected payment's token, which its intent does not show.
      const { rows } = await stack.pg.query<{ receipt_token: string }>(`SELECT receipt_token FROM international_payment_intents WHERE id = $1`, [
        created[2].intentId,
      ]);
      tokens = [...final.slice(0, 2).map((intent) => new URL(intent.receiptUrl).pathname.split('/')[2]), rows[0].receipt_token];
      // From now on each leg takes a while: what the fuzzing creates is still in flight when forged callbacks about it come.
      await Promise.all([stack.bridgeRail.setSettlementStep(SETTLEMENT_STEP_MS), stack.payoutRail.setSettlementStep(SETTLEMENT_STEP_MS)]);
    }, 90_000);

    afterAll(async () => {
      await stack?.close();
    });

    it('POST /api/merchant/quotes (create; Idempotency-Key optional)', async () => {
      const base = { poboUserId: 'pobo', destinationCountry: 'US', currency: 'USD', amount: 100 };
      const owner = fc.constantFrom<keyof typeof businesses>(
        'verified',
        'verified',
        'verified',
        'verified',
        'verified',
        'verified',
        'unverified',
        'foreign',
        'unknown',
      );
      await fuzz(
        'international: create quote',
        fc.record({ auth, contentType, query, key: optionalBodyKey, owner, corridor, body: body(base) }),
        (plan) => {
          const bytes = bodyBytes(plan.body, { poboUserId: businesses[plan.owner], ...plan.corridor });
          return {
            method: 'POST',
            path: `${QUOTES}${q(plan.query)}`,
            headers: { ...headersOf(plan.auth, plan.contentType, bytes, keys), ...keyHeader(plan.key) },
            body: bytes,
          };
        },
        { baseUrl, runs: INTL_RUNS, after: collect },
      );
    });

    it('POST /api/merchant/international-payment-intents (create)', async () => {
      const base = intentBody(refused.used);
      await fuzz(
        'international: create intent',
        fc.record({
          auth,
          contentType,
          query,
          key: bodyKey,
          quote: quotePick,
          option: optionPick,
          recipient: fc.constantFrom(...RECIPIENTS),
          body: body(base),
        }),
        (plan) => {
          const bytes = bodyBytes(plan.body, createBody(plan.quote, plan.option, plan.recipient));
          return {
            method: 'POST',
            path: `${INTENTS}${q(plan.query)}`,
            headers: { ...headersOf(plan.auth, plan.contentType, bytes, keys), ...keyHeader(plan.key) },
            body: bytes,
          };
        },
        { baseUrl, runs: INTL_RUNS, after: collect },
      );
    });

    it('Idempotency-Key: hostile values on the international POSTs are 400 idempotency_key_invalid/required, 409, 423 or a success', async () => {
      const plans = fc.record({
        route: fc.constantFrom<'quote' | 'intent'>('quote', 'intent'),
        key: keyPlan,
        /** A body of its own, or the same one every time (a replay when the key is too). */
        body: fc.constantFrom<'fresh' | 'same'>('fresh', 'fresh', 'same'),
        cents: fc.integer({ min: 1, max: 10_000_000 }),
      });
      await fuzz(
        'international: Idempotency-Key',
        plans,
        (plan) => {
          const json =
            plan.route === 'quote'
              ? { poboUserId: business, destinationCountry: 'US', currency: 'USD', amount: plan.body === 'fresh' ? plan.cents / 100 : 100 }
              : plan.body === 'fresh'
                ? createBody('fresh', 'first', {})
                : intentBody(refused.used);
          const bytes = Buffer.from(JSON.stringify(json));
          return {
            method: 'POST',
            path: plan.route === 'quote' ? QUOTES : INTENTS,
            headers: { ...headersOf('valid', 'application/json', bytes, keys), ...keyHeader(plan.key, `intl-${plan.route}`) },
            body: bytes,
          };
        },
        { baseUrl, runs: Math.ceil(RUNS / 8), after: collect, check: (plan, res) => keyAnswerViolation(plan.key, res, plan.route === 'intent') },
      );
    });

    it('POST /api/rails/bridge/events and /api/rails/payout/events: callbacks without a valid signature are refused, signed ones about anything are never a 5xx', async () => {
      const rails = fc.constantFrom<Rail>('bridge', 'payout').chain((rail) =>
        fc.record({
          rail: fc.constant(rail),
          kind: fc.nat(2),
          event: fc.constantFrom<'fresh' | 'same'>('fresh', 'fresh', 'fresh', 'same'),
          reference: railReference,
          signature: signaturePlan,
          contentType,
          body: fc.oneof({ arbitrary: fc.constant<Body>({ kind: 'valid' }), weight: 1 }, { arbitrary: body(RAIL_EVENT_SHAPE[rail]), weight: 2 }),
        }),
      );
      await fuzz(
        'international: rail callbacks',
        rails,
        (plan) => {
          const reference = plan.reference.kind === 'own' ? intentIds[plan.reference.index % intentIds.length] : plan.reference.text;
          const eventId = plan.event === 'fresh' ? unique('evt_fuzz') : `evt_fuzz_same_${plan.rail}`;
          const bytes = bodyBytes(plan.body, railEvent(plan.rail, plan.kind, eventId, reference));
          const headers = { ...(plan.contentType === null ? {} : { 'content-type': plan.contentType }), ...signatureHeader(plan.signature, plan.rail, bytes) };
          return { method: 'POST', path: plan.rail === 'bridge' ? BRIDGE_RAIL_CALLBACK_PATH : PAYOUT_RAIL_CALLBACK_PATH, headers, body: bytes };
        },
        {
          baseUrl,
          runs: INTL_RUNS,
          check: (plan, res) => {
            if (res.status < 300 && !signatureHolds(plan.signature)) return `a callback signed ${plan.signature.kind} was acknowledged`;
            return [200, 400, 401, 413, 415].includes(res.status) ? null : `a callback answered ${res.status}`;
          },
        },
      );
    });

    it('quote amounts: zero, negative, over 2 decimals or the maximum, strings, arrays, objects are a 400 naming amount', async () => {
      const plans = fc.record({ amount: fc.option(invalidAmount, { freq: 12 }), corridor: fc.constantFrom(0, 1, 2) });
      await fuzz(
        'international: quote amounts',
        plans,
        (plan) => {
          const json = {
            poboUserId: business,
            ...[
              { destinationCountry: 'US', currency: 'USD' },
              { destinationCountry: 'GB', currency: 'GBP' },
              { destinationCountry: 'KE', currency: 'KES' },
            ][plan.corridor],
            amount: 1,
          };
          const bytes = Buffer.from(
            applyMutations(json, [plan.amount === null ? { op: 'delete', path: ['amount'] } : { op: 'replace', path: ['amount'], fragment: plan.amount }]),
          );
          return { method: 'POST', path: QUOTES, headers: headersOf('valid', 'application/json', bytes, keys), body: bytes };
        },
        { baseUrl, runs: Math.ceil(RUNS / 8), check: (plan, res) => amountRefusalViolation(plan.amount, res) },
      );
    });

    describe("a business's Naira account", () => {
      const NAIRA_RUNS = Math.ceil(RUNS / 4);
      const businessTarget = idTarget(internationalPathSegment);
      const transfersPath = (segment: string) => `/api/merchant/test-helpers/pobo/users/${segment}/naira-transfers`;
      /** The merchant's collections, and another merchant's. */
      const collectionIds: string[] = [];
      let foreignCollection: string;

      beforeAll(async () => {
        const active = async (apiKey: string, id: string) =>
          eventually(
            () => http(baseUrl, 'GET', `/api/merchant/pobo/users/${id}`, { apiKey }),
            (r) => r.body.response.nairaCollectionStatus === 'active',
            20_000,
            100,
          );
        await Promise.all([active(keys.own, businesses.verified), active(keys.other, businesses.foreign)]);
        const collected = async (apiKey: string, id: string) => {
          expect((await post(stack.t, apiKey, transfersPath(id), { amount: 250 })).status).toBe(202);
          const listed = await eventually(
            () => http(baseUrl, 'GET', `/api/merchant/pobo/users/${id}/collections`, { apiKey }),
            (r) => r.body.response.length > 0,
            20_000,
            100,
          );
          return listed.body.response[0].collectionId as string;
        };
        collectionIds.push(await collected(keys.own, businesses.verified));
        foreignCollection = await collected(keys.other, businesses.foreign);
      });

      it('POST …/pobo/users/:id/naira-transfers (test helper, Idempotency-Key optional)', async () => {
        const base = {
          amount: 1500.5,
          senderName: 'Chidi Okafor',
          senderBankName: 'Guaranty Trust Bank',
          senderAccountNumber: '0123456789',
          narration: 'Invoice 2231',
        };
        await fuzz(
          'naira: send transfer (test helper)',
          fc.record({ auth, target: businessTarget, contentType, query, key: optionalBodyKey, body: body(base) }),
          (plan) => {
            const bytes = bodyBytes(plan.body, base);
            const segment = segmentFor(plan.target, [businesses.verified, businesses.verified, businesses.unverified], businesses.foreign);
            return {
              method: 'POST',
              path: `${transfersPath(segment)}${q(plan.query)}`,
              headers: { ...headersOf(plan.auth, plan.contentType, bytes, keys), ...keyHeader(plan.key) },
              body: bytes,
            };
          },
          { baseUrl, runs: NAIRA_RUNS },
        );
      });

      it('GET collections: odd query strings, windows, cursors and path ids', async () => {
        const windows = fc.constantFrom(
          'receivedAfter=2026-01-01T00:00:00Z',
          'receivedBefore=2099-01-01T00:00:00.000%2B01:00',
          'receivedAfter=yesterday',
          'receivedBefore=2026-13-45T00:00:00Z',
          'receivedAfter=%00',
          'receivedAfter=1&receivedAfter=2',
        );
        const get = fc.oneof(
          fc.record({
            route: fc.constant('list' as const),
            auth,
            target: businessTarget,
            cursor: fc.constantFrom<'none' | 'own' | 'foreign'>('none', 'own', 'foreign'),
            query: fc.option(fc.oneof(moneyQuery, windows), { freq: 3 }),
          }),
          fc.record({ route: fc.constant('one' as const), auth, target: businessTarget, query }),
        );
        await fuzz(
          'naira: GET collections',
          get,
          (plan) => {
            const headers = keyFor(plan.auth, keys);
            if (plan.route === 'one')
              return { method: 'GET', path: `/api/merchant/collections/${segmentFor(plan.target, collectionIds, foreignCollection)}${q(plan.query)}`, headers };
            const cursor = plan.cursor === 'none' ? [] : [`limit=1&cursor=${plan.cursor === 'own' ? collectionIds[0] : foreignCollection}`];
            const parts = [...cursor, ...(plan.query === null ? [] : [plan.query])];
            const segment = segmentFor(plan.target, [businesses.verified], businesses.foreign);
            return { method: 'GET', path: `/api/merchant/pobo/users/${segment}/collections${parts.length === 0 ? '' : `?${parts.join('&')}`}`, headers };
          },
          { baseUrl, runs: NAIRA_RUNS },
        );
      });
    });

    it('GET international routes: odd query strings, cursors and path ids', async () => {
      const get = fc.oneof(
        fc.record({
          route: fc.constant('list' as const),
          auth,
          cursor: fc.constantFrom<'none' | 'own' | 'foreign'>('none', 'none', 'own', 'foreign'),
          query: fc.option(internationalQuery, { freq: 4 }),
        }),
        fc.record({ route: fc.constantFrom<'intent' | 'quote'>('intent', 'quote'), auth, target: intlTarget, query }),
      );
      await fuzz(
        'international: GET',
        get,
        (plan) => {
          const headers = keyFor(plan.auth, keys);
          if ('target' in plan) {
            const segment = plan.route === 'intent' ? segmentFor(plan.target, intentIds, foreignIntent) : segmentFor(plan.target, quoteIds, foreignQuote);
            return { method: 'GET', path: `${plan.route === 'intent' ? INTENTS : QUOTES}/${segment}${q(plan.query)}`, headers };
          }
          const cursor = plan.cursor === 'none' ? [] : [`limit=1&cursor=${plan.cursor === 'own' ? intentIds[0] : foreignIntent}`];
          const parts = [...cursor, ...(plan.query === null ? [] : [plan.query])];
          return { method: 'GET', path: `${INTENTS}${parts.length === 0 ? '' : `?${parts.join('&')}`}`, headers };
        },
        { baseUrl, runs: INTL_READ_RUNS },
      );
    });

    it('GET /receipts/:token and /receipts/:token/telex: odd tokens and paths are an HTML 404, never a 5xx', async () => {
      // The seeded payments' tokens, and those of the latest the fuzzing created, at whatever stage (some moved by forged callbacks).
      const { rows } = await stack.pg.query<{ receipt_token: string }>(
        `SELECT receipt_token FROM international_payment_intents ORDER BY created_at DESC LIMIT 40`,
      );
      const all = [...new Set([...tokens, ...rows.map((row) => row.receipt_token)])];
      // `real`: may name a payment (a near miss may be the token itself, percent-encoded); a random one never does.
      const token = fc.oneof(
        { arbitrary: fc.constantFrom(...all).map((text) => ({ text, real: true })), weight: 4 },
        {
          arbitrary: fc
            .constantFrom(...tokens)
            .chain(nearToken)
            .map((text) => ({ text, real: true })),
          weight: 3,
        },
        { arbitrary: receiptSegment.map((text) => ({ text, real: false })), weight: 3 },
      );
      await fuzz(
        'international: receipts',
        fc.record({
          token,
          page: receiptPage,
          query: fc.option(oddQuery, { freq: 6 }),
          auth: fc.constantFrom<Auth>('none', 'none', 'none', 'valid', 'unknown'),
        }),
        (plan) => ({ method: 'GET', path: `/receipts/${plan.token.text}${plan.page}${q(plan.query)}`, headers: keyFor(plan.auth, keys) }),
        {
          baseUrl,
          runs: INTL_READ_RUNS,
          check: (plan, res) => receiptViolation(res, isReceiptRoute(`/receipts/${plan.token.text}${plan.page}`), plan.token.real),
        },
      );
    });

    it('the money stays balanced whatever was sent: ledger:verify passes and the balance is what the international intents say', async () => {
      // One snapshot: the worker and the rails' callbacks may still be moving intents.
      const { rows } = await stack.pg.query<Record<string, string>>(
        `SELECT (SELECT COALESCE(sum(amount), 0) FROM payment_intents WHERE merchant_id = $1 AND status = 'succeeded') AS confirmed,
                (SELECT COALESCE(sum(source_amount), 0) FROM international_payment_intents WHERE merchant_id = $1 AND status <> 'rejected') AS paid,
                (SELECT COALESCE(sum(amount), 0) FROM collections WHERE merchant_id = $1 AND status = 'credited') AS collected,
                (SELECT COALESCE(sum(CASE WHEN status IN ('pending', 'processing') THEN source_amount ELSE fee END), 0)
                   FROM international_payment_intents WHERE merchant_id = $1 AND status NOT IN ('settled', 'rejected')) AS in_flight,
                (SELECT count(*) FROM international_payment_intents WHERE merchant_id = $1) AS intents,
                (SELECT count(*) FROM international_payment_intents WHERE merchant_id = $1 AND status = 'settled') AS settled,
                (SELECT count(*) FROM international_payment_intents WHERE merchant_id = $1 AND status = 'rejected') AS rejected,
                (SELECT balance FROM ledger_accounts WHERE merchant_id = $1 AND kind = 'available' AND currency = 'NGN') AS available,
                (SELECT balance FROM ledger_accounts WHERE merchant_id = $1 AND kind = 'reserved' AND currency = 'NGN') AS reserved`,
        [merchantId],
      );
      const money = Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
      // What signed forged callbacks did: events taken, intents they moved.
      const forged = await stack.pg.query<Record<string, string>>(
        `SELECT (SELECT count(*) FROM rail_events WHERE id LIKE 'evt_fuzz%') AS events,
                (SELECT count(*) FROM international_payment_intents WHERE payout_confirmation::text LIKE $1) AS telexes,
                (SELECT count(*) FROM international_payment_intents WHERE admin_note LIKE $1) AS rejected`,
        [`%${FORGED}%`],
      );
      console.log(
        `International money after fuzzing: ${JSON.stringify(money)} (kobo); ${pooled.size} quotes pooled, ${pool.length} left unused; forged callbacks: ${JSON.stringify(forged.rows[0])}`,
      );
      // Three were seeded: the fuzzing created more.
      expect(money.intents).toBeGreaterThan(3);
      expect(money.available).toBe(money.confirmed + money.collected - money.paid);
      // In flight: the whole source amount is reserved until the bridge leg starts, the fee alone after.
      expect(money.reserved).toBe(money.in_flight);
      expect(await ledgerVerify(stack)).toEqual({ code: 0, report: expect.objectContaining({ ok: true }) });
    });
  });

  describe('vault routes', () => {
    const VAULT_RUNS = Math.ceil(RUNS / 8);
    let stack: Stack;
    let keys: MerchantKeys;
    let own: string;
    let foreign: string;
    let foreignVaults: { evm: string; solana: string };

    beforeAll(async () => {
      // The local chains and a worker: deposits are credited, transfers that get through are sent.
      stack = await startStack({ name: 'fuzz-vault', chains: { blockIntervalMs: 500 }, worker: true, merchants: ['Vaulted', 'Other'] });
      keys = { own: stack.merchants[0].apiKey, other: stack.merchants[1].apiKey };
      own = (await createBusiness(stack.t, keys.own)).poboUserId;
      foreign = (await createBusiness(stack.t, keys.other)).poboUserId;
      // The KYB verdict set directly: what is fuzzed here is the vault, not onboarding.
      await stack.pg.query(`UPDATE pobo_businesses SET agreement_status = 'accepted', kyb_status = 'verified' WHERE id = $1`, [own]);
      const vault = (await http(stack.t.baseUrl, 'GET', `${USERS}/${foreign}/vault`, { apiKey: keys.other })).body.response;
      foreignVaults = { evm: vault.wallets[0].address, solana: vault.wallets[3].address };
      expect((await post(stack.t, keys.own, '/api/merchant/test-helpers/vault/deposits', { poboUserId: own, chain: 'base', amount: 100_000 })).status).toBe(
        202,
      );
      await eventually(
        async () => (await http(stack.t.baseUrl, 'GET', `${USERS}/${own}/vault`, { apiKey: keys.own })).body.response.balances[2].available,
        (available) => available === 100_000,
        30_000,
        200,
      );
    }, 120_000);

    afterAll(() => stack?.close());

    const vaultTarget = idTarget(internationalPathSegment);

    it('POST test-helpers/vault/deposits and /blacklist (test helpers, Idempotency-Key optional)', async () => {
      const bases = {
        deposits: { poboUserId: '', chain: 'base', amount: 12.5 },
        blacklist: { chain: 'solana', address: '' },
      };
      await fuzz(
        'vault: test helpers',
        fc.record({
          route: fc.constantFrom<'deposits' | 'blacklist'>('deposits', 'blacklist'),
          auth,
          target: vaultTarget,
          contentType,
          query,
          key: optionalBodyKey,
          chain: fc.constantFrom('ethereum', 'polygon', 'base', 'solana'),
          body: body({}),
        }),
        (plan) => {
          const base =
            plan.route === 'deposits'
              ? { ...bases.deposits, poboUserId: segmentFor(plan.target, [own], foreign), chain: plan.chain }
              : // Another business's vault: the one deposited to stays mintable (a blacklisted address cannot receive).
                { ...bases.blacklist, chain: plan.chain, address: plan.chain === 'solana' ? foreignVaults.solana : foreignVaults.evm };
          const bytes = bodyBytes(plan.body, base);
          return {
            method: 'POST',
            path: `/api/merchant/test-helpers/vault/${plan.route}${q(plan.query)}`,
            headers: { ...headersOf(plan.auth, plan.contentType, bytes, keys), ...keyHeader(plan.key) },
            body: bytes,
          };
        },
        { baseUrl: stack.t.baseUrl, runs: VAULT_RUNS },
      );
    });

    it('POST vault-transfers (Idempotency-Key required)', async () => {
      const recipients = { evm: '0x2f1A6b4d8c0e2F4A6b8C0d2E4F6A8B0C2d4e6f8A', solana: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU' };
      await fuzz(
        'vault: transfers',
        fc.record({
          auth,
          target: vaultTarget,
          contentType,
          query,
          key: keyPlan,
          chain: fc.constantFrom('base', 'base', 'base', 'solana', 'polygon'),
          amount: fc.option(fc.oneof(invalidAmount, fc.constantFrom('0.01', '1', '0.000001')), { freq: 2 }),
          body: body({}),
        }),
        (plan) => {
          const base = {
            poboUserId: segmentFor(plan.target, [own], foreign),
            chain: plan.chain,
            asset: 'USDC',
            amount: 0.01,
            toAddress: plan.chain === 'solana' ? recipients.solana : recipients.evm,
            merchantReference: 'fuzz',
          };
          const json = bodyBytes(plan.body, base);
          const bytes =
            plan.amount === null || json === undefined || plan.body.kind !== 'valid'
              ? json
              : Buffer.from(applyMutations(base, [{ op: 'replace', path: ['amount'], fragment: plan.amount }]));
          return {
            method: 'POST',
            path: `/api/merchant/vault-transfers${q(plan.query)}`,
            headers: { ...headersOf(plan.auth, plan.contentType, bytes, keys), ...keyHeader(plan.key) },
            body: bytes,
          };
        },
        { baseUrl: stack.t.baseUrl, runs: VAULT_RUNS },
      );
      const { rows } = await stack.pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM vault_transfers`);
      console.log(`Vault transfers the fuzzing created: ${rows[0].n}`);
    });

    it('GET vault, vault transactions and vault transfers: odd query strings, cursors and path ids', async () => {
      await fuzz(
        'vault: GET',
        fc.record({
          route: fc.constantFrom('vault', 'vault/transactions', 'transfers', 'transfer'),
          auth,
          target: vaultTarget,
          cursor: fc.constantFrom<'none' | 'odd'>('none', 'odd'),
          query: fc.option(moneyQuery, { freq: 3 }),
        }),
        (plan) => {
          const parts = [...(plan.cursor === 'odd' ? ['limit=1&cursor=vtx_000000000000000000000000'] : []), ...(plan.query === null ? [] : [plan.query])];
          const segment = segmentFor(plan.target, [own], foreign);
          const tail = parts.length === 0 ? '' : `?${parts.join('&')}`;
          const path =
            plan.route === 'transfers'
              ? `/api/merchant/vault-transfers${tail.replace('vtx_', 'vtr_')}`
              : plan.route === 'transfer'
                ? `/api/merchant/vault-transfers/${segment}${tail}`
                : `${USERS}/${segment}/${plan.route}${tail}`;
          return { method: 'GET', path, headers: keyFor(plan.auth, keys) };
        },
        { baseUrl: stack.t.baseUrl, runs: VAULT_RUNS },
      );
    });
  });
});
