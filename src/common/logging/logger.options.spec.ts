import { loadConfig } from '../../config/app.config';
import { createRootLogger, logDestination, maskHeaders, maskUrl, REDACTION_MARKER } from './logger.options';

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

  it('leaves ordinary URLs alone and survives malformed escapes', () => {
    expect(maskUrl('/api/merchant/pobo/users?limit=10&cursor=pobo_abc')).toBe('/api/merchant/pobo/users?limit=10&cursor=pobo_abc');
    expect(maskUrl('/api/%E0%A4%A/%zz')).toBe('/api/%E0%A4%A/%zz');
  });
});

describe('maskHeaders', () => {
  const key = 'mk_live_3bTqvCrJ3Zz7WZQ5tJmFq1x2y3z4A5B6C7D8E9';

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
