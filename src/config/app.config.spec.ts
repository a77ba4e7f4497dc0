import { ConfigError, loadConfig } from './app.config';
import {
  DEV_BANK_RAIL_WEBHOOK_SECRET,
  DEV_BRIDGE_RAIL_WEBHOOK_SECRET,
  DEV_LINK_SIGNING_SECRET,
  DEV_PAYOUT_RAIL_API_KEY,
  DEV_WALLET_MNEMONIC,
} from './dev-secrets';

const PROD_SECRETS = {
  NODE_ENV: 'production',
  LINK_SIGNING_SECRET: 'a-real-production-secret-of-enough-length',
  WALLET_MNEMONIC: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
  VERIFICATION_PROVIDER_API_KEY: 'real-verification-key',
  BANK_RAIL_API_KEY: 'real-bank-rail-key',
  BANK_RAIL_WEBHOOK_SECRET: 'real-bank-rail-webhook-secret',
  BRIDGE_RAIL_API_KEY: 'real-bridge-rail-key',
  BRIDGE_RAIL_WEBHOOK_SECRET: 'real-bridge-rail-webhook-secret',
  PAYOUT_RAIL_API_KEY: 'real-payout-rail-key',
  PAYOUT_RAIL_WEBHOOK_SECRET: 'real-payout-rail-webhook-secret',
  SMTP_URL: 'smtps://mailer:real-smtp-password@smtp.example.com:465',
};

describe('loadConfig', () => {
  it('applies the documented development defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/merchant_api',
      redisUrl: 'redis://127.0.0.1:6379',
      publicBaseUrl: 'http://127.0.0.1:3000',
      linkSigningSecret: DEV_LINK_SIGNING_SECRET,
      walletMnemonic: DEV_WALLET_MNEMONIC,
      apiKeyPrefix: 'mk_test',
      idempotency: { lockMs: 30_000, retentionMs: 24 * 3_600_000 },
      withdrawalFeeMinor: 0,
    });
  });

  it('derives PUBLIC_BASE_URL from PORT and strips a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com/' }).publicBaseUrl).toBe('https://api.example.com');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://x'],
    ['PUBLIC_BASE_URL', 'not a url'],
    ['NODE_ENV', 'staging'],
    ['LINK_SIGNING_SECRET', 'short'],
  ])('refuses a bad %s and names it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}:`));
  });

  it.each([
    'LINK_SIGNING_SECRET',
    'WALLET_MNEMONIC',
    'VERIFICATION_PROVIDER_API_KEY',
    'BANK_RAIL_API_KEY',
    'BANK_RAIL_WEBHOOK_SECRET',
    'BRIDGE_RAIL_API_KEY',
    'BRIDGE_RAIL_WEBHOOK_SECRET',
    'PAYOUT_RAIL_API_KEY',
    'PAYOUT_RAIL_WEBHOOK_SECRET',
  ])('refuses to boot in production without %s', (name) => {
    const env: Record<string, string> = { ...PROD_SECRETS };
    delete env[name];
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name}: required in production`));
  });

  it('refuses the development secrets in production, without echoing them', () => {
    for (const [name, value] of [
      ['LINK_SIGNING_SECRET', DEV_LINK_SIGNING_SECRET],
      ['WALLET_MNEMONIC', DEV_WALLET_MNEMONIC],
      ['BANK_RAIL_WEBHOOK_SECRET', DEV_BANK_RAIL_WEBHOOK_SECRET],
      ['BRIDGE_RAIL_WEBHOOK_SECRET', DEV_BRIDGE_RAIL_WEBHOOK_SECRET],
      ['PAYOUT_RAIL_API_KEY', DEV_PAYOUT_RAIL_API_KEY],
    ]) {
      let message = '';
      try {
        loadConfig({ ...PROD_SECRETS, [name]: value });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toContain(name);
      expect(message).not.toContain(value);
    }
  });

  it('refuses to boot in production without SMTP_URL, never echoing a URL given', () => {
    const { SMTP_URL: _smtp, ...withoutSmtp } = PROD_SECRETS;
    expect(() => loadConfig(withoutSmtp)).toThrow(/SMTP_URL: required in production/);
    expect(loadConfig(PROD_SECRETS).mail.smtpUrl).toBe(PROD_SECRETS.SMTP_URL);
    expect(() => loadConfig({ ...PROD_SECRETS, SMTP_URL: 'http://smtp.example.com' })).toThrow(/SMTP_URL must be an smtp/);
    expect(loadConfig({}).mail.smtpUrl).toBe('smtp://127.0.0.1:1025');
  });

  it('defaults to live keys in production', () => {
    expect(loadConfig(PROD_SECRETS).apiKeyPrefix).toBe('mk_live');
  });
});
