import { createServer, Server } from 'node:net';
import { startAppAtPublicUrl } from '../support/browser';
import { expectErrorBody } from '../support/contract';
import { DashboardClient, DashboardUser } from '../support/dashboard';
import { Records, startDnsServer } from '../support/dns-server';
import { eventually } from '../support/poll';
import { startStack, Stack } from '../support/stack';

const PUBLIC = '93.184.216.34';

/**
 * Target URLs under the production policy (`WEBHOOK_URL_POLICY=strict`), with hosts resolved by a
 * real DNS server the suite controls: every forbidden address form refused when an endpoint is
 * saved, and a name that resolved to a public address then and to loopback at delivery (DNS
 * rebinding) never connected to.
 */
describe('Webhook target URLs in production', () => {
  let stack: Stack;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let dashboard: DashboardClient;
  let owner: DashboardUser;
  let listener: Server;
  let connections = 0;
  const zone = new Map<string, Records>([
    ['ok.hooks.test', { a: [PUBLIC] }],
    ['private.hooks.test', { a: ['10.0.0.5'] }],
    ['metadata.hooks.test', { a: ['169.254.169.254'] }],
    ['mapped.hooks.test', { aaaa: ['::ffff:127.0.0.1'] }],
    ['mixed.hooks.test', { a: [PUBLIC, '192.168.1.20'] }],
    ['rebind.hooks.test', { a: [PUBLIC] }],
  ]);

  beforeAll(async () => {
    dns = await startDnsServer(zone);
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    stack = await startStack({
      name: 'webhook-ssrf',
      startApp: startAppAtPublicUrl,
      worker: true,
      env: { WEBHOOK_URL_POLICY: 'strict', WEBHOOK_DNS_SERVERS: dns.server, WEBHOOK_TIMEOUT_MS: '2000' },
    });
    dashboard = new DashboardClient(stack.t.baseUrl);
    owner = await dashboard.signUp();
  });

  afterAll(async () => {
    await stack?.close();
    await dns?.close();
    await new Promise((resolve) => listener?.close(resolve));
  });

  const create = (url: string) => dashboard.as(owner, 'POST', '/webhook-endpoints', { url, enabledEvents: ['*'] });

  it('refuses plain HTTP and every private, loopback, link-local, CGNAT, multicast or reserved address, however it is spelt or resolved', async () => {
    const forbidden = [
      `http://${PUBLIC}/hooks`,
      'http://ok.hooks.test/hooks',
      'https://127.0.0.1/hooks',
      'https://2130706433/hooks',
      'https://0x7f000001/hooks',
      'https://0177.0.0.1/hooks',
      'https://127.1/hooks',
      'https://[::1]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://[fe80::1]/hooks',
      'https://[fd00::1]/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hooks',
      'https://224.0.0.1/hooks',
      'https://240.0.0.1/hooks',
      'https://0.0.0.0/hooks',
      'https://private.hooks.test/hooks',
      'https://metadata.hooks.test/hooks',
      'https://mapped.hooks.test/hooks',
      'https://mixed.hooks.test/hooks',
      'https://nowhere.hooks.test/hooks',
      'https://localhost/hooks',
    ];
    for (const url of forbidden) {
      const refused = await create(url);
      expect([url, refused.status]).toEqual([url, 400]);
      expectErrorBody(refused, 400, 'webhook_url_not_allowed');
    }
    const allowed = await create('https://ok.hooks.test/hooks');
    expect(allowed.status).toBe(201);
    expectErrorBody(
      await dashboard.as(owner, 'PATCH', `/webhook-endpoints/${allowed.body.response.webhookEndpointId}`, { url: 'https://private.hooks.test/hooks' }),
      400,
      'webhook_url_not_allowed',
    );
    expect(dns.asked).toEqual(expect.arrayContaining(['ok.hooks.test', 'private.hooks.test', 'mapped.hooks.test']));
  });

  it('never connects to a name that resolved to a public address when saved and to loopback when delivering', async () => {
    const port = (listener.address() as { port: number }).port;
    const created = await create(`https://rebind.hooks.test:${port}/hooks`);
    expect(created.status).toBe(201);
    const { webhookEndpointId } = created.body.response;
    zone.set('rebind.hooks.test', { a: ['127.0.0.1'] });

    expect((await dashboard.as(owner, 'POST', `/webhook-endpoints/${webhookEndpointId}/test`)).status).toBe(202);
    const [attempt] = await eventually(
      async () => (await dashboard.as(owner, 'GET', `/webhook-endpoints/${webhookEndpointId}/deliveries`)).body.response as any[],
      (found) => found.length > 0,
      10_000,
      100,
    );
    expect(attempt).toEqual(expect.objectContaining({ statusCode: null, error: expect.stringMatching(/no address a webhook may reach/) }));
    expect(connections).toBe(0);
  });
});
