import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Pool } from 'pg';
import { PG_POOL } from '../../src/common/persistence/pg-pool';
import { REDACTION_MARKER } from '../../src/common/logging/logger.options';
import { MerchantsService } from '../../src/modules/auth/merchants.service';
import { expectErrorBody } from '../support/contract';
import { eventually } from '../support/poll';
import { http, TestApp } from '../support/test-app';
import { startStack, Stack } from '../support/stack';

const CACHE_TTL_MS = 400;

describe('Merchant authentication', () => {
  let stack: Stack;
  let t: TestApp;
  let pg: Client;

  beforeAll(async () => {
    stack = await startStack({ name: 'auth', env: { API_KEY_CACHE_TTL_MS: String(CACHE_TTL_MS) } });
    ({ t, pg } = stack);
  });

  afterAll(async () => {
    await stack?.close();
  });

  const list = (headers: Record<string, string>) => http(t.baseUrl, 'GET', '/api/merchant/pobo/users', { headers });

  it('accepts the key in x-api-key and as a Bearer token', async () => {
    const { apiKey } = await t.createMerchant();
    expect((await list({ 'x-api-key': apiKey })).status).toBe(200);
    expect((await list({ authorization: `Bearer ${apiKey}` })).status).toBe(200);
    expect((await list({ authorization: `bearer ${apiKey}` })).status).toBe(200);
  });

  it('accepts both headers carrying the same key (as generated clients send them) and names two different keys', async () => {
    const a = await t.createMerchant();
    const b = await t.createMerchant();
    const both = await list({ 'x-api-key': a.apiKey, authorization: `Bearer ${a.apiKey}` });
    expect(both.status).toBe(200);
    for (const other of [b.apiKey, 'not-a-key']) {
      const conflicting = await list({ 'x-api-key': a.apiKey, authorization: `Bearer ${other}` });
      expectErrorBody(conflicting, 401, 'conflicting_credentials');
      expect(conflicting.body.message).toMatch(/different keys/);
      expect(conflicting.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('answers every kind of failure with the same 401 body', async () => {
    const { apiKey, apiKeyId } = await t.createMerchant();
    const revoked = await t.createMerchant();
    await t.app.get(MerchantsService).revokeKey(revoked.apiKeyId);
    const lastChar = apiKey.at(-1) === 'a' ? 'b' : 'a';
    const attempts = {
      missing: {},
      empty: { 'x-api-key': '' },
      malformed: { 'x-api-key': 'hello' },
      mistyped: { 'x-api-key': `${apiKey.slice(0, -1)}${lastChar}` },
      otherPrefix: { 'x-api-key': apiKey.replace('mk_test_', 'mk_live_') },
      basicScheme: { authorization: `Basic ${apiKey}` },
      revoked: { 'x-api-key': revoked.apiKey },
      keyId: { 'x-api-key': apiKeyId },
    };
    const bodies = new Set<string>();
    for (const headers of Object.values(attempts)) {
      const result = await list(headers);
      expectErrorBody(result, 401, 'unauthorized');
      bodies.add(JSON.stringify({ ...result.body, requestId: undefined }));
    }
    expect(bodies.size).toBe(1);
  });

  /** Observes (without changing) the SQL the app sends through its pool. */
  function watchQueries(): { count(pattern: RegExp): number; stop(): void } {
    const pool = t.app.get<Pool>(PG_POOL);
    const spy = jest.spyOn(pool, 'query');
    return {
      count: (pattern) => spy.mock.calls.filter(([query]) => pattern.test(typeof query === 'string' ? query : (query as { text: string }).text)).length,
      stop: () => spy.mockRestore(),
    };
  }

  it('refuses a mistyped key by its checksum, before any database lookup', async () => {
    const { apiKey } = await t.createMerchant();
    const mistyped = `${apiKey.slice(0, -1)}${apiKey.at(-1) === 'a' ? 'b' : 'a'}`;
    const queries = watchQueries();
    try {
      for (let i = 0; i < 5; i++) expect((await list({ 'x-api-key': mistyped })).status).toBe(401);
      expect(queries.count(/FROM api_keys/)).toBe(0);
      // Control: a well-formed key is looked up.
      expect((await list({ 'x-api-key': apiKey })).status).toBe(200);
      expect(queries.count(/FROM api_keys/)).toBe(1);
    } finally {
      queries.stop();
    }
  });

  it('stores only the SHA-256 of a key', async () => {
    const { apiKey, apiKeyId } = await t.createMerchant();
    const { rows } = await pg.query('SELECT * FROM api_keys WHERE id = $1', [apiKeyId]);
    expect(JSON.stringify(rows)).not.toContain(apiKey);
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(apiKey).toMatch(/^mk_test_[1-9A-HJ-NP-Za-km-z]{30,}$/);
  });

  it('lets a merchant hold several active keys, each revoked on its own', async () => {
    const first = await t.createMerchant();
    const second = await t.app.get(MerchantsService).createKey(first.merchantId);
    expect((await list({ 'x-api-key': first.apiKey })).status).toBe(200);
    expect((await list({ 'x-api-key': second.apiKey })).status).toBe(200);
    await t.app.get(MerchantsService).revokeKey(first.apiKeyId);
    await sleep(CACHE_TTL_MS + 100);
    expect((await list({ 'x-api-key': first.apiKey })).status).toBe(401);
    expect((await list({ 'x-api-key': second.apiKey })).status).toBe(200);
  });

  it('stops honouring a revoked key within the cache window (API_KEY_CACHE_TTL_MS)', async () => {
    const { apiKey, apiKeyId } = await t.createMerchant();
    expect((await list({ 'x-api-key': apiKey })).status).toBe(200); // now cached
    await t.app.get(MerchantsService).revokeKey(apiKeyId);
    const revokedAt = Date.now();
    let lastSuccess = revokedAt;
    for (;;) {
      const result = await list({ 'x-api-key': apiKey });
      if (result.status === 401) break;
      lastSuccess = Date.now();
      expect(Date.now() - revokedAt).toBeLessThan(CACHE_TTL_MS + 1000);
      await sleep(25);
    }
    expect(lastSuccess - revokedAt).toBeLessThanOrEqual(CACHE_TTL_MS + 50);
    await sleep(CACHE_TTL_MS + 100);
    expect((await list({ 'x-api-key': apiKey })).status).toBe(401);
  });

  it('records lastUsedAt without writing on every request', async () => {
    const { apiKey, apiKeyId } = await t.createMerchant();
    const queries = watchQueries();
    try {
      for (let i = 0; i < 30; i++) expect((await list({ 'x-api-key': apiKey })).status).toBe(200);
      await sleep(CACHE_TTL_MS + 100); // the cache entry expires: the key is looked up again
      for (let i = 0; i < 30; i++) expect((await list({ 'x-api-key': apiKey })).status).toBe(200);
      // 60 authenticated requests, two lookups, one write (lastUsedAt is kept to the minute).
      expect(queries.count(/FROM api_keys/)).toBe(2);
      expect(queries.count(/UPDATE api_keys SET last_used_at/)).toBe(1);
    } finally {
      queries.stop();
    }
    // The write is not in the request's path: it lands just after.
    const rows = await eventually(
      async () => (await pg.query('SELECT last_used_at FROM api_keys WHERE id = $1', [apiKeyId])).rows,
      ([row]) => row.last_used_at !== null,
      5_000,
      20,
    );
    expect(rows[0].last_used_at).toBeInstanceOf(Date);
    expect(Date.now() - rows[0].last_used_at.getTime()).toBeLessThan(10_000);
  });

  it('never writes a key to the logs, on success and on failure paths', async () => {
    const { apiKey } = await t.createMerchant();
    const revoked = await t.createMerchant();
    await t.app.get(MerchantsService).revokeKey(revoked.apiKeyId);
    const mark = t.logs.length;
    await list({ 'x-api-key': apiKey });
    await list({ authorization: `Bearer ${apiKey}` });
    await list({ 'x-api-key': revoked.apiKey });
    await list({ authorization: `Bearer ${revoked.apiKey}` });
    await list({ 'x-api-key': `${apiKey}x` });
    await http(t.baseUrl, 'POST', '/api/merchant/pobo/users', { apiKey, body: '{bad json' });
    await http(t.baseUrl, 'POST', '/api/merchant/pobo/users', { apiKey, body: { businessName: '' } });
    const last = await http(t.baseUrl, 'GET', '/api/merchant/pobo/users/pobo_000000000000000000000000', { apiKey });
    // Every request's lines are in once the last one's completion is.
    const lastId = last.headers.get('x-request-id')!;
    await eventually(
      () => Promise.resolve(t.logs.some((l) => l.includes(lastId) && l.includes('request completed'))),
      (logged) => logged,
      5_000,
      10,
    );
    const lines = t.logs.slice(mark).join('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of [apiKey, revoked.apiKey, apiKey.slice(8)]) expect(lines).not.toContain(secret);
    expect(lines).toContain(REDACTION_MARKER);
    expect(lines).toContain('"x-api-key":"[Redacted]"');
    expect(lines).toContain('"authorization":"[Redacted]"');
  });

  it('protects every /api/merchant route listed in the OpenAPI document', async () => {
    const document = (await http(t.baseUrl, 'GET', '/openapi.json')).body;
    const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/api/merchant'))
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ path, method })));
    expect(operations.length).toBeGreaterThanOrEqual(3);
    for (const { path, method } of operations) {
      const concrete = path.replace(/\{[^}]+\}/g, 'pobo_000000000000000000000000');
      const result = await http(t.baseUrl, method.toUpperCase(), concrete, method === 'post' ? { body: {} } : {});
      expectErrorBody(result, 401, 'unauthorized');
      expect(document.paths[path][method].security).toEqual(expect.arrayContaining([{ MerchantApiKey: [] }]));
    }
  });
});
