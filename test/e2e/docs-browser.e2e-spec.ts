import { Browser, launchBrowser } from '../support/browser';
import { TestApp } from '../support/test-app';
import { startStack, Stack } from '../support/stack';

/** The API docs page works in a real browser under its own content security policy. */
describe('API docs in a real browser', () => {
  let stack: Stack;
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack({ name: 'docs-browser' });
    ({ t } = stack);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('renders every operation with no content-security-policy violation', async () => {
    const page = await browser.context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto(`${t.baseUrl}/docs`);
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.waitForSelector('.opblock', { timeout: 15_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThanOrEqual(6);
    expect(violations).toEqual([]);
  });
});
