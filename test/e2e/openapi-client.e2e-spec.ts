import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Client } from 'pg';
import { startAppAtPublicUrl } from '../support/browser';
import { acceptAgreementDirectly, kybApplication } from '../support/kyb-fixtures';
import { TestApp } from '../support/test-app';
import { startStack, Stack } from '../support/stack';

const ROOT = join(__dirname, '..', '..');
const CLIENT_DIR = join(ROOT, 'test', 'client');
const run = promisify(execFile);

interface Business {
  poboUserId: string;
  businessName: string;
  kyb: { status: string };
}

/** The example's shape as this suite sees it; the example itself is typed by the generated client. */
/** The flow's result as this suite sees it; the flow itself is typed by the generated SDK. */
interface FlowModule {
  runFlow: (
    baseUrl: string,
    apiKey: string,
    application: object,
    acceptAgreement: (agreementUrl: string) => Promise<void>,
  ) => Promise<{
    poboUserId: string;
    kybStatus: string;
    balanceAfterConfirm: { currency: string; available: number; reserved: number };
    withdrawal: { status: string; amount: number };
    intent: { status: string; receiptUrl?: string; sourceAmount: number };
  }>;
}

/** What the business does on its agreement page, over plain HTTP: the form with its cookie and hidden fields. */
async function acceptThroughPage(url: string): Promise<void> {
  const page = await fetch(url);
  const cookie = page.headers.get('set-cookie')!.split(';')[0];
  const fields = [...(await page.text()).matchAll(/name="([a-z_]+)" value="([^"]*)"/g)].map(([, name, value]): [string, string] => [name, value]);
  const accepted = await fetch(url, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  if (accepted.status !== 200) throw new Error(`the agreement page answered ${accepted.status}`);
}

interface ExampleModule {
  runExample: (
    baseUrl: string,
    apiKey: string,
    application: object,
    acceptAgreement: (poboUserId: string) => Promise<void>,
  ) => Promise<{ created: Business[]; nextLink?: string; secondPage: Business[]; fetched: Business; onboardingBefore: Business; submitted: Business }>;
}

/**
 * A merchant's engineer has only the served document: generate a typed client from it, compile
 * code against the types (strict), and drive the API with it.
 */
describe('A client generated from the served OpenAPI document', () => {
  let stack: Stack;
  let t: TestApp;
  let pg: Client;

  beforeAll(async () => {
    stack = await startStack({
      name: 'openapi-client',
      sandboxes: { reviewDelayMs: 100, payoutDelayMs: 20 },
      crossBorder: { settlementStepMs: 20 },
      worker: true,
      startApp: startAppAtPublicUrl,
    });
    ({ t, pg } = stack);
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('generates, compiles against the types, and onboards a business: create → list via Link → get → onboarding', async () => {
    // The generator's CLI, as an integrator would run it (it is an ES module; jest is not).
    mkdirSync(join(CLIENT_DIR, 'generated'), { recursive: true });
    const documentFile = join(CLIENT_DIR, 'generated', 'openapi.json');
    writeFileSync(documentFile, await (await fetch(`${t.baseUrl}/openapi.json`)).text());
    await run(process.execPath, [
      join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'),
      documentFile,
      '-o',
      join(CLIENT_DIR, 'generated', 'merchant-api.d.ts'),
    ]);

    const tsc = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(CLIENT_DIR, 'tsconfig.json')]).catch(
      (err: { stdout: string }) => err,
    );
    expect('stdout' in tsc ? tsc.stdout : '').toBe('');

    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loadable only once its types are generated
    const { runExample } = require('../client/example') as ExampleModule;
    const { apiKey } = await t.createMerchant('Generated client');
    const result = await runExample(t.baseUrl, apiKey, kybApplication('RC-CLIENT-1'), (id) => acceptAgreementDirectly(pg, id));

    expect(result.created.map((b) => b.businessName)).toEqual(['Example One Ltd', 'Example Two Ltd']);
    expect(result.nextLink).toMatch(/^<http.*cursor=.*>; rel="next"$/);
    expect(result.secondPage.map((b) => b.poboUserId)).toEqual([result.created[0].poboUserId]);
    expect(result.fetched.poboUserId).toBe(result.created[0].poboUserId);
    expect(result.onboardingBefore.kyb.status).toBe('agreement_pending');
    expect(result.submitted.kyb.status).toBe('processing');
  });

  it('with a second generator (@hey-api/openapi-ts): business → agreement → KYB → payment intent → withdrawal → quote → international intent → settled', async () => {
    const out = join(CLIENT_DIR, 'generated', 'hey-api');
    const documentFile = join(CLIENT_DIR, 'generated', 'openapi.json');
    writeFileSync(documentFile, await (await fetch(`${t.baseUrl}/openapi.json`)).text());
    await run(process.execPath, [
      join(ROOT, 'node_modules', '@hey-api', 'openapi-ts', 'bin', 'run.js'),
      '-i',
      documentFile,
      '-o',
      out,
      '-c',
      '@hey-api/client-fetch',
    ]);

    const tsc = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(CLIENT_DIR, 'tsconfig.hey-api.json')]).catch(
      (err: { stdout: string }) => err,
    );
    expect('stdout' in tsc ? tsc.stdout : '').toBe('');

    // The client sends the key in both headers on every call: had the API refused that, the first call would have failed.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loadable only once its SDK is generated
    const { runFlow } = require('../client/hey-api-flow') as FlowModule;
    const { apiKey } = await t.createMerchant('Second generator');
    const result = await runFlow(t.baseUrl, apiKey, kybApplication('RC-HEY-1'), acceptThroughPage);

    expect(result.kybStatus).toBe('verified');
    expect(result.balanceAfterConfirm).toEqual({ currency: 'NGN', available: 250000, reserved: 0 });
    expect(result.withdrawal).toMatchObject({ amount: 2500, status: 'processing' });
    expect(result.intent.status).toBe('settled');
    expect(result.intent.receiptUrl).toMatch(/^http/);
  }, 120_000);
});
