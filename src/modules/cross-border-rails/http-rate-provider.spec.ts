import 'reflect-metadata';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BRIDGE_RAIL_RATES, createBridgeRailServer } from '../../../sandbox/bridge-rail/bridge-rail.server';
import { SandboxUnderTest } from '../../../sandbox/common/sandbox-under-test';
import { listeningSandbox } from '../../../test/support/sandbox-spec';
import { ProviderError, ProviderHttpClient } from '../../common/providers/provider-http-client';
import { HttpRateProvider } from './http-rate-provider';

const API_KEY = 'spec-bridge-key';
const OPTIONS = { timeoutMs: 2_000, retries: 0 };

/** The rate provider against the sandbox bridge rail over a real socket. */
describe('HttpRateProvider', () => {
  const sandbox = new SandboxUnderTest(() => createBridgeRailServer({ apiKey: API_KEY }), API_KEY);
  const baseUrl = listeningSandbox(sandbox);

  const provider = (apiKey = API_KEY, url = baseUrl()) =>
    new HttpRateProvider(new ProviderHttpClient({ name: 'bridge rail', baseUrl: url, apiKey, backoffMs: 10, resetTimeoutMs: 60_000 }));
  const { faults } = sandbox;

  it('answers the routes of a corridor in ROUTE_TYPES order, as the rail quotes them', async () => {
    expect(await provider().rates('US', 'USD', OPTIONS)).toEqual(
      BRIDGE_RAIL_RATES.USD.routes.map((route) => ({ routeType: route.route_type, rate: route.rate, fixedFee: route.fixed_fee, feeBps: route.fee_bps })),
    );
    expect(await provider().rates('US', 'USD', OPTIONS)).toEqual([
      { routeType: 'ngn', rate: '1550.75', fixedFee: 50_000, feeBps: 150 },
      { routeType: 'usdc', rate: '1542.3', fixedFee: 25_000, feeBps: 80 },
    ]);
    expect(await provider().rates('FR', 'EUR', OPTIONS)).toHaveLength(2);
    expect(await provider().rates('KE', 'KES', OPTIONS)).toEqual([{ routeType: 'ngn', rate: '11.98765432', fixedFee: 15_000, feeBps: 220 }]);
  });

  it('answers an empty list for a corridor no route serves', async () => {
    expect(await provider().rates('JP', 'JPY', OPTIONS)).toEqual([]);
    expect(await provider().rates('US', 'EUR', OPTIONS)).toEqual([]);
  });

  it('reports a refused request (bad codes, wrong key) as not retryable', async () => {
    await expect(provider().rates('usa', 'USD', OPTIONS)).rejects.toMatchObject({ retryable: false, status: 400 });
    await expect(provider('wrong-key').rates('US', 'USD', OPTIONS)).rejects.toMatchObject({ retryable: false, status: 401 });
  });

  it('retries a 5xx, and reports a slow rail as retryable', async () => {
    await faults({ failNext: 1, failStatus: 502 });
    expect(await provider().rates('US', 'USD', { timeoutMs: 2_000, retries: 1 })).toHaveLength(2);
    await faults({ failNext: 2, failStatus: 500 });
    await expect(provider().rates('US', 'USD', { timeoutMs: 2_000, retries: 1 })).rejects.toMatchObject({ retryable: true, status: 500 });
    await faults({ latencyMs: 500 });
    await expect(provider().rates('US', 'USD', { timeoutMs: 100, retries: 0 })).rejects.toMatchObject({
      retryable: true,
      message: expect.stringContaining('timed out'),
    });
  });

  describe('against a rail answering what it likes', () => {
    let server: Server;
    let answer: unknown;
    let url: string;

    beforeAll(async () => {
      server = createServer((_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(answer));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    const route = (route_type: string, rate = '1500') => ({ route_type, rate, fixed_fee: 100, fee_bps: 10 });

    it('orders the routes and leaves out the ones it does not know', async () => {
      answer = { routes: [route('usdc', '2'), route('swift'), route('ngn', '1')] };
      expect((await provider(API_KEY, url).rates('US', 'USD', OPTIONS)).map((rate) => [rate.routeType, rate.rate])).toEqual([
        ['ngn', '1'],
        ['usdc', '2'],
      ]);
    });

    it.each([
      ['no routes list', { rates: [] }],
      ['a rate with 9 decimals', { routes: [route('ngn', '1.123456789')] }],
      ['a negative rate', { routes: [route('ngn', '-1')] }],
      ['a zero rate', { routes: [route('ngn', '0.00')] }],
      ['a route quoted twice', { routes: [route('ngn'), route('ngn')] }],
      ['a fractional fee', { routes: [{ ...route('ngn'), fixed_fee: 1.5 }] }],
      ['fee_bps over 100%', { routes: [{ ...route('ngn'), fee_bps: 10_001 }] }],
    ])('refuses an answer with %s as retryable', async (_name, body) => {
      answer = body;
      const error = await provider(API_KEY, url)
        .rates('US', 'USD', OPTIONS)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ retryable: true });
    });
  });
});
