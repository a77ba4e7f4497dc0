import fc from 'fast-check';
import { Client } from 'pg';
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
} from './support/fuzz';
import { acceptAgreementDirectly, harborApplication, kybApplication } from './support/kyb-fixtures';
import { createBusiness, http, startTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

/**
 * Property-based fuzzing over real HTTP: every route that takes a body, and the GET routes'
 * query strings and path parameters, get thousands of hostile requests (valid bodies with
 * fields replaced by arbitrary JSON, NUL, lone surrogates, huge numbers, deep nesting, arrays
 * for objects and objects for strings; raw garbage; odd content types, queries and paths).
 * Whatever the request, the answer is never a 5xx, always carries `X-Request-Id`, and a refusal
 * is the contract's error body with that id. FUZZ_RUNS scales the runs per route (seed:
 * FUZZ_SEED, to replay a failure).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const USERS = '/api/merchant/pobo/users';
const CONCURRENCY = 8;

type Auth = 'valid' | 'none' | 'unknown' | 'bearer' | 'other-merchant';
type Target = { kind: 'own' } | { kind: 'foreign' } | { kind: 'raw'; segment: string };
type Body = { kind: 'mutated'; mutations: Mutation[] } | { kind: 'valid' } | { kind: 'garbage'; bytes: Buffer } | { kind: 'none' };

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
  let db: TestDatabase;
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
    db = await createTestDatabase();
    t = await startTestApp(db.url);
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    apiKey = (await t.createMerchant('Fuzzed')).apiKey;
    otherKey = (await t.createMerchant('Other')).apiKey;
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
    const lines = Object.entries(sent).map(([route, s]) => `${route}: ${s.requests} requests in ${(s.ms / 1000).toFixed(1)} s, by status ${JSON.stringify(s.statuses)}`);
    console.log(`Fuzzed ${total} requests\n${lines.join('\n')}`);
    await pg?.end();
    await t?.close();
    await db?.drop();
  });

  async function newPageBusiness(): Promise<void> {
    const { agreement } = await createBusiness(t, apiKey);
    pageToken = new URL(agreement.url).pathname.split('/').pop()!;
  }

  const keyFor = (a: Auth): Record<string, string> =>
    ({
      valid: { 'x-api-key': apiKey },
      none: {},
      unknown: { 'x-api-key': 'mk_test_2NEpo7TZRRrLZSi2U' },
      bearer: { authorization: `Bearer ${apiKey}` },
      'other-merchant': { 'x-api-key': otherKey },
    })[a];

  const segmentOf = (target: Target, own: string) => (target.kind === 'own' ? own : target.kind === 'foreign' ? foreignBusiness : target.segment);

  /**
   * Sends `runs` requests built from generated plans, CONCURRENCY at a time, and checks that each
   * answer keeps the contract. The agreement page answers people: its refusals may be its HTML
   * pages. `after` restores state a request that got through changed.
   */
  async function fuzz<T>(route: string, plans: fc.Arbitrary<T>, toRequest: (plan: T) => RawRequest, after?: (res: RawResponse) => Promise<void>, runs = RUNS) {
    const stats = (sent[route] ??= { requests: 0, ms: 0, statuses: {} });
    const started = Date.now();
    const one = async (plan: T) => {
      const req = toRequest(plan);
      const res = await send(t.baseUrl, req);
      stats.requests++;
      stats.statuses[res.status] = (stats.statuses[res.status] ?? 0) + 1;
      const html = req.path.startsWith('/agreements/');
      const violation = contractViolation(res, { html });
      if (violation) throw new Error(`${req.method} ${req.path} (${req.headers['content-type'] ?? 'no content type'}) → ${violation}`);
      if (!html && res.status < 300 && Object.keys(JSON.parse(res.text) as object).sort().join() !== 'message,response') {
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

  const headersOf = (a: Auth, type: string | null, bytes: Buffer | undefined): Record<string, string> => ({
    ...keyFor(a),
    ...(type !== null && (bytes !== undefined || type !== 'application/json') ? { 'content-type': type } : {}),
  });

  it('POST /api/merchant/pobo/users (create)', async () => {
    const base = { businessName: 'Acme Trading Ltd', email: 'finance@acme.example', phoneNumber: '+2348012345678', country: 'NG', allowNairaCollection: true };
    await fuzz('create', fc.record({ auth, contentType, query, body: body(base) }), (plan) => {
      const bytes = bodyBytes(plan.body, base);
      return { method: 'POST', path: `${USERS}${plan.query === null ? '' : `?${plan.query}`}`, headers: headersOf(plan.auth, plan.contentType, bytes), body: bytes };
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
      async (res) => {
        // An application that got through: make the business submittable again for the next run.
        if (res.status === 202) await pg.query(`UPDATE pobo_businesses SET kyb_status = 'not_started' WHERE id = $1`, [kybBusiness]);
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
      async (res) => {
        // A correction that got through: back to action_required, its application the one to correct next.
        if (res.status === 202) await pg.query(`UPDATE pobo_businesses SET kyb_status = 'action_required' WHERE id = $1`, [correctionBusiness]);
      },
    );
  });

  it('POST /agreements/:token (the agreement page form)', async () => {
    const page = fc.record({
      token: fc.oneof({ arbitrary: fc.constant<string | null>(null), weight: 6 }, { arbitrary: oddPathSegment, weight: 2 }),
      cookie: fc.constantFrom<'valid' | 'none' | 'garbage'>('valid', 'valid', 'valid', 'none', 'garbage'),
      contentType: fc.oneof({ arbitrary: fc.constant<string | null>('application/x-www-form-urlencoded'), weight: 6 }, { arbitrary: oddContentType, weight: 2 }),
      body: fc.oneof(
        { arbitrary: formPlan.map((form) => ({ kind: 'form' as const, form })), weight: 6 },
        { arbitrary: fc.array(mutationOf({ csrf_token: 'c', terms_version: TERMS_VERSION }), { minLength: 1, maxLength: 2 }).map((mutations) => ({ kind: 'json' as const, mutations })), weight: 1 },
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
        return { method: 'POST', path: `/agreements/${token}`, headers: { ...cookie, ...(plan.contentType === null ? {} : { 'content-type': plan.contentType }) }, body: bytes };
      },
      async (res) => {
        // Accepted (the fuzzer sent the form as the page would): continue with a fresh business.
        if (res.status === 200) await newPageBusiness();
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
      undefined,
      Math.ceil(RUNS / 2),
    );
  });
});
