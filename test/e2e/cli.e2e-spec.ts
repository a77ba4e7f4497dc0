import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { http, TestApp } from '../support/test-app';
import { startStack, Stack } from '../support/stack';

const run = promisify(execFile);

/** The operator CLI exactly as the README and docs/operations.md document it: `npm run --silent merchant:… -- …`. */
describe('Operator CLI', () => {
  let stack: Stack;
  let t: TestApp;

  beforeAll(async () => {
    stack = await startStack({ name: 'cli', env: { API_KEY_CACHE_TTL_MS: '0' } });
    ({ t } = stack);
  });

  afterAll(async () => {
    await stack?.close();
  });

  const cli = async (script: string, ...args: string[]) => {
    const { stdout, stderr } = await run('npm', ['run', '--silent', script, '--', ...args], {
      cwd: `${__dirname}/../..`,
      env: { ...process.env, DATABASE_URL: stack.db.url, NODE_ENV: 'test' },
    });
    return { stdout, stderr };
  };

  it('creates a merchant, prints one JSON line, and the key works at once', async () => {
    const { stdout } = await cli('merchant:create', '--name', 'Acme');
    expect(stdout.endsWith('\n')).toBe(true);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const created = JSON.parse(stdout);
    expect(Object.keys(created).sort()).toEqual(['apiKey', 'apiKeyId', 'merchantId']);
    expect(created.apiKey).toMatch(/^mk_test_/);
    expect((await http(t.baseUrl, 'GET', '/api/merchant/pobo/users', { apiKey: created.apiKey })).status).toBe(200);

    const second = JSON.parse((await cli('merchant:key:create', '--merchant', created.merchantId)).stdout);
    expect(second.merchantId).toBe(created.merchantId);
    expect(second.apiKey).not.toBe(created.apiKey);

    const revoked = JSON.parse((await cli('merchant:key:revoke', '--key', created.apiKeyId)).stdout);
    expect(revoked.apiKeyId).toBe(created.apiKeyId);
    expect(Date.parse(revoked.revokedAt)).not.toBeNaN();
    expect((await http(t.baseUrl, 'GET', '/api/merchant/pobo/users', { apiKey: created.apiKey })).status).toBe(401);
    expect((await http(t.baseUrl, 'GET', '/api/merchant/pobo/users', { apiKey: second.apiKey })).status).toBe(200);
  });

  it('fails with a message and a non-zero exit for bad input, printing nothing on stdout', async () => {
    const failure = await cli('merchant:key:create', '--merchant', 'mer_000000000000000000000000').catch(
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect((failure as { code: number }).code).toBe(1);
    expect((failure as { stdout: string }).stdout).toBe('');
    expect((failure as { stderr: string }).stderr).toContain('Merchant not found');

    const usage = await cli('merchant:create').catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect((usage as { code: number }).code).toBe(2);
    expect((usage as { stderr: string }).stderr).toContain('Usage');
  });
});
