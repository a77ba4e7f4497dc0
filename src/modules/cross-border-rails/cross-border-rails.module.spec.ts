import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createBridgeRailServer } from '../../../sandbox/bridge-rail/bridge-rail.server';
import { createPayoutRailServer } from '../../../sandbox/payout-rail/payout-rail.server';
import { loadConfig } from '../../config/app.config';
import { DEV_BRIDGE_RAIL_API_KEY, DEV_PAYOUT_RAIL_API_KEY } from '../../config/dev-secrets';
import { ConfigModule } from '../../config/config.module';
import { MetricsModule } from '../metrics';
import { BRIDGE_RAIL, BridgeRail, CrossBorderRailsModule, PAYOUT_RAIL, PayoutRail, RATE_PROVIDER, RateProvider } from './index';

describe('CrossBorderRailsModule', () => {
  const servers: FastifyInstance[] = [];
  const listen = async (app: FastifyInstance) => {
    servers.push(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  };

  afterAll(async () => {
    await Promise.all(servers.map((app) => app.close()));
  });

  it('provides the three adapters from the configuration, the rates on the bridge rail client', async () => {
    const bridgeUrl = await listen(createBridgeRailServer({ apiKey: DEV_BRIDGE_RAIL_API_KEY, settlementStepMs: 0 }));
    const payoutUrl = await listen(createPayoutRailServer({ apiKey: DEV_PAYOUT_RAIL_API_KEY, settlementStepMs: 0 }));
    const config = loadConfig({ NODE_ENV: 'test', BRIDGE_RAIL_URL: `${bridgeUrl}/`, PAYOUT_RAIL_URL: payoutUrl });
    const moduleRef = await Test.createTestingModule({ imports: [ConfigModule.forRoot(config), MetricsModule, CrossBorderRailsModule] }).compile();
    const rates = moduleRef.get<RateProvider>(RATE_PROVIDER);
    const bridge = moduleRef.get<BridgeRail>(BRIDGE_RAIL);
    const payout = moduleRef.get<PayoutRail>(PAYOUT_RAIL);
    const options = { timeoutMs: 2_000, retries: 0 };

    expect(await rates.rates('GB', 'GBP', options)).toEqual([{ routeType: 'ngn', rate: '2085.4', fixedFee: 75_000, feeBps: 175 }]);
    const recipient = { fullName: 'Jane Doe', email: null, country: 'GB', bankCodeType: 'swift' as const, bankCode: 'BARCGB22', accountNumber: '31926819' };
    expect(
      (
        await bridge.createTransfer(
          { reference: 'iin_1', routeType: 'ngn', sourceAmount: 208_540, destinationCurrency: 'GBP', destinationAmount: 100, recipient },
          options,
        )
      ).status,
    ).toBe('completed');
    const paid = await payout.createPayout(
      {
        reference: 'iin_1',
        currency: 'GBP',
        amount: 100,
        recipient,
        purposeOfTransfer: 'Services',
        paymentReference: null,
        orderingCustomer: { name: 'Acme Ltd', country: 'NG' },
      },
      options,
    );
    expect(paid.confirmation?.amount).toBe('1.00');
    // One client (and circuit breaker) for the bridge rail, whatever is asked of it.
    expect((rates as unknown as { client: unknown }).client).toBe((bridge as unknown as { client: unknown }).client);
    expect((payout as unknown as { client: unknown }).client).not.toBe((bridge as unknown as { client: unknown }).client);
    await moduleRef.close();
  });
});
