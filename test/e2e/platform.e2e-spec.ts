import { expectErrorBody } from '../support/contract';
import { eventually, sleep } from '../support/poll';
import { TcpProxy } from '../support/tcp-proxy';
import { http, startTestApp, TestApp } from '../support/test-app';
import { startStack, Stack } from '../support/stack';
import { OpsEndpoint } from '../../src/modules/ops';

describe('Platform: request ids, errors, OpenAPI, health and dependency outages', () => {
  let stack: Stack;
  let t: TestApp;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let apiKey: string;

  beforeAll(async () => {
    pgProxy = await new TcpProxy('127.0.0.1', 5432).start();
    redisProxy = await new TcpProxy('127.0.0.1', 6379).start();
    // The app reaches PostgreSQL and Redis only through the proxies, which the outage tests cut.
    const throughProxies = (databaseUrl: string, env: Record<string, string>) =>
      startTestApp(databaseUrl.replace('127.0.0.1:5432', `127.0.0.1:${pgProxy.port}`), { ...env, REDIS_URL: `redis://127.0.0.1:${redisProxy.port}` });
    stack = await startStack({ name: 'platform', startApp: throughProxies, merchants: ['Test Merchant'] });
    ({ t } = stack);
    apiKey = stack.merchants[0].apiKey;
  });

  afterAll(async () => {
    await stack?.close();
    await pgProxy?.cut();
    await redisProxy?.cut();
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
    const id = result.headers.get('x-request-id')!;
    const line = await eventually(
      () => Promise.resolve(t.logs.find((l) => l.includes(id) && l.includes('request completed'))),
      (found) => found !== undefined,
      5_000,
      10,
    );
    expect(line).toBeDefined();
    expect(JSON.parse(line!).request.id).toBe(id);
  });

  it('answers an unknown route with the contract error body', async () => {
    expectErrorBody(await http(t.baseUrl, 'GET', '/api/merchant/nope'), 404, 'route_not_found');
  });

  it('reaches the same route with a trailing slash, the key still checked first', async () => {
    const withSlash = await http(t.baseUrl, 'GET', '/api/merchant/pobo/users/', { apiKey });
    expect(withSlash.status).toBe(200);
    expect(Array.isArray(withSlash.body.response)).toBe(true);
    expectErrorBody(await http(t.baseUrl, 'GET', '/api/merchant/pobo/users/'), 401, 'unauthorized');
    const created = await http(t.baseUrl, 'POST', '/api/merchant/pobo/users/', {
      apiKey,
      body: { businessName: 'Slash Ltd', email: 'a@slash.example', phoneNumber: '+2348012345678', country: 'NG' },
    });
    expect(created.status).toBe(201);
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
      expect.arrayContaining([
        'poboUserId',
        'businessName',
        'country',
        'allowNairaCollection',
        'nairaCollectionStatus',
        'nairaAccount',
        'wallets',
        'agreement',
        'kyb',
        'createdAt',
        'updatedAt',
      ]),
    );
    expect(document.components.schemas.CreatePoboBusinessDto.required).toEqual(expect.arrayContaining(['businessName', 'email', 'phoneNumber', 'country']));
    expect(document.paths['/api/merchant/pobo/users'].post.responses['201']).toBeDefined();
    const ui = await fetch(`${t.baseUrl}/docs`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
  });

  it("serves the rails' callbacks in a document of their own, absent from the merchant's", async () => {
    const merchant = (await http(t.baseUrl, 'GET', '/openapi.json')).body;
    const rails = (await http(t.baseUrl, 'GET', '/openapi.rails.json')).body;
    const callbacks = ['/api/rails/bank/events', '/api/rails/bridge/events', '/api/rails/payout/events'];
    expect(Object.keys(rails.paths).sort()).toEqual(callbacks.sort());
    for (const path of callbacks) expect(merchant.paths[path]).toBeUndefined();
    expect(merchant.tags.map((tag: { name: string }) => tag.name)).not.toContain('Rail callbacks');
    // Each document carries only the schemas its operations reach.
    expect(merchant.components.schemas.RailEventDto).toBeUndefined();
    expect(rails.components.schemas.RailEventDto).toBeDefined();
    expect(rails.components.schemas.PoboBusinessDto).toBeUndefined();
    const ui = await fetch(`${t.baseUrl}/docs/rails`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
  });

  it('documents the confirm body as optional and the KYB enumerations in any case, as the service accepts them', async () => {
    const document = (await http(t.baseUrl, 'GET', '/openapi.json')).body;
    expect(document.paths['/api/merchant/payment-intents/{paymentIntentId}/confirm'].post.requestBody.required).toBe(false);
    const part = new RegExp(document.components.schemas.IdentityFileDto.properties.part.pattern);
    const idType = new RegExp(document.components.schemas.AssociatedPersonDto.properties.id_type.pattern);
    expect(['FRONT', 'front', 'Back'].every((value) => part.test(value))).toBe(true);
    expect(['PASSPORT', 'passport', 'National_ID'].every((value) => idType.test(value))).toBe(true);
    expect(['FRONTS', 'side', 'passports'].some((value) => part.test(value) || idType.test(value))).toBe(false);
  });

  /** The operator port's readiness: what the public one will not say. */
  const opsReady = async () => {
    const response = await fetch(`http://127.0.0.1:${t.app.get(OpsEndpoint).port}/ready`);
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  it('reports readiness of PostgreSQL and Redis: tersely on the public port, in detail on the operator port', async () => {
    const result = await http(t.baseUrl, 'GET', '/health/ready');
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ status: 'ok' });
    const ops = await opsReady();
    expect(ops).toMatchObject({ status: 200, body: { status: 'ready', database: 'up', redis: 'up' } });
    // The rails this API holds a circuit for, closed.
    expect(ops.body.thirdParties.bank_rail).toMatchObject({ circuit: 'closed' });
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
      const notReady = await http(t.baseUrl, 'GET', '/health/ready');
      expectErrorBody(notReady, 503, 'service_unavailable');
      expect(notReady.body.message).toBe('Not ready');
      expect(await opsReady()).toMatchObject({ status: 503, body: { status: 'not_ready', database: 'down', redis: 'up' } });
    } finally {
      await pgProxy.restore();
    }
    const recovered = await eventually(
      () => http(t.baseUrl, 'GET', '/api/merchant/pobo/users', { apiKey }),
      (r) => r.status === 200,
    );
    expect(recovered.status).toBe(200);
  });

  it('logs a PostgreSQL outage once, at warn and without a stack, and the next outage again', async () => {
    const from = t.logs.length;
    const lines = () =>
      t.logs
        .slice(from)
        .map((line) => JSON.parse(line) as { level: number; msg: string; context?: string; err?: { stack?: string }; response?: { statusCode: number } });
    const outageWarnings = () => lines().filter((l) => l.level === 40 && l.context === 'DependencyOutage');
    const outage = async (requests: number) => {
      await pgProxy.cut();
      try {
        const answers = await Promise.all(
          Array.from({ length: requests }, (_, i) =>
            i % 3 === 2
              ? http(t.baseUrl, 'POST', '/api/merchant/pobo/users', {
                  apiKey,
                  body: { businessName: 'Down Ltd', email: 'a@b.example', phoneNumber: '+2348012345678', country: 'NG' },
                })
              : http(t.baseUrl, 'GET', i % 3 === 0 ? '/api/merchant/pobo/users' : '/api/merchant/pobo/users/pobo_000000000000000000000000', { apiKey }),
          ),
        );
        expect(answers.map((a) => a.status)).toEqual(answers.map(() => 503));
      } finally {
        await pgProxy.restore();
      }
      expect(
        (
          await eventually(
            () => http(t.baseUrl, 'GET', '/api/merchant/pobo/users', { apiKey }),
            (r) => r.status === 200,
          )
        ).status,
      ).toBe(200);
      await sleep(20);
    };

    await outage(30);
    expect(outageWarnings()).toHaveLength(1);
    expect(outageWarnings()[0].msg).toMatch(/^database unavailable: [^\n]+; requests that need it get 503 until it is back/);
    expect(outageWarnings()[0].msg).not.toMatch(/SELECT|INSERT|127\.0\.0\.1|postgres:/);
    const [back] = lines().filter((l) => l.context === 'DependencyOutage' && l.level === 30);
    expect(Number(/; (\d+) requests answered 503/.exec(back?.msg ?? '')?.[1])).toBeGreaterThanOrEqual(30);
    // Each request still has its own request line; nothing else at error level, and no stack anywhere.
    expect(lines().filter((l) => l.msg === 'request completed' && l.response?.statusCode === 503).length).toBeGreaterThanOrEqual(30);
    expect(lines().filter((l) => l.level >= 50 && l.msg !== 'request completed')).toEqual([]);
    expect(lines().filter((l) => /\n\s+at /.test(`${l.msg}${l.err?.stack ?? ''}`))).toEqual([]);

    await outage(5);
    expect(outageWarnings()).toHaveLength(2);
    expect(lines().filter((l) => l.context === 'DependencyOutage' && l.level === 30)).toHaveLength(2);
  });

  it('reports Redis down as not ready, and recovers by itself', async () => {
    await redisProxy.cut();
    try {
      const result = await eventually(
        () => http(t.baseUrl, 'GET', '/health/ready'),
        (r) => r.status === 503,
        5_000,
      );
      expectErrorBody(result, 503, 'service_unavailable');
      // Which dependency is down is the operator port's to say, not the public one's.
      expect(result.body.message).toBe('Not ready');
      expect(await opsReady()).toMatchObject({ status: 503, body: { status: 'not_ready', database: 'up', redis: 'down' } });
    } finally {
      await redisProxy.restore();
    }
    const ready = await eventually(
      () => http(t.baseUrl, 'GET', '/health/ready'),
      (r) => r.status === 200,
    );
    expect(ready.status).toBe(200);
  });
});
