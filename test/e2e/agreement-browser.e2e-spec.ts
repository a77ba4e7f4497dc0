import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from 'pg';
import { TERMS_VERSION } from '../../src/modules/agreements/agreement.terms';
import { Browser, launchBrowser, startAppAtPublicUrl } from '../support/browser';
import { createBusiness, http, TestApp } from '../support/test-app';
import { startStack, Stack } from '../support/stack';

/** Screenshots for a human look; never committed. */
const SCREENSHOT_DIR = process.env.AGREEMENT_SCREENSHOT_DIR ?? tmpdir();

/** The agreement page in a real headless Chromium: what a business owner sees and does. */
describe('Agreement page in a real browser', () => {
  let stack: Stack;
  let t: TestApp;
  let pg: Client;
  let apiKey: string;

  beforeAll(async () => {
    stack = await startStack({ name: 'agreement-browser', startApp: startAppAtPublicUrl, merchants: ['Browser Merchant'] });
    ({ t, pg } = stack);
    [apiKey] = stack.merchants.map((merchant) => merchant.apiKey);
  });

  afterAll(async () => {
    await stack?.close();
  });

  const createNamedBusiness = (businessName: string) => createBusiness(t, apiKey, { businessName });

  it('accepts with JavaScript disabled at phone width, then shows the confirmation', async () => {
    const business = await createNamedBusiness('Ọ̀yọ́ Foods & Logistics Ltd');
    const browser: Browser = await launchBrowser({ viewport: { width: 390, height: 844 }, isMobile: true, javaScriptEnabled: false });
    try {
      const page = await browser.context.newPage();
      const opened = await page.goto(business.agreement.url);
      expect(opened?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Ọ̀yọ́ Foods & Logistics Ltd');
      expect(await page.getByText(`Terms version ${TERMS_VERSION}`).isVisible()).toBe(true);
      const accept = page.getByRole('button', { name: 'Accept' });
      expect(await accept.isVisible()).toBe(true);
      const screenshot = join(SCREENSHOT_DIR, 'agreement-page-nojs-390x844.png');
      await page.screenshot({ path: screenshot, fullPage: true });
      expect((await stat(screenshot)).size).toBeGreaterThan(10_000);
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'agreement-first-screen-390x844.png') });

      const posted = page.waitForRequest((request) => request.method() === 'POST');
      const [response] = await Promise.all([page.waitForNavigation(), accept.click()]);
      expect(response?.status()).toBe(200);
      // The browser names the page's own origin on the form POST (Referrer-Policy: same-origin).
      expect((await (await posted).allHeaders()).origin).toBe(t.baseUrl);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Agreement accepted');
      expect(await page.getByText('Ọ̀yọ́ Foods & Logistics Ltd accepted the terms').isVisible()).toBe(true);
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'agreement-accepted-390x844.png'), fullPage: true });

      // Back / reload never accepts twice: the link is used.
      const again = await page.goto(business.agreement.url);
      expect(again?.status()).toBe(410);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('This link has already been used');
    } finally {
      await browser.close();
    }

    const result = await http(t.baseUrl, 'GET', `/api/merchant/pobo/users/${business.poboUserId}`, { apiKey });
    expect(result.body.response).toMatchObject({ agreement: { status: 'accepted' }, kyb: { status: 'not_started' } });
    const { rows } = await pg.query('SELECT ip_address, user_agent, terms_version FROM agreement_acceptances WHERE business_id = $1', [business.poboUserId]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ip_address: '127.0.0.1', terms_version: TERMS_VERSION });
    expect(rows[0].user_agent).toMatch(/Chrome\//);
  });

  it('fits a phone screen without horizontal scrolling and takes a desktop layout on a wide screen', async () => {
    const business = await createNamedBusiness('Acme Trading Ltd');
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      const browser = await launchBrowser({ viewport, isMobile: viewport.width < 500 });
      try {
        const page = await browser.context.newPage();
        expect((await page.goto(business.agreement.url))?.status()).toBe(200);
        // A string, since the project compiles without DOM types.
        const layout = await page.evaluate<{ scrollWidth: number; buttonWidth: number; fontSize: string }>(`({
          scrollWidth: document.documentElement.scrollWidth,
          buttonWidth: document.querySelector('button').getBoundingClientRect().width,
          fontSize: getComputedStyle(document.body).fontSize,
        })`);
        expect(layout.scrollWidth).toBeLessThanOrEqual(viewport.width);
        expect(layout.fontSize).toBe('16px');
        if (viewport.width < 500) expect(layout.buttonWidth).toBeGreaterThan(300);
        else expect(layout.buttonWidth).toBeLessThan(300);
        await page.screenshot({ path: join(SCREENSHOT_DIR, `agreement-page-${viewport.width}x${viewport.height}.png`), fullPage: true });
      } finally {
        await browser.close();
      }
    }
  });
});
