import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Client } from 'pg';
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
    stack = await startStack({ name: 'openapi-client' });
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
});
