import { startAppAtPublicUrl } from '../support/browser';
import { expectErrorBody } from '../support/contract';
import { startStack, Stack } from '../support/stack';
import { http, HttpResult, sessionCookieOf } from '../support/test-app';

const DASHBOARD = '/api/dashboard';
const PASSWORD = 'correct horse battery staple';
/** Failed logins an e-mail may make in the window; above the timing test's tries, so none of those is a 429. */
const ACCOUNT_FAILURES = 6;

/** Merchant Dashboard accounts over real HTTP: sign-up, login, sessions, CSRF, limits. */
describe('Dashboard accounts and sessions', () => {
  let stack: Stack;
  let base: string;
  let n = 0;

  beforeAll(async () => {
    stack = await startStack({ name: 'dashboard', startApp: startAppAtPublicUrl, env: { LOGIN_FAILURE_LIMIT_PER_ACCOUNT: String(ACCOUNT_FAILURES) } });
    base = stack.t.baseUrl;
  });

  afterAll(() => stack?.close());

  const email = () => `user${++n}-${process.pid}@acme.example`;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => http(base, 'POST', `${DASHBOARD}${path}`, { body, headers });
  const get = (path: string, headers: Record<string, string> = {}) => http(base, 'GET', `${DASHBOARD}${path}`, { headers });

  async function signUp(address = email()): Promise<{ cookie: string; csrf: string; email: string; result: HttpResult }> {
    const result = await post('/signup', { email: address, password: PASSWORD, merchantName: 'Acme' });
    expect(result.status).toBe(201);
    return { cookie: sessionCookieOf(result)!, csrf: result.body.response.csrfToken, email: address, result };
  }

  async function logIn(address: string, headers: Record<string, string> = {}): Promise<{ cookie: string; csrf: string }> {
    const result = await post('/login', { email: address, password: PASSWORD }, headers);
    expect(result.status).toBe(200);
    return { cookie: sessionCookieOf(result)!, csrf: result.body.response.csrfToken };
  }

  it('signs up a merchant and its owner, signed in with an HttpOnly SameSite=Lax cookie; the password kept only as argon2id', async () => {
    const { result, cookie, email: address } = await signUp();
    expect(result.body).toEqual({
      message: 'Signed up',
      response: {
        user: { userId: expect.stringMatching(/^usr_[0-9a-f]{24}$/), email: address, role: 'owner', emailVerified: false, twoFactorEnabled: false },
        merchant: { merchantId: expect.stringMatching(/^mer_[0-9a-f]{24}$/), name: 'Acme', mode: 'test' },
        csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      },
    });
    const [setCookie, marker] = result.headers.getSetCookie();
    expect(setCookie).toMatch(/^dashboard_session=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    // Beside it, what the dashboard's script may read: that a session exists, nothing of it.
    expect(marker).toMatch(/^dashboard_signed_in=1; Max-Age=43200; Path=\/; SameSite=Lax$/);
    const [user] = (await stack.pg.query('SELECT password_hash FROM users WHERE email = $1', [address])).rows;
    expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(JSON.stringify(await stack.pg.query('SELECT * FROM users'))).not.toContain(PASSWORD);
    const token = cookie.split('=')[1];
    expect((await stack.pg.query('SELECT count(*)::int AS n FROM dashboard_sessions WHERE token_hash = $1', [token])).rows[0].n).toBe(0);
    expect(stack.t.logs.join('\n')).not.toContain(PASSWORD);

    expectErrorBody(await post('/signup', { email: address.toUpperCase(), password: PASSWORD, merchantName: 'Again' }), 409, 'email_taken');
  });

  it('says who is signed in to the session, and to nothing else: no session, an API key, or a session on the merchant API', async () => {
    const { cookie, csrf } = await signUp();
    const me = await get('/me', { cookie });
    expect(me.status).toBe(200);
    expect(me.body.response.csrfToken).toBe(csrf);
    expectErrorBody(await get('/me'), 401, 'session_required');
    expectErrorBody(await get('/me', { cookie: 'dashboard_session=forged' }), 401, 'session_required');
    const { apiKey } = await stack.t.createMerchant('Keyed');
    expectErrorBody(await get('/me', { 'x-api-key': apiKey }), 401, 'session_required');
    expectErrorBody(await get('/me', { cookie, 'x-api-key': apiKey }), 401, 'session_required');
    expectErrorBody(await http(base, 'GET', '/api/merchant/pobo/users', { headers: { cookie } }), 401, 'unauthorized');
  });

  it("refuses a change without the session CSRF token, with another session's, or from another origin; logout ends the session", async () => {
    const { cookie, csrf } = await signUp();
    const other = await signUp();
    expectErrorBody(await post('/logout', undefined, { cookie }), 403, 'csrf_failed');
    expectErrorBody(await post('/logout', undefined, { cookie, 'x-csrf-token': other.csrf }), 403, 'csrf_failed');
    expectErrorBody(await post('/logout', undefined, { cookie, 'x-csrf-token': csrf, origin: 'https://evil.example' }), 403, 'csrf_failed');
    expect((await get('/me', { cookie })).status).toBe(200);

    const out = await post('/logout', undefined, { cookie, 'x-csrf-token': csrf, origin: new URL(base).origin });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^dashboard_session=;.*Max-Age=0/),
      expect.stringMatching(/^dashboard_signed_in=;.*Max-Age=0/),
    ]);
    expectErrorBody(await get('/me', { cookie }), 401, 'session_required');
    // Sign-up and login from another site's form are refused too.
    expectErrorBody(await post('/login', { email: other.email, password: PASSWORD }, { origin: 'https://evil.example' }), 403, 'csrf_failed');
  });

  it("gives a new token at every login, never the one the client brought, and ends any of the user's sessions", async () => {
    const { email: address } = await signUp();
    const planted = 'dashboard_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const first = await logIn(address, { cookie: planted });
    expect(first.cookie).not.toBe(planted);
    expectErrorBody(await get('/me', { cookie: planted }), 401, 'session_required');
    const second = await logIn(address);
    expect(second.cookie).not.toBe(first.cookie);

    const sessions = await get('/sessions', { cookie: second.cookie });
    expect(sessions.body.response).toHaveLength(3);
    const current = sessions.body.response.filter((s: { current: boolean }) => s.current);
    expect(current).toHaveLength(1);
    const firstId = sessions.body.response[1].sessionId;
    const ended = await http(base, 'DELETE', `${DASHBOARD}/sessions/${firstId}`, { headers: { cookie: second.cookie, 'x-csrf-token': second.csrf } });
    expect(ended.body.response).toEqual({ sessionId: firstId, ended: true });
    expectErrorBody(await get('/me', { cookie: first.cookie }), 401, 'session_required');
    expect((await get('/me', { cookie: second.cookie })).status).toBe(200);
    expectErrorBody(
      await http(base, 'DELETE', `${DASHBOARD}/sessions/${firstId}`, { headers: { cookie: second.cookie, 'x-csrf-token': second.csrf } }),
      404,
      'resource_not_found',
    );
    for (const odd of ['%00', 'ses_zz', 'pobo_000000000000000000000000']) {
      expectErrorBody(
        await http(base, 'DELETE', `${DASHBOARD}/sessions/${odd}`, { headers: { cookie: second.cookie, 'x-csrf-token': second.csrf } }),
        404,
        'resource_not_found',
      );
    }
  });

  it('changes the password only with the current one, ending every session of the user and beginning a new one', async () => {
    const { cookie, csrf, email: address } = await signUp();
    const elsewhere = await logIn(address);
    const change = (body: unknown, headers: Record<string, string> = { cookie, 'x-csrf-token': csrf }) => post('/password', body, headers);
    const NEW_PASSWORD = 'a longer and newer passphrase';

    expectErrorBody(await change({ currentPassword: 'not the password at all', newPassword: NEW_PASSWORD }), 401, 'invalid_credentials');
    const short = await change({ currentPassword: PASSWORD, newPassword: 'too short' });
    expectErrorBody(short, 400, 'validation_failed');
    expect(short.body.error.details.map((d: { field: string }) => d.field)).toEqual(['newPassword']);
    expectErrorBody(await change({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, { cookie }), 403, 'csrf_failed');
    for (const [field, body] of [
      ['currentPassword', { newPassword: NEW_PASSWORD }],
      ['newPassword', { currentPassword: PASSWORD }],
    ] as const) {
      const missing = await change(body);
      expectErrorBody(missing, 400, 'validation_failed');
      expect(missing.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }

    const changed = await change({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(changed.status).toBe(200);
    expect(changed.body.message).toBe('Password changed');
    const renewed = sessionCookieOf(changed)!;
    expect(renewed).not.toBe(cookie);
    expectErrorBody(await get('/me', { cookie }), 401, 'session_required');
    expectErrorBody(await get('/me', { cookie: elsewhere.cookie }), 401, 'session_required');
    expect((await get('/me', { cookie: renewed })).body.response.csrfToken).toBe(changed.body.response.csrfToken);
    expectErrorBody(await post('/login', { email: address, password: PASSWORD }), 401, 'invalid_credentials');
    expect((await post('/login', { email: address, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('ends a session 30 minutes after its last use and 12 hours after it began', async () => {
    const idle = await signUp();
    await stack.pg.query(`UPDATE dashboard_sessions s SET last_seen_at = now() - interval '31 minutes' FROM users u WHERE u.id = s.user_id AND u.email = $1`, [
      idle.email,
    ]);
    expectErrorBody(await get('/me', { cookie: idle.cookie }), 401, 'session_required');
    const old = await signUp();
    await stack.pg.query(`UPDATE dashboard_sessions s SET expires_at = now() - interval '1 second' FROM users u WHERE u.id = s.user_id AND u.email = $1`, [
      old.email,
    ]);
    expectErrorBody(await get('/me', { cookie: old.cookie }), 401, 'session_required');
  });

  it('answers a wrong password and an unknown e-mail alike, in status, body and time', async () => {
    const { email: address } = await signUp();
    const wrong = await post('/login', { email: address, password: 'not the password at all' });
    const unknown = await post('/login', { email: `nobody-${n}@acme.example`, password: 'not the password at all' });
    expectErrorBody(wrong, 401, 'invalid_credentials');
    expectErrorBody(unknown, 401, 'invalid_credentials');
    expect({ ...wrong.body, requestId: undefined }).toEqual({ ...unknown.body, requestId: undefined });

    // Both do one argon2id verification: the medians of a few tries are close.
    const median = async (address2: string) => {
      const times: number[] = [];
      for (let i = 0; i < ACCOUNT_FAILURES - 1; i++) {
        const started = performance.now();
        expect((await post('/login', { email: address2, password: `wrong password ${i}` })).status).toBe(401);
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
    };
    // Fresh addresses, each staying under the per-account limit.
    const known = (await signUp()).email;
    const [knownMs, unknownMs] = [await median(known), await median(`ghost-${n}@acme.example`)];
    expect(knownMs / unknownMs).toBeGreaterThan(0.5);
    expect(knownMs / unknownMs).toBeLessThan(2);
  });

  it("stops guessing with 429 and Retry-After after the account's failures, for known and unknown e-mails alike", async () => {
    for (const address of [(await signUp()).email, `unknown-${n}@acme.example`]) {
      for (let i = 0; i < ACCOUNT_FAILURES; i++)
        expectErrorBody(await post('/login', { email: address, password: 'guess guess guess' }), 401, 'invalid_credentials');
      const locked = await post('/login', { email: address, password: PASSWORD });
      expectErrorBody(locked, 429, 'rate_limited');
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('answers a password-reset request alike for a known and an unknown e-mail, in status, body and time', async () => {
    const known = (await signUp()).email;
    const ghost = `ghost-reset-${n}@acme.example`;
    const times: Record<string, number[]> = { [known]: [], [ghost]: [] };
    const bodies: unknown[] = [];
    // Interleaved, so a slow moment of the machine falls on both; each address under its limit.
    for (let i = 0; i < ACCOUNT_FAILURES - 1; i++) {
      for (const address of [known, ghost]) {
        const started = performance.now();
        const result = await post('/password-reset', { email: address });
        times[address].push(performance.now() - started);
        expect(result.status).toBe(202);
        bodies.push(result.body);
      }
    }
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    // The same work either way (a link row and its outbox entry), so the medians differ by noise alone.
    expect(Math.abs(median(times[known]) - median(times[ghost]))).toBeLessThan(Math.max(5, median(times[ghost])));
    const links = await stack.pg.query(
      "SELECT count(*)::int AS n, count(user_id)::int AS users FROM account_tokens WHERE email = ANY($1) AND purpose = 'reset_password'",
      [[known, ghost]],
    );
    expect(links.rows[0]).toEqual({ n: 2 * (ACCOUNT_FAILURES - 1), users: ACCOUNT_FAILURES - 1 });
  });

  it('limits password-reset requests per e-mail with 429 and Retry-After, registered or not', async () => {
    for (const address of [(await signUp()).email, `unknown-reset-${n}@acme.example`]) {
      for (let i = 0; i < ACCOUNT_FAILURES; i++) expect((await post('/password-reset', { email: address })).status).toBe(202);
      const limited = await post('/password-reset', { email: address });
      expectErrorBody(limited, 429, 'rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('refuses a sign-up or login missing a field, or with a password outside 12 to 256 characters, with 400 naming it', async () => {
    const full = { email: email(), password: PASSWORD, merchantName: 'Acme' };
    for (const field of ['email', 'password', 'merchantName'] as const) {
      const { [field]: _left, ...rest } = full;
      const result = await post('/signup', rest);
      expectErrorBody(result, 400, 'validation_failed');
      expect(result.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    for (const password of ['a'.repeat(11), 'a'.repeat(257)]) {
      const result = await post('/signup', { ...full, password });
      expectErrorBody(result, 400, 'validation_failed');
      expect(result.body.error.details.map((d: { field: string }) => d.field)).toEqual(['password']);
    }
    for (const field of ['email', 'password'] as const) {
      const { [field]: _left, ...rest } = { email: full.email, password: PASSWORD };
      const result = await post('/login', rest);
      expectErrorBody(result, 400, 'validation_failed');
      expect(result.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await stack.pg.query('SELECT count(*)::int AS n FROM users WHERE email = $1', [full.email])).rows[0].n).toBe(0);
  });
});
