import { join } from 'node:path';
import { Browser, dashboardPages, launchBrowser, signInBrowser, startAppAtPublicUrl } from '../support/browser';
import { DashboardClient } from '../support/dashboard';
import { createIntent, MoneyStack, startMoneyStack } from '../support/money-stack';
import { WebhookReceiver } from '../support/webhook-receiver';
import { verifies } from '../support/webhooks';

const SCREENSHOT_DIR = process.env.DASHBOARD_SCREENSHOT_DIR ?? join(__dirname, '..', '..', 'test-results', 'dashboard');

/**
 * The dashboard's webhook pages in Debian's Chromium, at a desktop's width and a phone's: add an
 * endpoint and see its secret once, send a test and see its delivery with the status code, open the
 * event's payload and resend it, disable the endpoint; each page with its strict CSP and no serious
 * accessibility violation.
 */
describe('Dashboard webhook pages', () => {
  let stack: MoneyStack;
  let d: DashboardClient;

  beforeAll(async () => {
    stack = await startMoneyStack({ name: 'dashboard-webhooks', startApp: startAppAtPublicUrl });
    d = new DashboardClient(stack.t.baseUrl);
  });

  afterAll(() => stack?.close());

  const url = (path: string) => `${stack.t.baseUrl}/dashboard${path}`;

  it.each([
    ['desktop', { width: 1280, height: 800 }, false],
    ['phone', { width: 390, height: 844 }, true],
  ] as const)(
    'at a %s’s width: adds an endpoint with its secret shown once, sends a test, and shows the delivery with its status code',
    async (name, viewport, isMobile) => {
      const browser = await launchBrowser({ viewport, isMobile });
      const receiver = await WebhookReceiver.start();
      try {
        await journey(name, browser, receiver);
      } finally {
        await receiver.close();
        await browser.close();
      }
    },
  );

  async function journey(name: string, browser: Browser, receiver: WebhookReceiver): Promise<void> {
    const pages = dashboardPages(browser, SCREENSHOT_DIR);
    const owner = await d.signUp(d.email(`web-hooks-${name}`), 'Hooks Co');
    await signInBrowser(browser, stack.t.baseUrl, owner);
    const page = await pages.newPage();

    const list = await page.goto(url('/webhooks'));
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await pages.checkPage(page, `webhooks-empty-${name}`, list);
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel('Description (optional)').fill('Order service');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await pages.checkPage(page, `webhooks-secret-${name}`);
    await page.getByRole('button', { name: 'Done' }).click();

    // The endpoint's page: the secret is not on it any more.
    await page.getByRole('heading', { name: 'Webhook endpoint' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.getByRole('button', { name: 'Send a test event' }).click();
    const row = page.getByRole('row', { name: /webhook_endpoint\.test/ });
    await row.waitFor();
    await row.getByText('200', { exact: true }).waitFor();
    await pages.checkPage(page, `webhook-endpoint-${name}`);
    const [delivered] = await receiver.until((got) => got.length >= 1);
    expect(verifies(secret, delivered)).toBe(true);

    // The event's payload, as sent, and a resend of it.
    await row.getByRole('link', { name: 'webhook_endpoint.test' }).click();
    await page.getByRole('heading', { name: 'Event webhook_endpoint.test' }).waitFor();
    expect(JSON.parse((await page.getByLabel('The event as sent').textContent())!)).toEqual(delivered.body);
    await pages.checkPage(page, `event-${name}`);
    await page.getByRole('button', { name: 'Resend' }).click();
    await page.getByRole('status').filter({ hasText: 'Queued again' }).waitFor();
    await receiver.until((got) => got.filter((request) => request.id === delivered.id).length === 2);

    // Events list: a payment intent's event appears, linked to its payload.
    await createIntent(stack.t, (await d.as(owner, 'POST', '/api-keys', { name: 'server' })).body.response.apiKey);
    const events = await page.goto(url('/events'));
    await page.getByRole('link', { name: 'payment_intent.created' }).waitFor();
    await pages.checkPage(page, `events-${name}`, events);

    // Disabled from its page: the status says so.
    await page.goto(url('/webhooks'));
    await page.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('disabled', { exact: true }).waitFor();
    await page.close();
    expect(pages.cspViolations).toEqual([]);
    expect(pages.takeConsoleErrors()).toEqual([]);
  }
});
