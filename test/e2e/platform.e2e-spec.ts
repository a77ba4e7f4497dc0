import { expectErrorBody } from './support/contract';
import { eventually, sleep } from './support/poll';
import { TcpProxy } from './support/tcp-proxy';
import { http, startTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

describe('Platform: request ids, errors, OpenAPI, health and dependency outages', () => {
  let db: TestDatabase;
  let t: TestApp;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let apiKey: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    pgProxy = await new TcpProxy('127.0.0.1', 5432).start();
    redisProxy = await new TcpProxy('127.0.0.1', 6379).start();
    const proxiedUrl = db.url.replace('127.0.0.1:5432', `127.0.0.1:${pgProxy.port}`);
    t = await startTestApp(proxiedUrl, { REDIS_URL: `redis://127.0.0.1:${redisProxy.port}` });
    apiKey = (await t.createMerchant()).apiKey;
  });

  afterAll(async () => {
    await t?.close();
    await pgProxy?.cut();
    await redisProxy?.cut();
    await db?.drop();
  });

  it('gives every response its own X-Request-Id, also success bodies', async () => {
    const a = await http(t.baseUrl, 'GET', '/health/live');
    const b = await http(t.baseUrl, 'GET', '/health/live');
    expect(a.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('never trusts an inbound X-Request-Id', async () => {
    const result = await http(t.baseUrl, 'GET', '/health/live', { headers: { 'x-request-id': 'req_attacker' } });
    expect(result.headers.get('x-request-id')).not.toBe('req_attacker');
  });

  it('logs the same request id that the response carries', async () => {
    const result = await http(t.baseUrl, 'GET', '/api/merchant/pobo/users', { apiKey });
    await sleep(20);
    const id = result.headers.get('x-request-id')!;
    const line = t.logs.find((l) => l.includes(id) && l.includes('request completed'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!).request.id).toBe(id);
  });

  it('answers an unknown route with the contract error body', async () => {
    expectErrorBody(await http(t.baseUrl, 'GET', '/api/merchant/nope'), 404, 'route_not_found');
  });

  it('answers an unsupported media type with 415 and the contract body', async () => {
    const result = await http(t.baseUrl, 'POST', '/api/merchant/pobo/users', {
      apiKey,
      body: 'businessName=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectErrorBody(result, 415, 'unsupported_media_type');
  });

  it('serves OpenAPI 3 naming every route with its schemas, and Swagger UI', async () => {
    const document = (await http(t.baseUrl, 'GET', '/openapi.json')).body;
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.version).toBe('1.0.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/merchant/pobo/users', '/api/merchant/pobo/users/{poboUserId}', '/health/live', '/health/ready']),
    );
    expect(document.components.securitySchemes.MerchantApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    const business = document.components.schemas.PoboBusinessDto;
    expect(business.required).toEqual(
      expect.arrayContaining(['poboUserId', 'businessName', 'country', 'allowNairaCollection', 'nairaCollectionStatus', 'wallets', 'agreement', 'kyb', 'createdAt', 'updatedAt']),
    );
    expect(document.components.schemas.CreatePoboBusinessDto.required).toEqual(
      expect.arrayContaining(['businessName', 'email', 'phoneNumber', 'country']),
    );
    expect(document.paths['/api/merchant/pobo/users'].post.responses['201']).toBeDefined();
    const ui = await fetch(`${t.baseUrl}/docs`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
  });

  it('reports readiness of PostgreSQL and Redis', async () => {
    const result = await http(t.baseUrl, 'GET', '/health/ready');
    expect(result.status).toBe(200);
    expect(result.body.info).toMatchObject({ database: { status: 'up' }, redis: { status: 'up' } });
  });

  it('answers 503 quickly while PostgreSQL is down, and recovers by itself', async () => {
    await pgProxy.cut();
    try {
      const started = Date.now();
      const result = await http(t.baseUrl, 'GET', '/api/merchant/pobo/users/pobo_000000000000000000000000', { apiKey });
      expect(Date.now() - started).toBeLessThan(5_000);
      expectErrorBody(result, 503, 'service_unavailable');
      expect(result.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(result.text).not.toMatch(/ECONNREFUSED|SELECT|at .*\.js/);
      const create = await http(t.baseUrl, 'POST', '/api/merchant/pobo/users', {
        apiKey,
        body: { businessName: 'Down Ltd', email: 'a@b.example', phoneNumber: '+2348012345678', country: 'NG' },
      });
      expect(create.status).toBe(503);
      expectErrorBody(await http(t.baseUrl, 'GET', '/health/ready'), 503, 'service_unavailable');
    } finally {
      await pgProxy.restore();
    }
    const recovered = await eventually(
      () => http(t.baseUrl, 'GET', '/api/merchant/pobo/users', { apiKey }),
      (r) => r.status === 200,
    );
    expect(recovered.status).toBe(200);
  });

  it('reports Redis down as not ready, and recovers by itself', async () => {
    await redisProxy.cut();
    try {
      const result = await eventually(() => http(t.baseUrl, 'GET', '/health/ready'), (r) => r.status === 503, 5_000);
      expectErrorBody(result, 503, 'service_unavailable');
      expect(result.body.message).toContain('redis');
    } finally {
      await redisProxy.restore();
    }
    const ready = await eventually(() => http(t.baseUrl, 'GET', '/health/ready'), (r) => r.status === 200);
    expect(ready.status).toBe(200);
  });
});
