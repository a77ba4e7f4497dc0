import { launchBrowser, startAppAtPublicUrl } from '../support/browser';
import { kybApplication } from '../support/kyb-fixtures';
import { eventually } from '../support/poll';
import { KybStack, startKybStack } from '../support/kyb-stack';
import { createBusiness, http, TestApp } from '../support/test-app';

/**
 * The whole onboarding as a merchant and a business live it: create the business, the business
 * accepts the terms in a real Chromium, the merchant submits the KYB application and polls until
 * the (sandbox) provider verifies it; the worker then opens the Naira receiving account.
 */
describe('Onboarding happy path, end to end', () => {
  let stack: KybStack;
  let t: TestApp;

  beforeAll(async () => {
    stack = await startKybStack({ name: 'happy', reviewDelayMs: 500, worker: true, env: { PERIODIC_JOB_INTERVAL_MS: '500' }, startApp: startAppAtPublicUrl });
    t = stack.t;
  });

  afterAll(() => stack?.close());

  it('goes from a new business to verified with an active Naira account', async () => {
    const { apiKey } = await t.createMerchant('Happy Merchant');
    const created = await createBusiness(t, apiKey, { businessName: 'Happy Path Ltd', allowNairaCollection: true });
    const id = created.poboUserId;

    const browser = await launchBrowser({ viewport: { width: 390, height: 844 }, isMobile: true, javaScriptEnabled: false });
    try {
      const page = await browser.context.newPage();
      expect((await page.goto(created.agreement.url))?.status()).toBe(200);
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Accept' }).click()]);
      expect(await page.getByText('Agreement accepted').isVisible()).toBe(true);
    } finally {
      await browser.close();
    }
    const accepted = await http(t.baseUrl, 'GET', `/api/merchant/pobo/users/${id}/onboarding`, { apiKey });
    expect(accepted.body.response.agreement.status).toBe('accepted');
    expect(accepted.body.response.kyb.status).toBe('not_started');

    const submitted = await http(t.baseUrl, 'POST', `/api/merchant/pobo/users/${id}/onboarding`, { apiKey, body: kybApplication('RC-HAPPY-1') });
    expect(submitted.status).toBe(202);
    expect(submitted.body.response.kyb.status).toBe('processing');

    const verified = await eventually(
      () => http(t.baseUrl, 'GET', `/api/merchant/pobo/users/${id}/onboarding`, { apiKey }),
      (r) => r.body.response.kyb.status !== 'processing',
      30_000,
    );
    expect(verified.body.response.kyb).toMatchObject({ status: 'verified', pendingRequirements: [] });
    expect(verified.body.response.kyb.lastSyncedAt).not.toBeNull();

    const naira = await eventually(
      () => http(t.baseUrl, 'GET', `/api/merchant/pobo/users/${id}`, { apiKey }),
      (r) => r.body.response.nairaCollectionStatus === 'active',
      30_000,
    );
    expect(naira.body.response.nairaCollectionStatus).toBe('active');
  });
});
