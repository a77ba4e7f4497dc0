import { randomBytes } from 'node:crypto';
import { startAppAtPublicUrl } from '../support/browser';
import { expectErrorBody } from '../support/contract';
import { DashboardClient, PASSWORD, totpCode } from '../support/dashboard';
import { eventually, sleep } from '../support/poll';
import { startStack, Stack } from '../support/stack';
import { http } from '../support/test-app';

/** Failed logins (and wrong second-factor codes) an account may make in the window. */
const ACCOUNT_FAILURES = 5;
/** Failed authentications a client IP may make per second. */
const AUTH_FAILURES = 10;

/**
 * The dashboard's locks tried as an attacker would: guessed session cookies, second-factor codes
 * guessed where login is not the door, reset links kept after a new password, and secrets put
 * where they do not belong, which must never reach a log line.
 */
describe('Dashboard locks', () => {
  let stack: Stack;
  let d: DashboardClient;

  beforeAll(async () => {
    stack = await startStack({
      name: 'dashboard-locks',
      startApp: startAppAtPublicUrl,
      merchants: ['locks'],
      worker: true,
      env: { LOGIN_FAILURE_LIMIT_PER_ACCOUNT: String(ACCOUNT_FAILURES), AUTH_FAILURE_LIMIT_PER_SECOND: String(AUTH_FAILURES) },
    });
    d = new DashboardClient(stack.t.baseUrl);
  });

  afterAll(() => stack?.close());

  const guessedCookie = (name: string) => `${name}=${randomBytes(32).toString('base64url')}`;

  it('limits guessed session cookies per client address as it limits wrong API keys: 429 with Retry-After, a live session still served', async () => {
    const user = await d.signUp();
    const cookieName = user.cookie.split('=')[0];
    // Looked up once: the process keeps a live session it has seen (DASHBOARD_SESSION_CACHE_TTL_MS).
    expect((await d.as(user, 'GET', '/me')).status).toBe(200);
    await sleep(1_100);
    const answers = await Promise.all(
      Array.from({ length: AUTH_FAILURES * 3 }, () => http(stack.t.baseUrl, 'GET', '/api/dashboard/me', { headers: { cookie: guessedCookie(cookieName) } })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(AUTH_FAILURES);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(AUTH_FAILURES);
    expectErrorBody(limited[0], 429, 'rate_limited');
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // No cookie at all is a failed authentication too, and as limited.
    expect((await http(stack.t.baseUrl, 'GET', '/api/dashboard/me')).status).toBe(429);
    // The signed-in user's session, seen before, is served meanwhile.
    expect((await d.as(user, 'GET', '/me')).status).toBe(200);
    await sleep(1_100);
    expectErrorBody(await http(stack.t.baseUrl, 'GET', '/api/dashboard/me', { headers: { cookie: guessedCookie(cookieName) } }), 401, 'session_required');
  });

  it('counts wrong second-factor codes at DELETE /two-factor against the account, as login does: 429 then, even for the right code', async () => {
    const owner = await d.signUp();
    const { secret } = (await d.as(owner, 'POST', '/two-factor')).body.response;
    const on = d.signedIn(await d.as(owner, 'POST', '/two-factor/confirm', { code: await totpCode(secret) }), 200);
    for (let i = 0; i < ACCOUNT_FAILURES; i++) expectErrorBody(await d.as(on, 'DELETE', '/two-factor', { code: '000000' }), 401, 'invalid_two_factor_code');
    const locked = await d.as(on, 'DELETE', '/two-factor', { code: await totpCode(secret, 1) });
    expectErrorBody(locked, 429, 'rate_limited');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The same budget as login's: the account's next login is refused too, the right password notwithstanding.
    expectErrorBody(await d.post('/login', { email: on.email, password: PASSWORD, code: await totpCode(secret, 1) }), 429, 'rate_limited');
  });

  /** Asks for a reset link for the e-mail and answers the token of the one mailed (a link not seen before). */
  const resetLink = async (email: string): Promise<string> => {
    const tokensOf = async () =>
      (await stack.inbox.messagesTo(email)).filter((m) => /reset/i.test(m.subject)).map((m) => /#token=([A-Za-z0-9_-]+)/.exec(m.text)![1]);
    const before = new Set(await tokensOf());
    expect((await d.post('/password-reset', { email })).status).toBe(202);
    const after = await eventually(tokensOf, (tokens) => tokens.some((t) => !before.has(t)), 15_000, 100);
    return after.find((t) => !before.has(t))!;
  };

  it('voids every outstanding reset link once a reset completes or the password is changed', async () => {
    const user = await d.signUp();
    const older = await resetLink(user.email);
    const newer = await resetLink(user.email);
    expect((await d.post('/password-reset/confirm', { token: newer, newPassword: 'the first new passphrase' })).status).toBe(200);
    expectErrorBody(await d.post('/password-reset/confirm', { token: older, newPassword: 'the older link passphrase' }), 400, 'invalid_link');

    // A link mailed, then the password changed while signed in: the link is dead, and its password never signs in.
    const outstanding = await resetLink(user.email);
    const signedIn = await d.logIn(user.email, {}, 'the first new passphrase');
    expect((await d.as(signedIn, 'POST', '/password', { currentPassword: 'the first new passphrase', newPassword: 'the second new passphrase' })).status).toBe(
      200,
    );
    expectErrorBody(await d.post('/password-reset/confirm', { token: outstanding, newPassword: 'an attacker passphrase' }), 400, 'invalid_link');
    expectErrorBody(await d.post('/login', { email: user.email, password: 'an attacker passphrase' }), 401, 'invalid_credentials');
  });

  it('keys carry permissions: a developer makes only keys that cannot move money, and cannot roll or revoke one that can; each operation needs its permission', async () => {
    const owner = await d.signUp();
    const developerEmail = d.email('developer');
    expect((await d.as(owner, 'POST', '/members', { email: developerEmail, role: 'developer' })).status).toBe(201);
    const developer = d.signedIn(
      await d.post('/invitations/accept', { token: (await stack.inbox.linkIn(developerEmail, /invited/)).token, password: PASSWORD }),
      201,
    );

    // A developer's key: read and write by default, never move_money.
    const developerKey = await d.as(developer, 'POST', '/api-keys', { name: 'Developer key' });
    expect(developerKey.status).toBe(201);
    expect(developerKey.body.response.permissions).toEqual(['read', 'write']);
    expectErrorBody(await d.as(developer, 'POST', '/api-keys', { name: 'Mover', permissions: ['read', 'move_money'] }), 403, 'role_forbidden');
    const ownerKey = await d.as(owner, 'POST', '/api-keys', { name: 'Owner key' });
    expect(ownerKey.body.response.permissions).toEqual(['read', 'write', 'move_money']);
    expectErrorBody(await d.as(developer, 'POST', `/api-keys/${ownerKey.body.response.apiKeyId}/roll`, { expiresInHours: 0 }), 403, 'role_forbidden');
    expectErrorBody(await d.as(developer, 'DELETE', `/api-keys/${ownerKey.body.response.apiKeyId}`), 403, 'role_forbidden');
    // Its own key it rolls, and the successor keeps the permissions.
    const rolled = await d.as(developer, 'POST', `/api-keys/${developerKey.body.response.apiKeyId}/roll`, { expiresInHours: 0 });
    expect(rolled.status).toBe(201);
    expect(rolled.body.response.permissions).toEqual(['read', 'write']);

    const asKey = (key: string, method: string, path: string, body?: unknown) =>
      http(stack.t.baseUrl, method, path, { apiKey: key, body, headers: method === 'GET' ? {} : { 'idempotency-key': randomBytes(12).toString('hex') } });
    const writer = rolled.body.response.apiKey;
    expect((await asKey(writer, 'GET', '/api/merchant/balance')).status).toBe(200);
    const business = await asKey(writer, 'POST', '/api/merchant/pobo/users', {
      businessName: 'Permitted Ltd',
      email: 'ops@permitted.example',
      phoneNumber: '+2348012345678',
      country: 'NG',
    });
    expect(business.status).toBe(201);
    const poboUserId = business.body.response.poboUserId;
    // Every money-moving operation, refused before its body is even read (no body here is valid).
    for (const path of [
      '/api/merchant/withdrawals',
      '/api/merchant/vault-transfers',
      '/api/merchant/international-payment-intents',
      '/api/merchant/payment-intents/pi_000000000000000000000000/confirm',
    ]) {
      expectErrorBody(await asKey(writer, 'POST', path, {}), 403, 'permission_denied');
    }
    // The owner's key moves money (refused for what it is, not for its permissions).
    expectErrorBody(await asKey(ownerKey.body.response.apiKey, 'POST', '/api/merchant/vault-transfers', { poboUserId }), 400, 'validation_failed');

    // A read-only key reads and writes nothing.
    const reader = await d.as(owner, 'POST', '/api-keys', { name: 'Reporting', permissions: ['read'] });
    expect(reader.body.response.permissions).toEqual(['read']);
    expect((await asKey(reader.body.response.apiKey, 'GET', `/api/merchant/pobo/users/${poboUserId}`)).status).toBe(200);
    expectErrorBody(await asKey(reader.body.response.apiKey, 'POST', '/api/merchant/pobo/users', {}), 403, 'permission_denied');
    const writeOnly = await d.as(owner, 'POST', '/api-keys', { name: 'Ingest', permissions: ['write'] });
    expectErrorBody(await asKey(writeOnly.body.response.apiKey, 'GET', '/api/merchant/balance'), 403, 'permission_denied');

    for (const permissions of [[], ['admin'], 'read', ['read', 'read', 'write', 'move_money']]) {
      expectErrorBody(await d.as(owner, 'POST', '/api-keys', { name: 'Bad', permissions }), 400, 'validation_failed');
    }
    // The list shows each key's permissions.
    const listed = (await d.as(developer, 'GET', '/api-keys')).body.response as { name: string; permissions: string[] }[];
    expect(Object.fromEntries(listed.map((key) => [key.name, key.permissions]))).toMatchObject({
      'Owner key': ['read', 'write', 'move_money'],
      'Developer key': ['read', 'write'],
      Reporting: ['read'],
      Ingest: ['write'],
    });
  });

  it('never logs a credential wherever a client puts it: a query, a path, a header of any name, a failed request’s CSRF token', async () => {
    await sleep(1_100);
    const user = await d.signUp();
    const session = user.cookie.split('=')[1];
    const apiKey = stack.merchants[0].apiKey;
    const keyBody = apiKey.replace(/^mk_(test|live)_/, '');
    const resetToken = await resetLink(user.email);
    const secrets = { session, apiKey, keyBody, csrf: user.csrf, resetToken };

    for (const secret of Object.values(secrets)) {
      for (const path of [
        `/api/dashboard/me?session=${secret}`,
        `/api/dashboard/${secret}`,
        `/api/merchant/balance?k=${secret}`,
        `/api/merchant/pobo/users/${secret}`,
      ]) {
        await http(stack.t.baseUrl, 'GET', path, { headers: { 'x-api-key': 'mk_test_wrong' } });
        await http(stack.t.baseUrl, 'GET', path);
      }
      await http(stack.t.baseUrl, 'GET', '/api/merchant/balance', {
        headers: { 'x-session-token': secret, 'x-forwarded-for': `10.0.0.1, ${secret}`, 'x-note': secret },
      });
    }
    // The CSRF token on a refused change (another origin), and a wrong one on a failed request.
    await http(stack.t.baseUrl, 'POST', '/api/dashboard/logout', {
      headers: { cookie: user.cookie, 'x-csrf-token': user.csrf, origin: 'https://evil.example' },
    });
    await http(stack.t.baseUrl, 'POST', '/api/dashboard/logout', { headers: { cookie: user.cookie, 'x-csrf-token': `${user.csrf}x` } });

    const logs = stack.t.logs.join('\n');
    expect(logs).toContain('/api/dashboard/me?session=');
    for (const [kind, secret] of Object.entries(secrets)) expect({ kind, logged: logs.includes(secret) }).toEqual({ kind, logged: false });
  });
});
