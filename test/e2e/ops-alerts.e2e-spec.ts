import { randomBytes } from 'node:crypto';
import { nubanFor } from '../../src/common/banking/nuban';
import { OpsEndpoint } from '../../src/modules/ops';
import { fundBalance, MoneyStack, post, startMoneyStack } from '../support/money-stack';
import { retryWithdrawalsOnceRailIsBack } from '../support/ops';
import { eventually } from '../support/poll';
import { Alert, RunningPrometheus, startPrometheus } from '../support/prometheus';
import { http } from '../support/test-app';

const WD = '/api/merchant/withdrawals';

/**
 * The shipped alert rules in a real Prometheus (Debian's), scraping the API's and the worker's
 * operator ports every second: a rail that stops answering raises its alert and a payout waiting
 * on it raises the stuck-money one; both resolve once the rail is back.
 */
describe('Alerts in a live Prometheus', () => {
  let stack: MoneyStack;
  let prometheus: RunningPrometheus;
  let apiKey: string;

  beforeAll(async () => {
    // A payout the request could not send is the worker's once the request's key lock is out: soon.
    stack = await startMoneyStack({ name: 'ops-alerts', env: { STUCK_AFTER_MS: '1000', IDEMPOTENCY_LOCK_MS: '2000' } });
    apiKey = (await stack.t.createMerchant()).apiKey;
    prometheus = await startPrometheus({
      'merchant-payments-api': `127.0.0.1:${stack.t.app.get(OpsEndpoint).port}`,
      'merchant-payments-worker': `127.0.0.1:${stack.worker!.get(OpsEndpoint).port}`,
    });
  }, 60_000);

  afterAll(async () => {
    await prometheus?.close();
    await stack?.close();
  });

  const firing = (alerts: Alert[], name: string, label: Record<string, string>) =>
    alerts.some((alert) => alert.state === 'firing' && alert.labels.alertname === name && Object.entries(label).every(([k, v]) => alert.labels[k] === v));

  it('a rail down fires its alert and the stuck payout’s, and both resolve when the rail is back', async () => {
    await fundBalance(stack.t, apiKey, 10_000);
    // Both targets scraped, and nothing firing on a healthy stack.
    await eventually(
      async () => (await (await fetch(`${prometheus.url}/api/v1/targets`)).json()) as { data: { activeTargets: { health: string }[] } },
      (targets) => targets.data.activeTargets.length === 2 && targets.data.activeTargets.every((target) => target.health === 'up'),
      15_000,
      250,
    );
    expect((await prometheus.alerts()).filter((alert) => alert.state === 'firing')).toEqual([]);

    await stack.bankRail.faults({ down: true });
    const created = await post(stack.t, apiKey, WD, {
      merchantReference: `wd-${randomBytes(6).toString('hex')}`,
      amount: 1_000,
      bankCode: '044',
      accountNumber: nubanFor('044', '069000003'),
      accountName: 'Acme Stores Ltd',
    });
    expect(created.status).toBe(201);
    const alerts = await eventually(
      () => prometheus.alerts(),
      (now) => firing(now, 'RailCircuitOpen', { provider: 'bank_rail' }) && firing(now, 'MoneyObjectsStuck', { kind: 'withdrawal' }),
      90_000,
      500,
    );
    expect(alerts.find((alert) => alert.labels.alertname === 'RailCircuitOpen')!.labels).toMatchObject({ severity: 'page', provider: 'bank_rail' });

    await stack.bankRail.faults({});
    await retryWithdrawalsOnceRailIsBack(stack.worker!.get(OpsEndpoint).port!);
    await eventually(
      async () => (await http(stack.t.baseUrl, 'GET', `${WD}/${created.body.response.withdrawalId}`, { apiKey })).body.response.status,
      (status) => status === 'succeeded',
      60_000,
      250,
    );
    const after = await eventually(
      () => prometheus.alerts(),
      (now) => !now.some((alert) => ['RailCircuitOpen', 'MoneyObjectsStuck'].includes(alert.labels.alertname)),
      30_000,
      500,
    );
    expect(after.filter((alert) => alert.state === 'firing')).toEqual([]);
  }, 240_000);
});
