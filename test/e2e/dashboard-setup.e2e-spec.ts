import Redis from 'ioredis';
import { spawnApi } from '../support/api-process';
import { startAppAtPublicUrl } from '../support/browser';
import { expectErrorBody } from '../support/contract';
import { DashboardClient, DashboardUser, PASSWORD, totpCode } from '../support/dashboard';
import { eventually, sleep } from '../support/poll';
import { startStack, Stack } from '../support/stack';
import { http, TEST_LIMITS } from '../support/test-app';

/** How long an API process may keep honouring a revoked key: set short here, so the test waits little. */
const KEY_CACHE_TTL_MS = 1_000;

/**
 * The Merchant Dashboard's setup journeys over real HTTP, with the worker mailing links to the
 * development SMTP server: e-mail verification, second factor, invitations and roles, password
 * reset, API keys and the audit log.
 */
describe('Dashboard setup endpoints', () => {
  let stack: Stack;
  let d: DashboardClient;

  beforeAll(async () => {
    stack = await startStack({ name: 'dashboard-setup', startApp: startAppAtPublicUrl, worker: true, env: { API_KEY_CACHE_TTL_MS: String(KEY_CACHE_TTL_MS) } });
    d = new DashboardClient(stack.t.baseUrl);
  });

  afterAll(() => stack?.close());

  const auditActions = async (owner: DashboardUser, query = '') =>
    ((await d.as(owner, 'GET', `/audit-log${query}`)).body.response as { action: string }[]).map((entry) => entry.action);

  it('signs up, verifies the e-mail from the inbox, turns on a second factor, and then asks for it at login; a recovery code works once', async () => {
    const owner = await d.signUp();
    const verification = await stack.inbox.linkIn(owner.email, /Confirm your e-mail/);
    expect(verification.link).toMatch(new RegExp(`^${stack.t.baseUrl}/dashboard/verify-email#token=[A-Za-z0-9_-]{43}$`));
    expect((await d.post('/verify-email', { token: verification.token })).body.response).toEqual({ done: true });
    expectErrorBody(await d.post('/verify-email', { token: verification.token }), 400, 'invalid_link');
    expect((await d.as(owner, 'GET', '/me')).body.response.user.emailVerified).toBe(true);

    const enrolment = (await d.as(owner, 'POST', '/two-factor')).body.response;
    expect(enrolment.otpauthUri).toMatch(/^otpauth:\/\/totp\/.+\?.*secret=[A-Z2-7]+/);
    expectErrorBody(await d.as(owner, 'POST', '/two-factor/confirm', { code: '000000' }), 401, 'invalid_two_factor_code');
    const confirmCode = await totpCode(enrolment.secret);
    const on = await d.as(owner, 'POST', '/two-factor/confirm', { code: confirmCode });
    expect(on.status).toBe(200);
    const recoveryCodes: string[] = on.body.response.recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    // The privilege changed: the session before it is over, the answer's is the one to use.
    expectErrorBody(await d.as(owner, 'GET', '/me'), 401, 'session_required');
    const afterEnrolment = d.signedIn(on, 200);
    expect((await d.as(afterEnrolment, 'GET', '/me')).body.response.user.twoFactorEnabled).toBe(true);
    const stored = await stack.pg.query('SELECT totp_secret FROM users WHERE id = $1', [owner.userId]);
    expect(stored.rows[0].totp_secret).not.toContain(enrolment.secret);
    const codes = await stack.pg.query('SELECT code_hash FROM recovery_codes WHERE user_id = $1', [owner.userId]);
    expect(codes.rows.map((row) => row.code_hash)).not.toContain(recoveryCodes[0]);

    expect((await d.as(afterEnrolment, 'POST', '/logout')).status).toBe(200);
    expectErrorBody(await d.post('/login', { email: owner.email, password: PASSWORD }), 401, 'two_factor_required');
    expectErrorBody(await d.post('/login', { email: owner.email, password: PASSWORD, code: confirmCode }), 401, 'invalid_two_factor_code');
    const withCode = await d.logIn(owner.email, { code: await totpCode(enrolment.secret, 1) });
    expect((await d.as(withCode, 'GET', '/me')).status).toBe(200);

    await d.logIn(owner.email, { code: recoveryCodes[0].toUpperCase() });
    expectErrorBody(await d.post('/login', { email: owner.email, password: PASSWORD, code: recoveryCodes[0] }), 401, 'invalid_two_factor_code');
    expectErrorBody(await d.post('/login', { email: owner.email, password: 'not the password at all', code: recoveryCodes[1] }), 401, 'invalid_credentials');

    const actions = await auditActions(withCode);
    expect(actions).toEqual(
      expect.arrayContaining([
        'user.signed_up',
        'user.email_verified',
        'two_factor.enabled',
        'user.logged_out',
        'user.logged_in',
        'two_factor.recovery_code_used',
        'user.login_failed',
      ]),
    );
    // Nothing secret reaches a log line or a job: not the password, the link's token, the TOTP
    // secret, a recovery code or the session's token.
    const logs = stack.t.logs.join('\n');
    for (const secret of [PASSWORD, verification.token, enrolment.secret, recoveryCodes[1], withCode.cookie.split('=')[1]]) expect(logs).not.toContain(secret);
    const redis = new Redis(stack.t.config.redisUrl);
    try {
      const jobKeys = await redis.keys(`${stack.env.QUEUE_PREFIX}:accounts:accounts.send-link.*`);
      expect(jobKeys.length).toBeGreaterThan(0);
      for (const key of jobKeys) expect(Object.keys(JSON.parse((await redis.hget(key, 'data'))!) as object)).toEqual(['tokenId']);
    } finally {
      redis.disconnect();
    }

    const failed = await d.as(withCode, 'GET', '/audit-log?action=user.login_failed');
    expect(failed.body.response.length).toBeGreaterThanOrEqual(2);
    expect(failed.body.response.every((entry: { action: string; ip: string }) => entry.action === 'user.login_failed' && entry.ip === '127.0.0.1')).toBe(true);
  });

  it('invites by e-mail; the invitee joins from the link with its role; a viewer writes nothing, a developer manages keys but not the team', async () => {
    const owner = await d.signUp();
    const viewerEmail = d.email('viewer');
    const developerEmail = d.email('developer');
    const invited = await d.as(owner, 'POST', '/members', { email: viewerEmail, role: 'viewer' });
    expect(invited.status).toBe(201);
    expect(invited.body.response).toMatchObject({ email: viewerEmail, role: 'viewer', invitedBy: owner.email, status: 'pending' });
    expect((await d.as(owner, 'POST', '/members', { email: developerEmail, role: 'developer' })).status).toBe(201);

    const viewerLink = await stack.inbox.linkIn(viewerEmail, /invited to Acme/);
    expect(viewerLink.message.text).toContain(`${owner.email} invites you to join Acme as viewer`);
    const viewer = d.signedIn(await d.post('/invitations/accept', { token: viewerLink.token, password: PASSWORD }), 201);
    expectErrorBody(await d.post('/invitations/accept', { token: viewerLink.token, password: PASSWORD }), 400, 'invalid_link');
    expect(viewer.merchantId).toBe(owner.merchantId);
    expect((await d.as(viewer, 'GET', '/me')).body.response.user).toMatchObject({ role: 'viewer', emailVerified: true });
    const developer = d.signedIn(
      await d.post('/invitations/accept', { token: (await stack.inbox.linkIn(developerEmail, /invited/)).token, password: PASSWORD }),
      201,
    );

    const key = (await d.as(owner, 'POST', '/api-keys', { name: 'Server' })).body.response;
    const writes: [string, string, unknown][] = [
      ['POST', '/api-keys', { name: 'Mine' }],
      ['POST', `/api-keys/${key.apiKeyId}/roll`, { expiresInHours: 1 }],
      ['DELETE', `/api-keys/${key.apiKeyId}`, undefined],
      ['POST', '/members', { email: d.email('x'), role: 'viewer' }],
      ['PATCH', `/members/${owner.userId}`, { role: 'viewer' }],
      ['DELETE', `/members/${owner.userId}`, undefined],
      ['DELETE', `/invitations/${invited.body.response.invitationId}`, undefined],
      ['PUT', '/team-settings', { requireTwoFactor: true }],
    ];
    for (const [method, path, body] of writes) expectErrorBody(await d.as(viewer, method, path, body), 403, 'role_forbidden');
    expectErrorBody(await d.as(viewer, 'GET', '/audit-log'), 403, 'role_forbidden');
    // Reads stay open to a viewer, and never show a secret.
    const keys = await d.as(viewer, 'GET', '/api-keys');
    expect(keys.status).toBe(200);
    expect(keys.text).not.toContain('mk_test_3');
    expect(keys.body.response.every((k: Record<string, unknown>) => !('apiKey' in k))).toBe(true);
    expect((await d.as(viewer, 'GET', '/members')).body.response.map((m: { email: string }) => m.email)).toEqual(
      expect.arrayContaining([owner.email, viewerEmail, developerEmail]),
    );

    for (const [method, path, body] of writes.slice(3)) expectErrorBody(await d.as(developer, method, path, body), 403, 'role_forbidden');
    const developerKey = await d.as(developer, 'POST', '/api-keys', { name: 'Developer key' });
    expect(developerKey.status).toBe(201);
    expect(developerKey.body.response.createdBy).toEqual({ userId: developer.userId, email: developerEmail });

    // A new role ends the member's sessions: the next one has the new rights.
    const promoted = await d.as(owner, 'PATCH', `/members/${viewer.userId}`, { role: 'developer' });
    expect(promoted.body.response).toMatchObject({ userId: viewer.userId, role: 'developer' });
    expectErrorBody(await d.as(viewer, 'GET', '/me'), 401, 'session_required');
    const again = await d.logIn(viewerEmail);
    expect((await d.as(again, 'POST', '/api-keys', { name: 'Now allowed' })).status).toBe(201);

    const removed = await d.as(owner, 'DELETE', `/members/${developer.userId}`);
    expect(removed.body.response).toEqual({ userId: developer.userId, removed: true });
    expectErrorBody(await d.as(developer, 'GET', '/me'), 401, 'session_required');
    expectErrorBody(await d.post('/login', { email: developerEmail, password: PASSWORD }), 401, 'invalid_credentials');
    expect(await auditActions(owner)).toEqual(expect.arrayContaining(['invitation.created', 'invitation.accepted', 'member.role_changed', 'member.removed']));
  });

  it('keeps the last owner: it can be neither demoted nor removed, while a second owner can', async () => {
    const owner = await d.signUp();
    expectErrorBody(await d.as(owner, 'PATCH', `/members/${owner.userId}`, { role: 'developer' }), 409, 'last_owner');
    expectErrorBody(await d.as(owner, 'DELETE', `/members/${owner.userId}`), 409, 'last_owner');
    const secondEmail = d.email('second');
    await d.as(owner, 'POST', '/members', { email: secondEmail, role: 'owner' });
    const second = d.signedIn(
      await d.post('/invitations/accept', { token: (await stack.inbox.linkIn(secondEmail, /invited/)).token, password: PASSWORD }),
      201,
    );
    // Both owners demote each other at once: one wins, the team keeps an owner.
    const [a, b] = await Promise.all([
      d.as(owner, 'PATCH', `/members/${second.userId}`, { role: 'viewer' }),
      d.as(second, 'PATCH', `/members/${owner.userId}`, { role: 'viewer' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const owners = await stack.pg.query("SELECT count(*)::int AS n FROM users WHERE merchant_id = $1 AND role = 'owner'", [owner.merchantId]);
    expect(owners.rows[0].n).toBe(1);
  });

  it('resets a password from the e-mailed link: once, ending every session; the answer never says whether the e-mail has an account', async () => {
    const user = await d.signUp();
    const other = await d.logIn(user.email);
    const known = await d.post('/password-reset', { email: user.email });
    const unknown = await d.post('/password-reset', { email: d.email('nobody') });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual({ ...known.body });
    const { token, link } = await stack.inbox.linkIn(user.email, /Reset your password/);
    expect(link).toContain('/dashboard/reset-password#token=');

    expectErrorBody(await d.post('/password-reset/confirm', { token, newPassword: 'short' }), 400, 'validation_failed');
    const reset = await d.post('/password-reset/confirm', { token, newPassword: 'a brand new passphrase' });
    expect(reset.body.response).toEqual({ done: true });
    expectErrorBody(await d.post('/password-reset/confirm', { token, newPassword: 'another new passphrase' }), 400, 'invalid_link');
    for (const session of [user, other]) expectErrorBody(await d.as(session, 'GET', '/me'), 401, 'session_required');
    expectErrorBody(await d.post('/login', { email: user.email, password: PASSWORD }), 401, 'invalid_credentials');
    expect((await d.logIn(user.email, {}, 'a brand new passphrase')).userId).toBe(user.userId);
  });

  it('creates a key whose secret shows once; it works on the merchant API; rolled with an hour both work; revoked, it stops within the cache TTL', async () => {
    const owner = await d.signUp();
    const created = await d.as(owner, 'POST', '/api-keys', { name: 'Production server' });
    expect(created.status).toBe(201);
    const key = created.body.response;
    expect(key).toMatchObject({ name: 'Production server', prefix: 'mk_test', status: 'active', createdBy: { userId: owner.userId, email: owner.email } });
    expect(key.apiKey.endsWith(key.lastFour)).toBe(true);
    const merchantCall = (apiKey: string) => http(stack.t.baseUrl, 'GET', '/api/merchant/pobo/users', { apiKey });
    expect((await merchantCall(key.apiKey)).status).toBe(200);

    const listed = (await d.as(owner, 'GET', '/api-keys')).body.response;
    expect(listed.find((k: { apiKeyId: string }) => k.apiKeyId === key.apiKeyId)).toMatchObject({ lastFour: key.lastFour, lastUsedAt: expect.any(String) });
    expect(JSON.stringify(listed)).not.toContain(key.apiKey);

    const rolled = await d.as(owner, 'POST', `/api-keys/${key.apiKeyId}/roll`, { expiresInHours: 1 });
    expect(rolled.status).toBe(201);
    expect(rolled.body.response).toMatchObject({ name: 'Production server', status: 'active' });
    expect((await merchantCall(key.apiKey)).status).toBe(200);
    expect((await merchantCall(rolled.body.response.apiKey)).status).toBe(200);
    const old = (await d.as(owner, 'GET', '/api-keys')).body.response.find((k: { apiKeyId: string }) => k.apiKeyId === key.apiKeyId);
    expect(old.status).toBe('expiring');
    expect(Date.parse(old.expiresAt) - Date.now()).toBeGreaterThan(59 * 60_000);
    expectErrorBody(await d.as(owner, 'POST', `/api-keys/${key.apiKeyId}/roll`, {}), 409, 'api_key_inactive');
    for (const hours of [-1, 169, 1.5, 'x']) {
      expectErrorBody(await d.as(owner, 'POST', `/api-keys/${rolled.body.response.apiKeyId}/roll`, { expiresInHours: hours }), 400, 'validation_failed');
    }

    const revoked = await d.as(owner, 'DELETE', `/api-keys/${key.apiKeyId}`);
    expect(revoked.body.response).toMatchObject({ apiKeyId: key.apiKeyId, status: 'revoked' });
    await sleep(KEY_CACHE_TTL_MS + 200);
    expectErrorBody(await merchantCall(key.apiKey), 401, 'unauthorized');
    expect((await merchantCall(rolled.body.response.apiKey)).status).toBe(200);

    // Rolled with 0 hours (the default), the old key stops at once.
    const next = await d.as(owner, 'POST', `/api-keys/${rolled.body.response.apiKeyId}/roll`);
    expect(next.status).toBe(201);
    await sleep(KEY_CACHE_TTL_MS + 200);
    expectErrorBody(await merchantCall(rolled.body.response.apiKey), 401, 'unauthorized');
    expect((await merchantCall(next.body.response.apiKey)).status).toBe(200);
    expect(await auditActions(owner, '?action=api_key.rolled')).toEqual(['api_key.rolled', 'api_key.rolled']);
    const audit = (await d.as(owner, 'GET', '/audit-log?action=api_key.created')).body.response[0];
    expect(audit).toMatchObject({ action: 'api_key.created', objectId: key.apiKeyId, user: { userId: owner.userId, email: owner.email }, ip: '127.0.0.1' });
    expect(JSON.stringify((await d.as(owner, 'GET', '/audit-log')).body)).not.toMatch(/mk_test_[1-9A-HJ-NP-Za-km-z]{20}/);
    expect(stack.t.logs.join('\n')).not.toContain(key.apiKey);
  });

  it("answers another merchant's key, member, invitation or audit entry as not found", async () => {
    const mine = await d.signUp();
    const theirs = await d.signUp(undefined, 'Other');
    const key = (await d.as(theirs, 'POST', '/api-keys', { name: 'Theirs' })).body.response;
    const invitation = (await d.as(theirs, 'POST', '/members', { email: d.email('x'), role: 'viewer' })).body.response;
    const entry = (await d.as(theirs, 'GET', '/audit-log')).body.response[0];
    expectErrorBody(await d.as(mine, 'POST', `/api-keys/${key.apiKeyId}/roll`, {}), 404, 'resource_not_found');
    expectErrorBody(await d.as(mine, 'DELETE', `/api-keys/${key.apiKeyId}`), 404, 'resource_not_found');
    expectErrorBody(await d.as(mine, 'PATCH', `/members/${theirs.userId}`, { role: 'viewer' }), 404, 'resource_not_found');
    expectErrorBody(await d.as(mine, 'DELETE', `/members/${theirs.userId}`), 404, 'resource_not_found');
    expectErrorBody(await d.as(mine, 'DELETE', `/invitations/${invitation.invitationId}`), 404, 'resource_not_found');
    expectErrorBody(await d.as(mine, 'GET', `/audit-log/${entry.auditEntryId}`), 404, 'resource_not_found');
    expect((await d.as(theirs, 'GET', `/audit-log/${entry.auditEntryId}`)).status).toBe(200);
    expect((await d.as(mine, 'GET', `/audit-log?userId=${theirs.userId}`)).body.response).toEqual([]);
    expectErrorBody(await d.as(mine, 'GET', `/audit-log?cursor=${entry.auditEntryId}`), 400, 'invalid_cursor');
    const myKeys = (await d.as(mine, 'GET', '/api-keys')).body.response;
    expect(myKeys.map((k: { apiKeyId: string }) => k.apiKeyId)).not.toContain(key.apiKeyId);
  });

  it('takes only sessions: an API key on a setup endpoint is 401 session_required, and every change needs the CSRF token', async () => {
    const owner = await d.signUp();
    const key = (await d.as(owner, 'POST', '/api-keys', { name: 'Server' })).body.response.apiKey;
    for (const path of ['/api-keys', '/members', '/audit-log', '/invitations', '/team-settings']) {
      expectErrorBody(await http(stack.t.baseUrl, 'GET', `/api/dashboard${path}`, { apiKey: key }), 401, 'session_required');
    }
    expectErrorBody(
      await http(stack.t.baseUrl, 'POST', '/api/dashboard/api-keys', { body: { name: 'x' }, headers: { cookie: owner.cookie } }),
      403,
      'csrf_failed',
    );
  });

  it('pages and filters the audit log with a Link header that keeps the filter', async () => {
    const owner = await d.signUp();
    for (let i = 0; i < 3; i++) await d.as(owner, 'POST', '/api-keys', { name: `Key ${i}` });
    const first = await d.as(owner, 'GET', '/audit-log?action=api_key.created&limit=2');
    expect(first.body.response).toHaveLength(2);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toContain('action=api_key.created');
    const second = await http(stack.t.baseUrl, 'GET', new URL(next!).pathname + new URL(next!).search, { headers: { cookie: owner.cookie } });
    expect(second.body.response).toHaveLength(1);
    expect(second.body.response[0].action).toBe('api_key.created');
    expect(second.headers.get('link')).toBeNull();
    expect((await d.as(owner, 'GET', `/audit-log?userId=${owner.userId}`)).body.response.length).toBe(4);
  });

  it('lets an owner require a second factor: a member without one can only enrol, then everything opens again', async () => {
    const owner = await d.signUp();
    expect((await d.as(owner, 'PUT', '/team-settings', { requireTwoFactor: true })).body.response).toEqual({ requireTwoFactor: true });
    expectErrorBody(await d.as(owner, 'GET', '/api-keys'), 403, 'two_factor_enrolment_required');
    expect((await d.as(owner, 'GET', '/me')).status).toBe(200);
    const { secret } = (await d.as(owner, 'POST', '/two-factor')).body.response;
    const on = d.signedIn(await d.as(owner, 'POST', '/two-factor/confirm', { code: await totpCode(secret) }), 200);
    expect((await d.as(on, 'GET', '/api-keys')).status).toBe(200);
    expectErrorBody(await d.as(on, 'DELETE', '/two-factor', { code: await totpCode(secret, 1) }), 409, 'two_factor_state_conflict');
  });

  it('ends a session on every API process at once: a process that cached it hears of the logout, a new role and the team settings through Redis', async () => {
    // A second API process that would trust a session it looked up for a minute, were it not told.
    const other = await spawnApi(stack.db.url, { ...stack.env, ...TEST_LIMITS, DASHBOARD_SESSION_CACHE_TTL_MS: '60000', PUBLIC_BASE_URL: stack.t.baseUrl });
    try {
      const onOther = (user: DashboardUser, path: string) => http(other.baseUrl, 'GET', `/api/dashboard${path}`, { headers: { cookie: user.cookie } });
      const owner = await d.signUp();
      const second = await d.logIn(owner.email);
      expect((await onOther(owner, '/me')).status).toBe(200);
      expect((await onOther(second, '/api-keys')).status).toBe(200);

      expect((await d.as(owner, 'POST', '/logout')).status).toBe(200);
      await eventually(
        async () => (await onOther(owner, '/me')).status,
        (status) => status === 401,
        2_000,
        20,
      );
      expectErrorBody(await onOther(owner, '/me'), 401, 'session_required');

      expect((await d.as(second, 'PUT', '/team-settings', { requireTwoFactor: true })).status).toBe(200);
      await eventually(
        async () => (await onOther(second, '/api-keys')).status,
        (status) => status === 403,
        2_000,
        20,
      );
      expectErrorBody(await onOther(second, '/api-keys'), 403, 'two_factor_enrolment_required');
    } finally {
      await other.kill();
    }
  });

  it('refuses a body missing any required field with 400 naming it', async () => {
    const owner = await d.signUp();
    const cases: [string, string, Record<string, unknown>][] = [
      ['POST', '/members', { email: d.email('x'), role: 'viewer' }],
      ['PATCH', `/members/${owner.userId}`, { role: 'owner' }],
      ['POST', '/api-keys', { name: 'Key' }],
      ['PUT', '/team-settings', { requireTwoFactor: false }],
      ['POST', '/two-factor/confirm', { code: '123456' }],
      ['DELETE', '/two-factor', { code: '123456' }],
    ];
    for (const [method, path, body] of cases) {
      for (const field of Object.keys(body)) {
        const { [field]: _left, ...rest } = body;
        const result = await d.as(owner, method, path, rest);
        expectErrorBody(result, 400, 'validation_failed');
        expect(result.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
      }
    }
    const publicCases: [string, Record<string, unknown>][] = [
      ['/password-reset', { email: 'a@b.example' }],
      ['/password-reset/confirm', { token: 'x', newPassword: 'a long enough passphrase' }],
      ['/verify-email', { token: 'x' }],
      ['/invitations/accept', { token: 'x', password: 'a long enough passphrase' }],
    ];
    for (const [path, body] of publicCases) {
      for (const field of Object.keys(body)) {
        const { [field]: _left, ...rest } = body;
        const result = await d.post(path, rest);
        expectErrorBody(result, 400, 'validation_failed');
        expect(result.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
      }
      expectErrorBody(await d.post(path), 400, 'validation_failed');
    }
  });
});
