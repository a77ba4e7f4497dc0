import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page, Response } from 'playwright-core';
import { launchBrowser, Browser, startAppAtPublicUrl } from '../support/browser';
import { DashboardClient, PASSWORD, totpCode } from '../support/dashboard';
import { startStack, Stack } from '../support/stack';

/** Screenshots of every page visited, kept as the run's artefacts (never committed). */
const SCREENSHOT_DIR = process.env.DASHBOARD_SCREENSHOT_DIR ?? join(__dirname, '..', '..', 'test-results', 'dashboard');

/**
 * The Merchant Dashboard in Debian's Chromium, one test per journey: each page's CSP header,
 * serious or critical accessibility violations (axe-core) and CSP violations in the console are
 * checked on every page the journey visits.
 */
describe('Merchant Dashboard (browser)', () => {
  let stack: Stack;
  let browser: Browser;
  let d: DashboardClient;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    stack = await startStack({ name: 'dashboard-web', startApp: startAppAtPublicUrl, worker: true });
    browser = await launchBrowser();
    d = new DashboardClient(stack.t.baseUrl);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  afterEach(() => {
    expect(cspViolations).toEqual([]);
  });

  async function newPage(): Promise<Page> {
    const page = await browser.context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    return page;
  }

  /** The page's CSP (strict, no inline code, never framed), no serious accessibility violation, and a screenshot. */
  async function checkPage(page: Page, name: string, response?: Response | null): Promise<void> {
    if (response) {
      const csp = response.headers()['content-security-policy'] ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    }
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  }

  const url = (path: string) => `${stack.t.baseUrl}/dashboard${path}`;

  it('signs up, turns on a second factor with the codes shown once, signs out, and signs in again with a code', async () => {
    const page = await newPage();
    const email = d.email('web-owner');
    const signUp = await page.goto(url('/signup'));
    await checkPage(page, 'signup', signUp);
    await page.getByLabel('Business name').fill('Acme Web');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Acme Web' }).waitFor();
    await checkPage(page, 'overview');

    await page.getByRole('link', { name: 'Security', exact: true }).first().click();
    await page.getByRole('button', { name: 'Set up a second factor' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())!;
    await checkPage(page, 'security-enrolment');
    await page.getByLabel('Code from the app').fill(await totpCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    const codes = (await page.getByTestId('recovery-codes').locator('code').allTextContents()).map((code) => code.trim());
    expect(codes).toHaveLength(10);
    await checkPage(page, 'security-recovery-codes');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await checkPage(page, 'login');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const codeField = page.getByLabel('Code from your authenticator app, or a recovery code');
    await codeField.waitFor();
    await checkPage(page, 'login-second-factor');
    await codeField.fill(codes[0]);
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.getByRole('heading', { name: 'Acme Web' }).waitFor();
    await page.close();
  });

  it('invites a developer from the team page, who joins from the e-mailed link and rolls a key, its secret shown once', async () => {
    const owner = await browser.context.newPage();
    owner.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    const ownerAccount = await d.signUp(d.email('web-team'), 'Team Co');
    await browser.context.addCookies([{ name: 'dashboard_session', value: ownerAccount.cookie.split('=')[1], url: stack.t.baseUrl }]);
    const team = await owner.goto(url('/team'));
    await owner.getByRole('heading', { name: 'Team' }).waitFor();
    await checkPage(owner, 'team', team);
    const developerEmail = d.email('web-dev');
    await owner.getByLabel('E-mail to invite').fill(developerEmail);
    await owner.getByLabel('Role', { exact: true }).selectOption('developer');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner
      .getByRole('status')
      .filter({ hasText: `Invitation sent to ${developerEmail}` })
      .waitFor();
    await owner.close();
    await browser.context.clearCookies();

    const { link } = await stack.inbox.linkIn(developerEmail, /invited to Team Co/);
    const page = await newPage();
    const accept = await page.goto(link);
    await checkPage(page, 'accept-invitation', accept);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.getByRole('heading', { name: 'Team Co' }).waitFor();

    await page.getByRole('link', { name: 'API keys' }).first().click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await checkPage(page, 'api-keys-empty');
    await page.getByLabel('Name of a new key').fill('Production server');
    await page.getByRole('button', { name: 'Create key' }).click();
    const first = (await page.getByTestId('issued-key').textContent())!;
    expect(first).toMatch(/^mk_test_/);
    await checkPage(page, 'api-keys-issued');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Roll (old key works 1 hour)' }).click();
    const rolled = (await page.getByTestId('issued-key').textContent())!;
    expect(rolled).toMatch(/^mk_test_/);
    expect(rolled).not.toBe(first);
    await page.getByRole('button', { name: 'Done' }).click();
    // The secrets were shown once: the list shows neither.
    await page.getByText('expiring').waitFor();
    const table = (await page.locator('table').textContent())!;
    expect(table).not.toContain(first);
    expect(table).not.toContain(rolled);
    await checkPage(page, 'api-keys-rolled');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.close();
  });

  it('shows a viewer no secret and no button that writes', async () => {
    const owner = await d.signUp(d.email('web-owner2'), 'View Co');
    await d.as(owner, 'POST', '/api-keys', { name: 'Server' });
    const viewerEmail = d.email('web-viewer');
    await d.as(owner, 'POST', '/members', { email: viewerEmail, role: 'viewer' });
    const { link } = await stack.inbox.linkIn(viewerEmail, /invited to View Co/);

    const page = await newPage();
    await page.goto(link);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.getByRole('heading', { name: 'View Co' }).waitFor();
    await expect(page.getByRole('link', { name: 'Audit log' }).count()).resolves.toBe(0);

    await page.getByRole('link', { name: 'API keys' }).first().click();
    await page.getByRole('cell', { name: 'Server' }).waitFor();
    await checkPage(page, 'api-keys-viewer');
    for (const name of ['Create key', /Roll/, 'Revoke']) await expect(page.getByRole('button', { name }).count()).resolves.toBe(0);
    expect(await page.content()).not.toMatch(/mk_test_[1-9A-HJ-NP-Za-km-z]{20}/);

    await page.getByRole('link', { name: 'Team' }).first().click();
    await page.getByRole('heading', { name: 'Members' }).waitFor();
    await checkPage(page, 'team-viewer');
    for (const name of ['Send invitation', 'Remove', 'Require it for everyone']) await expect(page.getByRole('button', { name }).count()).resolves.toBe(0);
    await expect(page.getByRole('combobox').count()).resolves.toBe(0);
    await page.close();
  });

  it('serves its assets with content hashes and a year of caching, and its page never cached', async () => {
    const page = await fetch(url('/'));
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    const asset = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toMatch(/-[A-Za-z0-9_-]{8}\.js$/);
    const script = await fetch(`${stack.t.baseUrl}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect(html).not.toMatch(/<script>(?!<\/script>)|<style>|style="/);
    expect((await fetch(`${stack.t.baseUrl}/dashboard/assets/missing.js`)).status).toBe(404);
  });
});
