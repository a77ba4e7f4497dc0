import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { dashboardPages, launchBrowser, Browser, signInBrowser, startAppAtPublicUrl } from '../support/browser';
import { DashboardClient, PASSWORD, totpCode } from '../support/dashboard';
import { createInternationalIntent, createQuote, intentBody, pollIntent, verifiedBusiness } from '../support/international';
import { kybApplication } from '../support/kyb-fixtures';
import { createIntent, fundBalance, moneyStackOptions, MoneyStack } from '../support/money-stack';
import { startStack } from '../support/stack';
import { createBusiness, http } from '../support/test-app';

/** Screenshots of every page visited, kept as the run's artefacts (never committed). */
const SCREENSHOT_DIR = process.env.DASHBOARD_SCREENSHOT_DIR ?? join(__dirname, '..', '..', 'test-results', 'dashboard');

/**
 * The Merchant Dashboard in Debian's Chromium, one test per journey: each page's CSP header,
 * serious or critical accessibility violations (axe-core) and CSP violations in the console are
 * checked on every page the journey visits.
 */
describe('Merchant Dashboard (browser)', () => {
  let stack: MoneyStack;
  let browser: Browser;
  let d: DashboardClient;
  let pages: ReturnType<typeof dashboardPages>;

  beforeAll(async () => {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    // Every sandbox: the verification provider, the bank rail (funding from the test helpers), the
    // cross-border rails (international payments settle) and the local chains (the vault); the app at
    // its public URL, as a browser reaches it.
    const started = await startStack({
      // Base's transactions link to an explorer (the local chains have none by default).
      ...moneyStackOptions({ name: 'dashboard-web', env: { BASE_EXPLORER_TX_URL: 'https://basescan.example/tx/{txHash}' } }),
      crossBorder: { settlementStepMs: 50 },
      chains: { confirmations: 2, blockIntervalMs: 300 },
      startApp: startAppAtPublicUrl,
    });
    stack = { ...started, bankRail: started.bankRail! };
    browser = await launchBrowser();
    pages = dashboardPages(browser, SCREENSHOT_DIR);
    d = new DashboardClient(stack.t.baseUrl);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  afterEach(() => {
    expect(pages.cspViolations).toEqual([]);
    expect(pages.takeConsoleErrors()).toEqual([]);
  });

  const newPage = () => pages.newPage();
  const checkPage = (...args: Parameters<typeof pages.checkPage>) => pages.checkPage(...args);

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
    // Up to here the console is clean: the signed-out pages asked nothing that answered 401.
    expect(pages.takeConsoleErrors()).toEqual([]);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const codeField = page.getByLabel('Code from your authenticator app, or a recovery code');
    await codeField.waitFor();
    await checkPage(page, 'login-second-factor');
    // The password alone is answered 401 `two_factor_required`, which the page turns into the code's field.
    expect(pages.takeConsoleErrors()).toEqual([expect.stringMatching(/status of 401 .*\/api\/dashboard\/login\)$/)]);
    await codeField.fill(codes[0]);
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.getByRole('heading', { name: 'Acme Web' }).waitFor();
    await page.close();
  });

  it('invites a developer from the team page, who joins from the e-mailed link and rolls a key, its secret shown once', async () => {
    const owner = await newPage();
    const ownerAccount = await d.signUp(d.email('web-team'), 'Team Co');
    await signInBrowser(browser, stack.t.baseUrl, ownerAccount);
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

  it("funds a payment from the test helpers, confirms it and withdraws (double clicks act once); another merchant's payment by URL is not found", async () => {
    const owner = await d.signUp(d.email('web-money'), 'Money Co');
    const apiKey = (await d.as(owner, 'POST', '/api-keys', { name: 'Server' })).body.response.apiKey;
    const business = await createBusiness(stack.t, apiKey, { businessName: 'Lagos Textiles' });
    const intent = await createIntent(stack.t, apiKey, { amount: 75000, merchantReference: 'order-web-1' });

    await browser.context.clearCookies();
    await signInBrowser(browser, stack.t.baseUrl, owner);
    const page = await newPage();
    const businesses = await page.goto(url('/businesses'));
    await page.getByRole('link', { name: 'Lagos Textiles' }).waitFor();
    await checkPage(page, 'businesses', businesses);
    await page.getByRole('link', { name: 'Lagos Textiles' }).click();
    await page.getByRole('heading', { name: 'Lagos Textiles' }).waitFor();
    const shown = (await http(stack.t.baseUrl, 'GET', `/api/merchant/pobo/users/${business.poboUserId}`, { apiKey })).body.response;
    expect(await page.locator('dl.details').textContent()).toContain(shown.wallets.evm.address);
    await checkPage(page, 'business');

    await page.getByRole('link', { name: 'Payments' }).first().click();
    await page.getByRole('link', { name: 'order-web-1' }).click();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    // Test mode: the panel sends a transfer through the sandbox bank rail (a double click sends one),
    // and the page follows the intent until the rail's signed callback has landed.
    await expect(page.getByLabel('Amount (NGN)').inputValue()).resolves.toBe('75000.00');
    await checkPage(page, 'payment-intent-test-helpers');
    await page.getByRole('button', { name: 'Send a test transfer' }).dblclick();
    await page.getByRole('status').filter({ hasText: 'Test transfer of' }).waitFor();
    await page.locator('ol.timeline').getByText('Funds received').waitFor();
    await expect(page.getByText('funds received').count()).resolves.toBeGreaterThan(0);
    const funded = (await http(stack.t.baseUrl, 'GET', `/api/merchant/payment-intents/${intent.paymentIntentId}`, { apiKey })).body.response;
    expect(funded.status).toBe('funds_received');
    expect(funded.payments).toHaveLength(1);
    await expect(page.getByRole('button', { name: 'Send a test transfer' }).count()).resolves.toBe(0);
    // The owner confirms it from the page: a double click confirms once.
    await page.getByRole('button', { name: 'Confirm the payment' }).dblclick();
    await page.getByText('succeeded').first().waitFor();
    const timeline = (await page.locator('ol.timeline').textContent())!;
    expect(timeline).toMatch(/Created.*Transfer of.*Funds received.*Confirmed/s);
    // Its id (with a copy button), the merchant's reference and the expiry are on the page.
    const details = (await page.locator('dl.details').textContent())!;
    expect(details).toContain(intent.paymentIntentId);
    expect(details).toContain('order-web-1');
    expect(details).toMatch(/Expires.*\d{4}/);
    await checkPage(page, 'payment-intent');
    // The list's filters live in the URL: a filtered list is a link.
    await page.getByRole('link', { name: 'Payments' }).first().click();
    await page.getByLabel('Status').selectOption('succeeded');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=succeeded/);
    await page.getByRole('link', { name: 'order-web-1' }).waitFor();
    await page.goto(url('/payment-intents?status=expired'));
    await page.getByText('Nothing matches these filters').waitFor();
    await checkPage(page, 'payment-intents-filtered');

    await page.getByRole('link', { name: 'Balance' }).first().click();
    await page.getByRole('heading', { name: 'Balance transactions' }).waitFor();
    await page.getByRole('cell', { name: 'payment', exact: true }).waitFor();
    await checkPage(page, 'balance');
    // Every id is a link to its object: the payment's source is the intent.
    await page.getByRole('link', { name: intent.paymentIntentId }).click();
    await page.getByRole('heading', { name: 'Payment intent order-web-1' }).waitFor();
    await page.goBack();

    // A withdrawal from the page, double-clicked: one withdrawal, its amount reserved once.
    await page.getByRole('link', { name: 'Withdrawals' }).first().click();
    await page.getByLabel('Amount (NGN)').fill('20000');
    await page.getByLabel('Bank code').fill('058');
    await page.getByLabel('Account number').fill('0123456785');
    await page.getByLabel('Account name').fill('Money Co');
    await page.getByLabel('Your reference').fill('web-payout-1');
    await page.getByRole('button', { name: 'Withdraw' }).dblclick();
    await page.getByRole('status').filter({ hasText: 'Withdrawal web-payout-1 created' }).waitFor();
    await page.getByRole('cell', { name: 'web-payout-1' }).waitFor();
    await checkPage(page, 'withdrawals-created');
    const withdrawals = (await http(stack.t.baseUrl, 'GET', '/api/merchant/withdrawals', { apiKey })).body.response;
    expect(withdrawals).toHaveLength(1);
    // The withdrawal's own page, followed until the payout ends.
    await page.getByRole('link', { name: 'web-payout-1' }).click();
    await page.getByRole('heading', { name: 'Withdrawal web-payout-1' }).waitFor();
    await page.locator('dl.details').getByText('succeeded').waitFor();
    const withdrawalDetails = (await page.locator('dl.details').textContent())!;
    expect(withdrawalDetails).toContain(withdrawals[0].withdrawalId);
    expect(withdrawalDetails).toContain('0123456785');
    await checkPage(page, 'withdrawal');
    const balanceNow = (await http(stack.t.baseUrl, 'GET', '/api/merchant/balance', { apiKey })).body.response[0];
    expect(balanceNow.available + balanceNow.reserved).toBeLessThanOrEqual(75000 - 20000 + 0.001);
    expect(balanceNow.available).toBe(55000);
    const audit = (await d.as(owner, 'GET', '/audit-log')).body.response.map((entry: { action: string }) => entry.action);
    expect(audit.filter((action: string) => action === 'payment_intent.confirmed')).toHaveLength(1);
    expect(audit.filter((action: string) => action === 'withdrawal.created')).toHaveLength(1);
    expect(audit.filter((action: string) => action === 'payment_intent.test_funded')).toHaveLength(1);

    for (const [path, name, heading] of [
      ['/withdrawals', 'withdrawals', 'Withdrawals'],
      ['/international', 'international', 'International payments'],
    ] as const) {
      const answer = await page.goto(url(path));
      await page.getByRole('heading', { name: heading }).waitFor();
      await checkPage(page, name, answer);
    }

    const other = await d.signUp(d.email('web-other'), 'Other Co');
    await browser.context.clearCookies();
    await signInBrowser(browser, stack.t.baseUrl, other);
    await page.goto(url(`/payment-intents/${intent.paymentIntentId}`));
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    expect(await page.content()).not.toContain('order-web-1');
    await checkPage(page, 'not-found');
    expect(pages.takeConsoleErrors()).toEqual([
      expect.stringMatching(new RegExp(`status of 404 .*/api/dashboard/payment-intents/${intent.paymentIntentId}\\)$`)),
    ]);
    await page.close();
    await browser.context.clearCookies();
  });

  it('issues a fresh agreement link from a business page, the business accepts through it, and the page follows KYB to verified', async () => {
    const owner = await d.signUp(d.email('web-kyb'), 'Onboard Co');
    const apiKey = (await d.as(owner, 'POST', '/api-keys', { name: 'Server' })).body.response.apiKey;
    const business = await createBusiness(stack.t, apiKey, { businessName: 'Kano Grains Ltd' });

    await browser.context.clearCookies();
    await signInBrowser(browser, stack.t.baseUrl, owner);
    const page = await newPage();
    const opened = await page.goto(url(`/businesses/${business.poboUserId}`));
    await page.getByRole('heading', { name: 'Kano Grains Ltd' }).waitFor();
    await checkPage(page, 'business-agreement-pending', opened);
    await page.getByRole('button', { name: 'Issue a fresh agreement link' }).dblclick();
    const shown = page.getByRole('status').filter({ hasText: 'New link' });
    await shown.waitFor();
    const fresh = (await shown.getByRole('link').getAttribute('href'))!;
    expect(fresh).toContain('/agreements/');
    expect(fresh).not.toBe(business.agreement.url);
    await checkPage(page, 'business-agreement-link');
    // The fresh link voided the first one; a double click issued one link, audited once.
    expect((await fetch(business.agreement.url)).status).toBe(410);
    const audit = (await d.as(owner, 'GET', '/audit-log?action=pobo_business.agreement_link_issued')).body.response;
    expect(audit).toHaveLength(1);
    expect(audit[0].objectId).toBe(business.poboUserId);

    // The business opens the link and accepts the terms.
    await page.goto(fresh);
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Accept' }).click()]);
    await page.getByRole('heading', { name: 'Agreement accepted' }).waitFor();

    await page.goto(url(`/businesses/${business.poboUserId}`));
    const details = page.locator('dl.details');
    await details.getByText('accepted').waitFor();
    await details.getByText('not started').waitFor();
    await expect(page.getByRole('button', { name: 'Issue a fresh agreement link' }).count()).resolves.toBe(0);
    // The merchant's server submits the KYB application; reloaded, the page follows the review to its verdict.
    const submitted = await http(stack.t.baseUrl, 'POST', `/api/merchant/pobo/users/${business.poboUserId}/onboarding`, {
      apiKey,
      body: kybApplication('RC-WEB-0001'),
    });
    expect(submitted.status).toBe(202);
    await page.reload();
    await details.getByText('verified').waitFor({ timeout: 20_000 });
    await checkPage(page, 'business-verified');
    // Finding a business by its KYB status: the filter lives in the URL.
    await page.getByRole('link', { name: 'Businesses' }).first().click();
    await page.getByLabel('KYB status').selectOption('verified');
    await page.waitForURL(/kybStatus=verified/);
    await page.getByRole('link', { name: 'Kano Grains Ltd' }).waitFor();
    await page.getByLabel('KYB status').selectOption('action_required');
    await page.getByText('Nothing matches these filters').waitFor();
    await checkPage(page, 'businesses-filtered');
    await page.close();
    await browser.context.clearCookies();
  });

  it('follows an international payment to settled, leg by leg, with its quote, and opens its receipt', async () => {
    const owner = await d.signUp(d.email('web-intl'), 'Abroad Co');
    const apiKey = (await d.as(owner, 'POST', '/api-keys', { name: 'Server' })).body.response.apiKey;
    await fundBalance(stack.t, apiKey, 500_000);
    const poboUserId = await verifiedBusiness(stack, apiKey, { businessName: 'Abuja Exports Ltd' });
    const quote = await createQuote(stack.t, apiKey, { poboUserId, amount: 100 });
    const intent = await createInternationalIntent(stack.t, apiKey, intentBody(quote));
    await pollIntent(stack.t, apiKey, intent.intentId, (seen) => seen.status === 'settled');

    await browser.context.clearCookies();
    await signInBrowser(browser, stack.t.baseUrl, owner);
    const page = await newPage();
    const list = await page.goto(url('/international'));
    await page.getByRole('link', { name: 'Jane Doe (US)' }).waitFor();
    await checkPage(page, 'international-settled', list);
    await page.getByRole('link', { name: 'Quotes' }).click();
    await page.getByRole('cell', { name: quote.quoteId }).waitFor();
    await checkPage(page, 'quotes');
    await page.goBack();

    await page.getByRole('link', { name: 'Jane Doe (US)' }).click();
    await page.getByRole('heading', { name: 'Payment to Jane Doe' }).waitFor();
    const timeline = page.locator('ol.timeline');
    await timeline.getByText('Settled: the recipient has the money').waitFor();
    expect(await timeline.textContent()).toMatch(
      /Created.*Picked up for settlement.*Bridge leg started.*Bridge leg confirmed.*Payout leg started.*Payout leg confirmed.*Settled/s,
    );
    // The route's price comes from the quote the intent used.
    expect(await page.locator('dl.details').textContent()).toContain(`rate ${quote.options[0].exchangeRate}`);
    await checkPage(page, 'international-intent');

    await Promise.all([page.waitForNavigation(), page.locator('dl.details').getByRole('link', { name: 'Receipt' }).click()]);
    await page.getByRole('heading', { name: /Abuja Exports Ltd.*paid.*Jane Doe/ }).waitFor();
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'international-receipt.png'), fullPage: true });
    await page.close();
    await browser.context.clearCookies();
  });

  it("credits a test deposit to a business's vault, then sends USDC out of it (a double click sends once) until the chain confirms it", async () => {
    const owner = await d.signUp(d.email('web-vault'), 'Vault Co');
    const apiKey = (await d.as(owner, 'POST', '/api-keys', { name: 'Server' })).body.response.apiKey;
    const poboUserId = await verifiedBusiness(stack, apiKey, { businessName: 'Lagos Stablecoins Ltd' });

    await browser.context.clearCookies();
    await signInBrowser(browser, stack.t.baseUrl, owner);
    const page = await newPage();
    await page.goto(url(`/businesses/${poboUserId}`));
    await page.getByRole('link', { name: /Open the vault/ }).click();
    await page.getByRole('heading', { name: 'Vault of Lagos Stablecoins Ltd' }).waitFor();
    await page.getByText('Nothing in this vault yet').waitFor();
    await checkPage(page, 'vault-empty');

    const panel = page.locator('section.test-helpers');
    await panel.getByLabel('Deposit chain').selectOption('base');
    await panel.getByLabel('Deposit amount (USDC)').fill('100');
    await panel.getByRole('button', { name: 'Send a test deposit' }).click();
    await panel
      .getByRole('status')
      .getByText(/Test deposit of 100\.00 USDC sent on base/)
      .waitFor();
    const baseRow = page.getByRole('row', { name: /^base / });
    await baseRow.getByRole('cell', { name: '100.00 USDC' }).first().waitFor({ timeout: 20_000 });
    await page.getByRole('cell', { name: 'confirmed' }).waitFor({ timeout: 20_000 });
    await checkPage(page, 'vault-deposited');
    // The deposit's hash, shortened to its ends, whole in its title and on the clipboard button.
    const [deposit] = (await http(stack.t.baseUrl, 'GET', `/api/merchant/pobo/users/${poboUserId}/vault/transactions`, { apiKey })).body.response;
    const hash = page.locator('span.hash code').first();
    await expect(hash.getAttribute('title')).resolves.toBe(deposit.txHash);
    await expect(hash.textContent()).resolves.toBe(`${deposit.txHash.slice(0, 10)}…${deposit.txHash.slice(-8)}`);
    await expect(page.getByRole('button', { name: 'Copy the hash' }).count()).resolves.toBe(1);
    expect(deposit.explorerUrl).toBe(`https://basescan.example/tx/${deposit.txHash}`);
    await expect(page.getByRole('link', { name: 'Explorer' }).getAttribute('href')).resolves.toBe(deposit.explorerUrl);

    const form = page.getByRole('form', { name: 'Send USDC from this vault' });
    await form.getByLabel('Chain').selectOption('base');
    await form.getByLabel('Amount (USDC)').fill('25.5');
    const to = '0x000000000000000000000000000000000000dEaD';
    await form.getByLabel('To address').fill(to);
    await form.getByLabel('Your reference').fill('web-payout-1');
    await form.getByRole('button', { name: 'Send' }).dblclick();
    await page
      .getByRole('status')
      .getByText(/Transfer web-payout-1 of 25\.50 USDC \(network fee 0\.05 USDC\) created/)
      .waitFor();
    await baseRow.getByRole('cell', { name: '74.45 USDC' }).waitFor({ timeout: 20_000 });
    // The transfer's line goes from pending to confirmed as the chain confirms it.
    await page.getByRole('row', { name: /transfer base 25\.50 USDC 0\.05 USDC confirmed/ }).waitFor({ timeout: 30_000 });
    await checkPage(page, 'vault-transferred');
    const transfers = (await http(stack.t.baseUrl, 'GET', '/api/merchant/vault-transfers', { apiKey })).body.response;
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ poboUserId, amount: 25.5, toAddress: to, status: 'confirmed' });

    // The merchant-wide vault, from the navigation: the totals, the business holding USDC, both transactions.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault', exact: true }).click();
    await page.getByRole('heading', { name: 'Vault', exact: true }).waitFor();
    await page.getByRole('region', { name: 'USDC on each chain, over every business' }).getByRole('row', { name: 'base 74.45 USDC 0.00 USDC' }).waitFor();
    await page.getByRole('region', { name: 'USDC on each chain, over every business' }).getByRole('row', { name: 'All chains 74.45 USDC 0.00 USDC' }).waitFor();
    await page.getByRole('region', { name: 'Businesses holding USDC' }).getByRole('link', { name: 'Lagos Stablecoins Ltd' }).waitFor();
    await expect(page.getByRole('region', { name: 'Vault transactions of every business' }).getByRole('row').count()).resolves.toBe(3);
    await checkPage(page, 'vault-overview');
    // The header's search finds the transfer by its reference; its own page has its hash linked to the explorer.
    const search = page.getByRole('search');
    await search.getByRole('searchbox').fill('web-payout-1');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('heading', { name: 'Search: web-payout-1' }).waitFor();
    await checkPage(page, 'search-results');
    await page.getByRole('link', { name: 'web-payout-1 · 25.500000 USDC on base' }).click();
    await page.getByRole('heading', { name: 'Vault transfer web-payout-1' }).waitFor();
    await page.getByText(transfers[0].vaultTransferId).waitFor();
    await expect(page.getByRole('link', { name: 'Explorer' }).getAttribute('href')).resolves.toBe(`https://basescan.example/tx/${transfers[0].txHash}`);
    await checkPage(page, 'vault-transfer');
    await page.close();
    await browser.context.clearCookies();
  });

  it('works on a phone: every area reached from the menu, none scrolling sideways, the menu closed again after each link', async () => {
    const owner = await d.signUp(d.email('web-phone'), 'Phone Co');
    const apiKey = (await d.as(owner, 'POST', '/api-keys', { name: 'Server' })).body.response.apiKey;
    const business = await createBusiness(stack.t, apiKey, { businessName: 'Abuja Ceramics and Household Goods Limited' });
    await fundBalance(stack.t, apiKey, 250000);
    await createIntent(stack.t, apiKey, { amount: 125000.5, merchantReference: 'order-phone-with-a-rather-long-reference-0001' });

    const phone = await launchBrowser({ viewport: { width: 390, height: 844 }, isMobile: true });
    try {
      const phonePages = dashboardPages(phone, SCREENSHOT_DIR);
      await signInBrowser(phone, stack.t.baseUrl, owner);
      const page = await phonePages.newPage();
      const first = await page.goto(url('/'));
      await page.getByRole('heading', { name: 'Phone Co' }).waitFor();
      await phonePages.checkPage(page, 'phone-overview', first);
      const nav = page.getByRole('navigation', { name: 'Main' });
      const menu = page.getByRole('button', { name: 'Menu' });
      await expect(nav.isVisible()).resolves.toBe(false);
      for (const [label, path] of [
        ['Balance', '/balance'],
        ['Businesses', '/businesses'],
        ['Payments', '/payment-intents'],
        ['Withdrawals', '/withdrawals'],
        ['International', '/international'],
        ['Vault', '/vault'],
        ['API keys', '/api-keys'],
        ['Webhooks', '/webhooks'],
        ['Events', '/events'],
        ['Team', '/team'],
        ['Security', '/security'],
        ['Audit log', '/audit-log'],
        ['Overview', '/'],
      ] as const) {
        await menu.click();
        await expect(menu.getAttribute('aria-expanded')).resolves.toBe('true');
        await nav.getByRole('link', { name: label, exact: true }).click();
        await page.waitForURL((at) => at.pathname.replace(/\/$/, '') === `/dashboard${path}`.replace(/\/$/, ''));
        await page.locator('main h1').waitFor();
        await page.waitForLoadState('networkidle');
        // The menu closes once the new page has rendered: waited for, and failing when it never does.
        await nav.waitFor({ state: 'hidden', timeout: 2_000 });
        await phonePages.checkPage(page, `phone${path === '/' ? '-overview-again' : path.replace(/\//g, '-')}`);
      }
      // The search box stays in the header on a phone, outside the menu.
      await page.getByRole('search').getByRole('searchbox').fill('abuja cer');
      await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
      await page.getByRole('link', { name: 'Abuja Ceramics and Household Goods Limited' }).waitFor();
      await phonePages.checkPage(page, 'phone-search');
      for (const path of [`/businesses/${business.poboUserId}`, `/businesses/${business.poboUserId}/vault`]) {
        await page.goto(url(path));
        await page.locator('main h1').waitFor();
        await page.waitForLoadState('networkidle');
        await phonePages.checkPage(page, `phone${path.replace(/\//g, '-').replace(business.poboUserId, 'one')}`);
      }
      expect(phonePages.cspViolations).toEqual([]);
      expect(phonePages.takeConsoleErrors()).toEqual([]);
    } finally {
      await phone.close();
    }
  });

  it("draws the overview's charts from the service's daily figures, with tables beside them, and loads the chart library on the overview only", async () => {
    const owner = await d.signUp(d.email('web-charts'), 'Charts Co');
    const apiKey = (await d.as(owner, 'POST', '/api-keys', { name: 'Server' })).body.response.apiKey;
    await fundBalance(stack.t, apiKey, 250000);
    await fundBalance(stack.t, apiKey, 50000.5);

    await browser.context.clearCookies();
    await signInBrowser(browser, stack.t.baseUrl, owner);
    const page = await newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(url('/balance'));
    await page.getByRole('heading', { name: 'Balance', exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts.some((path) => path.includes('activity-charts'))).toBe(false);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
    const bars = page.getByRole('img', { name: /Bar chart of money collected, paid out and sent abroad per day over the last 30 days/ });
    await bars.locator('svg .recharts-bar-rectangle').first().waitFor();
    expect(scripts.filter((path) => path.includes('activity-charts'))).toHaveLength(1);
    await page
      .getByRole('img', { name: /Line chart of the available balance/ })
      .locator('svg .recharts-line')
      .waitFor();
    // The figures as tables: today collected both payments, and closed at the balance.
    await page.getByText('Money in and out as a table').click();
    const today = page.getByRole('region', { name: 'Money in and out per day' }).getByRole('row').last();
    await expect(today.getByRole('cell').nth(1).textContent()).resolves.toMatch(/300,000\.50 \(2\)$/);
    await page.getByText('Balance as a table').click();
    const closing = page.getByRole('region', { name: "Available balance at each day's end" }).getByRole('row').last();
    await expect(closing.getByRole('cell').nth(1).textContent()).resolves.toMatch(/300,000\.50$/);
    await checkPage(page, 'overview-charts');
    await page.close();
    await browser.context.clearCookies();
  });

  it('reports its first load: the initial JavaScript (gzip, kept under 250 KiB) and the time until the login form works', async () => {
    await browser.context.clearCookies();
    const page = await newPage();
    const started = performance.now();
    await page.goto(url('/login'));
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const interactiveMs = performance.now() - started;
    const html = await (await fetch(url('/login'))).text();
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)![1];
    const gzipped = gzipSync(Buffer.from(await (await fetch(`${stack.t.baseUrl}${script}`)).arrayBuffer())).length;
    console.log(`dashboard first load: initial JavaScript ${(gzipped / 1024).toFixed(1)} KiB gzip, login form usable after ${interactiveMs.toFixed(0)} ms`);
    // The time is reported, never asserted (a shared machine's times vary); the size is a count.
    expect(gzipped).toBeLessThan(250 * 1024);
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
