import { freePort } from './free-port';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { BrowserContext, chromium, Page, Response } from 'playwright-core';
import { TcpProxy } from './tcp-proxy';
import { startTestApp, TestApp } from './test-app';

/** Debian's `chromium` package (`.ci/run` installs it). Browsers are never downloaded. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh, throw-away profile. */
export async function launchBrowser(
  options: { viewport?: { width: number; height: number }; isMobile?: boolean; javaScriptEnabled?: boolean } = {},
): Promise<Browser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'e2e-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: options.viewport ?? { width: 1280, height: 800 },
      isMobile: options.isMobile,
      hasTouch: options.isMobile,
      deviceScaleFactor: options.isMobile ? 2 : 1,
      javaScriptEnabled: options.javaScriptEnabled ?? true,
    });
    return {
      context,
      close: async () => {
        await context.close();
        await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(userDataDir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * The app reachable at its own `PUBLIC_BASE_URL`, as a browser sees it: links it gives out work
 * as they are, and the browser's `Origin` is the configured one. (The test app listens on a
 * random port chosen after its configuration is fixed, so a loopback proxy sits on the public
 * port.) `baseUrl` is the public URL.
 */
export async function startAppAtPublicUrl(databaseUrl: string, env: Record<string, string> = {}): Promise<TestApp> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const t = await startTestApp(databaseUrl, { PUBLIC_BASE_URL: publicUrl, ...env });
  const proxy = new TcpProxy('127.0.0.1', Number(new URL(t.baseUrl).port));
  proxy.port = port;
  await proxy.start();
  return {
    ...t,
    baseUrl: publicUrl,
    close: async () => {
      await proxy.cut();
      await t.close();
    },
  };
}

/**
 * The dashboard's pages in a browser, as the browser suites check them: `newPage` collects CSP
 * violations and other errors from the console (a suite expects none after each test); `checkPage` asserts the
 * page's strict CSP, that the document does not scroll sideways at the viewport's width (wide
 * content scrolls inside its own box), that axe-core finds no serious or critical violation, and
 * keeps a screenshot.
 */
export function dashboardPages(browser: Browser, screenshotDir: string) {
  const cspViolations: string[] = [];
  let consoleErrors: string[] = [];
  const newPage = async (): Promise<Page> => {
    const page = await browser.context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      else if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
    return page;
  };
  /** The console's errors since the last call (a suite expects none after each test but those a step caused on purpose and took). */
  const takeConsoleErrors = (): string[] => {
    const taken = consoleErrors;
    consoleErrors = [];
    return taken;
  };
  const checkPage = async (page: Page, name: string, response?: Response | null): Promise<void> => {
    if (response) {
      const csp = response.headers()['content-security-policy'] ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    }
    const width = await page.evaluate<{ document: number; viewport: number }>(
      '({ document: document.documentElement.scrollWidth, viewport: document.documentElement.clientWidth })',
    );
    expect([name, width.document]).toEqual([name, width.viewport]);
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`)).toEqual([]);
    await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
  };
  return { cspViolations, takeConsoleErrors, newPage, checkPage };
}

/**
 * Signs the browser in as a user whose session was opened through the API: its session cookie, and
 * the marker the service sets beside it (without which the dashboard takes the browser for signed
 * out and asks nothing).
 */
export async function signInBrowser(browser: Browser, baseUrl: string, user: { cookie: string }): Promise<void> {
  await browser.context.addCookies([
    { name: 'dashboard_session', value: user.cookie.split('=')[1], url: baseUrl },
    { name: 'dashboard_signed_in', value: '1', url: baseUrl },
  ]);
}
