import { randomBytes } from 'node:crypto';
import { nubanFor } from '../../src/common/banking/nuban';
import { OpsEndpoint } from '../../src/modules/ops';
import { startAppAtPublicUrl } from '../support/browser';
import { DashboardClient } from '../support/dashboard';
import { createInternationalIntent, createQuote, intentBody, isFinal, pollIntent, verifiedBusiness } from '../support/international';
import { fundBalance, ledgerVerify, post } from '../support/money-stack';
import { retryWithdrawalsOnceRailIsBack } from '../support/ops';
import { eventually } from '../support/poll';
import { startStack, Stack } from '../support/stack';
import { http } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Label values that would identify someone or something: an id, a key, a token, an e-mail. */
const IDENTIFYING = [/[a-z]+_[0-9a-f]{24}/, /mk_(test|live)_/, /@/, /[0-9a-f]{32}/];

const WD = '/api/merchant/withdrawals';

/** Every `name{labels} value` line's label values. */
function labelValues(text: string): string[] {
  return [...text.matchAll(/\{([^}]*)\}/g)].flatMap((match) => [...match[1].matchAll(/="((?:[^"\\]|\\.)*)"/g)].map((value) => value[1]));
}

/** The value of the sample `name{labels}` (labels exactly as printed), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/**
 * The operator ports after a small scripted run (one of each money flow, a webhook delivery): each
 * process's metrics in Prometheus's text format on a port of its own, bound to loopback, never on
 * the public port; requests by route template, never by URL; the worker's queues, outbox, money
 * and third parties; its queue board and stuck-work view.
 */
describe('Operator port', () => {
  let stack: Stack;
  let apiKey: string;
  let receiver: WebhookReceiver;
  const apiPort = () => stack.t.app.get(OpsEndpoint).port;
  const workerPort = () => stack.worker!.get(OpsEndpoint).port;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await startStack({
      name: 'ops',
      sandboxes: { payoutDelayMs: 20 },
      crossBorder: { settlementStepMs: 20 },
      chains: { confirmations: 1, blockIntervalMs: 200 },
      worker: true,
      // At its public URL: the dashboard's changes (a webhook endpoint, its test event) carry its Origin.
      startApp: startAppAtPublicUrl,
      // A payout the request could not send is the worker's once the request's key lock is out: soon.
      env: { PERIODIC_JOB_INTERVAL_MS: '300', PROVIDER_TIMEOUT_MS: '2000', STUCK_AFTER_MS: '1000', IDEMPOTENCY_LOCK_MS: '2000' },
      merchants: ['ops'],
    });
    apiKey = stack.merchants[0].apiKey;
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
  });

  const scrape = async (port: number | undefined) => {
    expect(port).toBeGreaterThan(0);
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };
  const expectNoIdentifyingLabel = (text: string) => {
    const values = labelValues(text);
    expect(values.length).toBeGreaterThan(10);
    for (const value of values) for (const pattern of IDENTIFYING) expect({ value, identifying: pattern.test(value) }).toEqual({ value, identifying: false });
  };
  const withdraw = async (amount: number) => {
    const created = await post(stack.t, apiKey, WD, {
      merchantReference: `wd-${randomBytes(6).toString('hex')}`,
      amount,
      bankCode: '044',
      accountNumber: nubanFor('044', '069000003'),
      accountName: 'Acme Stores Ltd',
    });
    expect(created.status).toBe(201);
    return created.body.response.withdrawalId as string;
  };
  const withdrawalStatus = async (id: string) => (await http(stack.t.baseUrl, 'GET', `${WD}/${id}`, { apiKey })).body.response.status as string;

  it('after one of each money flow and a webhook delivery, the worker answers every family, and no label identifies anyone', async () => {
    // Naira in, then out.
    await fundBalance(stack.t, apiKey, 500_000);
    const withdrawalId = await withdraw(1_000);
    await eventually(
      () => withdrawalStatus(withdrawalId),
      (status) => status === 'succeeded',
      10_000,
      50,
    );
    // Abroad, through both rails, from a business verified by the provider.
    const poboUserId = await verifiedBusiness(stack, apiKey);
    const quote = await createQuote(stack.t, apiKey, { poboUserId, amount: 10 });
    const intent = await createInternationalIntent(stack.t, apiKey, intentBody(quote));
    const seen = await pollIntent(stack.t, apiKey, intent.intentId, isFinal);
    expect(seen[seen.length - 1].status).toBe('settled');
    // USDC into the business's vault on a local chain, and out again.
    expect((await post(stack.t, apiKey, '/api/merchant/test-helpers/vault/deposits', { poboUserId, chain: 'polygon', amount: 10 })).status).toBe(202);
    const vault = async () => (await http(stack.t.baseUrl, 'GET', `/api/merchant/pobo/users/${poboUserId}/vault`, { apiKey })).body.response;
    await eventually(vault, (v) => v.balances.find((b: any) => b.chain === 'polygon').available === 10, 30_000, 100);
    const transfer = await post(stack.t, apiKey, '/api/merchant/vault-transfers', {
      asset: 'USDC',
      merchantReference: 'ops-1',
      poboUserId,
      chain: 'polygon',
      amount: 5,
      toAddress: '0x000000000000000000000000000000000000dEaD',
    });
    expect(transfer.status).toBe(201);
    await eventually(
      async () =>
        (await http(stack.t.baseUrl, 'GET', `/api/merchant/vault-transfers/${transfer.body.response.vaultTransferId}`, { apiKey })).body.response.status,
      (status) => status === 'confirmed',
      30_000,
      100,
    );
    // A webhook delivered.
    const d = new DashboardClient(stack.t.baseUrl);
    const owner = await d.signUp();
    const endpoint = await d.as(owner, 'POST', '/webhook-endpoints', { url: receiver.url, enabledEvents: ['*'] });
    expect(endpoint.status).toBe(201);
    expect((await d.as(owner, 'POST', `/webhook-endpoints/${endpoint.body.response.webhookEndpointId}/test`)).status).toBeLessThan(300);
    await receiver.until((received) => received.length >= 1);
    // A mail sent (a password-reset link, by the worker over SMTP).
    expect((await d.post('/password-reset', { email: owner.email })).status).toBe(202);
    await eventually(
      () => stack.inbox.messagesTo(owner.email),
      (mails) => mails.length >= 1,
      15_000,
      100,
    );
    // The ledger verified, and recorded.
    const verified = await ledgerVerify(stack);
    if (verified.code !== 0) throw new Error(JSON.stringify(verified.report));

    // An attempt is counted once its outcome is recorded, after the receiver's answer; a mail once the server accepted it.
    const text = await eventually(
      () => scrape(workerPort()),
      (scraped) =>
        /webhook_delivery_attempt_duration_seconds_count\{outcome="delivered"\} [1-9]/.test(scraped) &&
        /third_party_call_duration_seconds_count\{provider="smtp",operation="send",outcome="ok"\} [1-9]/.test(scraped),
      5_000,
      50,
    );
    for (const family of [
      'process_resident_memory_bytes',
      'pg_pool_connections',
      'bullmq_queue_jobs',
      'bullmq_queue_oldest_waiting_seconds',
      'outbox_backlog',
      'outbox_oldest_seconds',
      'webhook_delivery_attempt_duration_seconds',
      'third_party_call_duration_seconds',
      'third_party_circuit_state',
      'money_objects',
      'money_objects_oldest_unfinished_seconds',
      'money_objects_stuck',
      'ledger_open_receivables_oldest_seconds',
      'ledger_verify_ok',
      'ledger_verify_last_run_timestamp_seconds',
      'ledger_verify_problems',
    ]) {
      expect(text).toContain(`# TYPE ${family} `);
    }
    for (const state of ['waiting', 'active', 'delayed', 'failed'])
      expect(text).toMatch(new RegExp(`bullmq_queue_jobs\\{queue="[a-z-]+",state="${state}"\\} \\d+`));
    expect(sample(text, 'money_objects{kind="payment_intent",status="succeeded"}')).toBe(1);
    expect(sample(text, 'money_objects{kind="withdrawal",status="succeeded"}')).toBe(1);
    expect(sample(text, 'money_objects{kind="international_payment_intent",status="settled"}')).toBe(1);
    expect(sample(text, 'money_objects{kind="vault_transfer",status="confirmed"}')).toBe(1);
    for (const kind of ['payment_intent', 'withdrawal', 'international_payment_intent', 'vault_transfer']) {
      expect(sample(text, `money_objects_stuck{kind="${kind}"}`)).toBe(0);
      expect(sample(text, `money_objects_oldest_unfinished_seconds{kind="${kind}"}`)).toBe(0);
    }
    // The worker's calls: the bank rail's payout, both cross-border rails, the verification provider, the chain's RPC.
    for (const provider of ['bank_rail', 'bridge_rail', 'payout_rail', 'verification_provider', 'chain_polygon', 'smtp'])
      expect(text).toMatch(new RegExp(`third_party_call_duration_seconds_count\\{provider="${provider}",operation="[A-Za-z]+",outcome="ok"\\} [1-9]`));
    for (const provider of ['bank_rail', 'bridge_rail', 'payout_rail', 'verification_provider'])
      expect(sample(text, `third_party_circuit_state{provider="${provider}",state="closed"}`)).toBe(1);
    expect(sample(text, 'ledger_verify_ok')).toBe(1);
    expect(sample(text, 'ledger_verify_problems{problem="unbalancedTransactions"}')).toBe(0);
    expect(Date.now() / 1000 - sample(text, 'ledger_verify_last_run_timestamp_seconds')!).toBeLessThan(120);
    expectNoIdentifyingLabel(text);
    // The worker's readiness names each third party it used, with its circuit and its last call.
    const ready = (await (await fetch(`http://127.0.0.1:${workerPort()}/ready`)).json()) as Record<string, any>;
    expect(ready).toMatchObject({ status: 'ready', database: 'up', redis: 'up' });
    expect(ready.thirdParties.bank_rail).toMatchObject({ circuit: 'closed', lastCall: { outcome: 'ok' } });
    expect(ready.thirdParties.chain_polygon).toEqual({ lastCall: { outcome: 'ok', at: expect.any(String) } });

    // The API's own: requests by route template, its calls to the bank rail (the intent's account).
    const api = await scrape(apiPort());
    expect(api).toMatch(/http_request_duration_seconds_count\{method="POST",route="\/api\/merchant\/payment-intents",status_code="201"\} 1\n/);
    expect(api).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/merchant\/withdrawals\/:withdrawalId",status_code="200"\} [1-9]/);
    expect(api).toMatch(/third_party_call_duration_seconds_count\{provider="bank_rail",operation="[A-Za-z]+",outcome="ok"\} [1-9]/);
    expectNoIdentifyingLabel(api);
  }, 180_000);

  it('a rail that is down: its calls fail, its circuit opens, the payout waiting on it is stuck and listed with its history; then all clears', async () => {
    await stack.bankRail!.faults({ down: true });
    const withdrawalId = await withdraw(500);
    const text = await eventually(
      () => scrape(workerPort()),
      (scraped) =>
        sample(scraped, 'money_objects_stuck{kind="withdrawal"}') === 1 &&
        sample(scraped, 'third_party_circuit_state{provider="bank_rail",state="open"}') === 1,
      20_000,
      200,
    );
    expect(text).toMatch(/third_party_call_duration_seconds_count\{provider="bank_rail",operation="[A-Za-z]+",outcome="failed"\} [1-9]/);
    expect(sample(text, 'money_objects{kind="withdrawal",status="pending"}')).toBe(1);
    // An open circuit is reported, and does not make the worker unready: its other work goes on.
    const ready = await fetch(`http://127.0.0.1:${workerPort()}/ready`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as Record<string, any>).thirdParties.bank_rail).toMatchObject({
      circuit: 'open',
      lastCall: { outcome: expect.stringMatching(/^(failed|circuit_open)$/) },
    });
    expect(sample(text, 'money_objects_oldest_unfinished_seconds{kind="withdrawal"}')).toBeGreaterThan(1);

    const stuck = await fetch(`http://127.0.0.1:${workerPort()}/stuck`);
    expect(stuck.status).toBe(200);
    expect(stuck.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await stuck.text();
    expect(page).toContain(`href="/stuck/withdrawal/${withdrawalId}"`);
    const history = await fetch(`http://127.0.0.1:${workerPort()}/stuck/withdrawal/${withdrawalId}`);
    expect(history.status).toBe(200);
    expect(await history.text()).toContain('<strong>pending</strong>');
    expect((await fetch(`http://127.0.0.1:${workerPort()}/stuck/withdrawal/wd_000000000000000000000000`)).status).toBe(404);

    await stack.bankRail!.faults({});
    await retryWithdrawalsOnceRailIsBack(workerPort()!);
    await eventually(
      () => withdrawalStatus(withdrawalId),
      (status) => status === 'succeeded',
      30_000,
      100,
    );
    const cleared = await eventually(
      () => scrape(workerPort()),
      (scraped) => sample(scraped, 'money_objects_stuck{kind="withdrawal"}') === 0,
      10_000,
      100,
    );
    expect(sample(cleared, 'third_party_circuit_state{provider="bank_rail",state="open"}')).toBe(0);
    expect(await (await fetch(`http://127.0.0.1:${workerPort()}/stuck`)).text()).toContain('Nothing is stuck.');
  }, 60_000);

  it("the worker's queue board lists every queue and retries a job, on the operator port only", async () => {
    const port = workerPort();
    const page = await fetch(`http://127.0.0.1:${port}/queues`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const queues = await fetch(`http://127.0.0.1:${port}/queues/api/queues?activeQueue=withdrawals&status=latest&page=1`);
    expect(queues.status).toBe(200);
    const names = ((await queues.json()) as { queues: { name: string }[] }).queues.map((queue) => queue.name);
    expect(names).toEqual(expect.arrayContaining(['withdrawals', 'international', 'events', 'ledger-verification']));
    // Not read-only: the failed jobs of a queue can be retried from it.
    expect((await fetch(`http://127.0.0.1:${port}/queues/api/queues/withdrawals/retry/failed`, { method: 'PUT' })).status).toBe(200);
  });

  it('serves none of it on the public port, and nothing else on the operator ports', async () => {
    for (const path of ['/metrics', '/ops/metrics', '/api/metrics', '/queues', '/queues/api/queues', '/stuck', `/stuck/withdrawal/wd_000000000000000000000000`])
      expect((await fetch(`${stack.t.baseUrl}${path}`)).status).toBe(404);
    for (const port of [apiPort(), workerPort()]) {
      expect((await fetch(`http://127.0.0.1:${port}/api/merchant/pobo/users`, { headers: { 'x-api-key': apiKey } })).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(404);
    }
    // The API's port has no board or stuck view: those read what every API process would read alike.
    expect((await fetch(`http://127.0.0.1:${apiPort()}/stuck`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${apiPort()}/queues`)).status).toBe(404);
  });
});
