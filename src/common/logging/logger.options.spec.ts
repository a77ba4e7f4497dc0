import { loadConfig } from '../../config/app.config';
import { createRootLogger, logDestination, maskHeaders, maskUrl, REDACTION_MARKER, scrubText } from './logger.options';

describe('maskUrl', () => {
  const key = 'mk_test_3bTqvCrJ3Zz7WZQ5tJmFq1x2y3z4A5B6C7D8E9';
  const token = 'Qm9ndXNUb2tlbkZvclRoZUFncmVlbWVudFBhZ2UxMjM';
  const receiptToken = 'Xq3v9PZkz0m5yT8rW2bLcA';

  it.each([
    [`/api/merchant/pobo/users?api_key=${key}`, '/api/merchant/pobo/users?api_key=[Redacted]'],
    [`/api/merchant/pobo/users?note=${key.replace('_', '%5F')}`, `/api/merchant/pobo/users?note=mk_test_${REDACTION_MARKER}`],
    [`/api/merchant/pobo/users/${key}`, `/api/merchant/pobo/users/mk_test_${REDACTION_MARKER}`],
    [`/agreements/${token}`, `/agreements/${REDACTION_MARKER}`],
    [`/%61greements/${token}`, `/agreements/${REDACTION_MARKER}`],
    [`//AGREEMENTS//${token}?x=1`, `//AGREEMENTS//${REDACTION_MARKER}?x=1`],
    [`/x?token=${token}&limit=2`, `/x?token=${REDACTION_MARKER}&limit=2`],
    [`/receipts/${receiptToken}`, `/receipts/${REDACTION_MARKER}`],
    [`/receipts/${receiptToken}/telex`, `/receipts/${REDACTION_MARKER}/telex`],
    [`//Receipts/${receiptToken}/telex?x=1`, `//Receipts/${REDACTION_MARKER}/telex?x=1`],
    [`/%72eceipts/${receiptToken}%2Ftelex`, `/receipts/${REDACTION_MARKER}/telex`],
  ])('masks %s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });

  it('masks a session token, or an API key without its prefix, anywhere in the path or query', () => {
    const session = 'q3J0Z2h5U2Vzc2lvblRva2VuT2ZGb3J0eVRocmVlQ2g';
    const keyBody = key.slice('mk_test_'.length);
    for (const url of [
      `/api/dashboard/me?session=${session}`,
      `/api/dashboard/${session}/x`,
      `/api/merchant/balance?k=${keyBody}`,
      `/x?q=${keyBody}&limit=1`,
    ]) {
      expect(maskUrl(url)).not.toMatch(new RegExp(`${session}|${keyBody}`));
      expect(maskUrl(url)).toContain(REDACTION_MARKER);
    }
  });

  it('masks a token whose first hyphen comes after hex digits alone, as it masks any other (not a UUID)', () => {
    for (const token of [
      'a3-J0Z2h5U2Vzc2lvblRva2VuT2ZGb3J0eVRocmVlQ2g',
      '-q3J0Z2h5U2Vzc2lvblRva2VuT2ZGb3J0eVRocmVlQ2',
      'Fe0-b-Z2h5U2Vzc2lvblRva2VuT2ZGb3J0eVRocmVlQ',
    ]) {
      expect(maskUrl(`/api/dashboard/${token}`)).toBe(`/api/dashboard/${REDACTION_MARKER}`);
      expect(scrubText(`x-note: ${token}`)).toBe(`x-note: ${REDACTION_MARKER}`);
    }
  });

  it('leaves ordinary URLs alone and survives malformed escapes', () => {
    expect(maskUrl('/api/merchant/pobo/users?limit=10&cursor=pobo_abc')).toBe('/api/merchant/pobo/users?limit=10&cursor=pobo_abc');
    expect(maskUrl('/api/%E0%A4%A/%zz')).toBe('/api/%E0%A4%A/%zz');
  });
});

describe('maskHeaders', () => {
  const key = 'mk_live_3bTqvCrJ3Zz7WZQ5tJmFq1x2y3z4A5B6C7D8E9';

  it('replaces the CSRF token whole and masks a session token in a header of any other name', () => {
    const session = 'q3J0Z2h5U2Vzc2lvblRva2VuT2ZGb3J0eVRocmVlQ2g';
    expect(maskHeaders({ 'x-csrf-token': 'anything', 'x-session': session, 'x-forwarded-for': `1.2.3.4, ${session}` })).toEqual({
      'x-csrf-token': REDACTION_MARKER,
      'x-session': REDACTION_MARKER,
      'x-forwarded-for': `1.2.3.4, ${REDACTION_MARKER}`,
    });
  });

  it('replaces credential headers whole and masks API keys in the others', () => {
    const masked = maskHeaders({
      'x-api-key': 'not-even-a-key-shape',
      authorization: 'Basic dXNlcjpwYXNz',
      cookie: 'session=abc',
      referer: 'https://api.example.com/agreements/tok_123',
      'x-note': `pasted ${key} here`,
      'x-forwarded-for': ['10.0.0.1', key],
      'content-length': '12',
    });
    expect(masked).toEqual({
      'x-api-key': REDACTION_MARKER,
      authorization: REDACTION_MARKER,
      cookie: REDACTION_MARKER,
      referer: REDACTION_MARKER,
      'x-note': `pasted mk_live_${REDACTION_MARKER} here`,
      'x-forwarded-for': ['10.0.0.1', `mk_live_${REDACTION_MARKER}`],
      'content-length': '12',
    });
  });
});

describe('scrubText', () => {
  it("cuts a URL to its scheme and host, so a provider's key in its path or user information is never logged", () => {
    const line = scrubText('job vault.send-transfer failed: HTTP request failed. URL: https://base-mainnet.g.example.com/v2/AbCdEfGhIjKlMnOp details: x');
    expect(line).toBe(`job vault.send-transfer failed: HTTP request failed. URL: https://base-mainnet.g.example.com/${REDACTION_MARKER} details: x`);
    expect(scrubText('connect to https://user:s3cret@rpc.example.com:8545 refused')).toBe('connect to https://rpc.example.com:8545 refused');
    expect(scrubText('listening on http://127.0.0.1:3000')).toBe('listening on http://127.0.0.1:3000');
  });

  it('is applied by the root logger to every message, text field and error, however the line is logged', () => {
    const lines: string[] = [];
    const logger = createRootLogger(loadConfig({ NODE_ENV: 'test' }), { write: (line: string) => void lines.push(line) });
    const url = 'https://base-mainnet.g.example.com/v2/ProviderKey1234567';
    logger.warn(`job 42 failed (attempt 3): HTTP request failed. URL: ${url}`);
    logger.warn({ chain: 'base', err: `RPC ${url} down` }, 'chain not read');
    logger.error({ err: new Error(`request to ${url} failed`) }, 'boom');
    expect(lines).toHaveLength(3);
    expect(lines.join('\n')).not.toContain('ProviderKey1234567');
    expect(lines.join('\n')).toContain('https://base-mainnet.g.example.com/[Redacted]');
  });

  it('masks credential shapes and leaves ids, UUIDs and hashes alone', () => {
    const text = `pobo_3f9a0c1d2e3f4a5b6c7d8e9f 9b2c5a1e-7c1d-4e0f-9a8b-1c2d3e4f5a6b ${'ab'.repeat(32)} token q3J0Z2h5U2Vzc2lvblRva2VuT2ZGb3J0eVRocmVlQ2g`;
    expect(scrubText(text)).toBe(`pobo_3f9a0c1d2e3f4a5b6c7d8e9f 9b2c5a1e-7c1d-4e0f-9a8b-1c2d3e4f5a6b ${'ab'.repeat(32)} token ${REDACTION_MARKER}`);
  });
});

describe('logDestination', () => {
  const key = 'mk_test_3bTqvCrJ3Zz7WZQ5tJmFq1x2y3z4A5B6C7D8E9';
  const terminal = () => {
    const lines: string[] = [];
    return { isTTY: true, write: (text: string) => lines.push(text), lines };
  };

  it('prints readable, redacted lines on a terminal in development', () => {
    const config = loadConfig({ NODE_ENV: 'development' });
    const out = terminal();
    const logger = createRootLogger(config, logDestination(config, out));
    logger.warn(
      {
        request: { id: 'req_1', method: 'GET', url: '/api/merchant/pobo/users', headers: maskHeaders({ 'x-api-key': key, authorization: `Bearer ${key}` }) },
        response: { statusCode: 401 },
        responseTime: 3,
      },
      'request completed',
    );

    // Colours follow the environment running the tests (FORCE_COLOR, NO_COLOR); the text is what matters.
    const text = out.lines.join('').replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
    expect(text).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] WARN: GET \/api\/merchant\/pobo\/users 401 3.0 ms: request completed\n/);
    expect(text).toContain('"id": "req_1"');
    expect(() => JSON.parse(out.lines[0])).toThrow();
    expect(text).toContain(REDACTION_MARKER);
    expect(text).not.toContain(key.slice(8));
  });

  it.each([
    ['stdout is not a terminal', 'development', false],
    ['in production, even on a terminal', 'production', true],
  ])('writes JSON when %s', (_, env, isTTY) => {
    const loadPretty = jest.fn();
    const out = { ...terminal(), isTTY };
    const destination = logDestination({ env: env as 'development' | 'production' }, out, loadPretty);
    expect(loadPretty).not.toHaveBeenCalled();
    expect(destination).toHaveProperty('fd', 1);
  });

  it('falls back to JSON when pino-pretty is not installed', () => {
    const out = terminal();
    const destination = logDestination({ env: 'development' }, out, () => undefined);
    expect(destination).toHaveProperty('fd', 1);
    expect(out.lines).toEqual([]);
  });
});
