import { DEVELOPMENT_CHAINS, serviceEnvOf, STAGING_CHAINS, usdcAddressOf } from '../../sandbox/chains/profiles';
import { ConfigError, loadConfig } from './app.config';
import { explorerUrl } from './vault-chains.config';
import {
  DEV_BANK_RAIL_WEBHOOK_SECRET,
  DEV_BRIDGE_RAIL_WEBHOOK_SECRET,
  DEV_EVM_USDC_ADDRESS,
  DEV_LINK_SIGNING_SECRET,
  DEV_SOLANA_USDC_MINT,
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
  ETHEREUM_RPC_URL: 'https://eth.rpc.example.com/v2/real-key',
  POLYGON_RPC_URL: 'https://polygon.rpc.example.com/v2/real-key',
  BASE_RPC_URL: 'https://base.rpc.example.com/v2/real-key',
  SOLANA_RPC_URL: 'https://solana.rpc.example.com/real-key',
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

  it('accepts the staging local chains in production and refuses the development ones', () => {
    const urls = { ethereum: 'http://127.0.0.1:1', polygon: 'http://127.0.0.1:2', base: 'http://127.0.0.1:3', solana: 'http://127.0.0.1:4' };
    const staging = loadConfig({ ...PROD_SECRETS, ...serviceEnvOf(STAGING_CHAINS, urls) }).vault.chains;
    expect(staging.map((chain) => (chain.kind === 'evm' ? [chain.chainId, chain.usdc] : [chain.usdcMint]))).toEqual([
      [1_337_001, usdcAddressOf(STAGING_CHAINS)],
      [1_337_137, usdcAddressOf(STAGING_CHAINS)],
      [1_338_453, usdcAddressOf(STAGING_CHAINS)],
      [STAGING_CHAINS.solanaMint],
    ]);
    expect(() => loadConfig({ ...PROD_SECRETS, ...serviceEnvOf(DEVELOPMENT_CHAINS, urls) })).toThrow(/refused/);
  });

  it("points development at the local chains and production at the public chains' USDC, with what each must name itself", () => {
    const dev = loadConfig({}).vault;
    expect(dev.chains.map((chain) => [chain.name, chain.rpcUrl, chain.confirmations])).toEqual([
      ['ethereum', 'http://127.0.0.1:8545', 2],
      ['polygon', 'http://127.0.0.1:8546', 2],
      ['base', 'http://127.0.0.1:8547', 2],
      ['solana', 'http://127.0.0.1:8899', 2],
    ]);
    expect(dev.chains[0]).toMatchObject({ kind: 'evm', chainId: 31337, usdc: DEV_EVM_USDC_ADDRESS, networkFeeMicro: 2_000_000n });
    expect(dev.chains[3]).toMatchObject({ kind: 'svm', usdcMint: DEV_SOLANA_USDC_MINT, networkFeeMicro: 10_000n });
    expect(dev.faucet).toEqual({ url: 'http://127.0.0.1:8540', apiKey: 'sandbox-chains-key' });

    const production = loadConfig(PROD_SECRETS).vault;
    expect(production.faucet).toBeNull();
    expect(production.chains.map((chain) => (chain.kind === 'evm' ? [chain.chainId, chain.usdc] : [chain.usdcMint]))).toEqual([
      [1, '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
      [137, '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359'],
      [8453, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'],
      ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
    ]);
    expect(loadConfig({ ...PROD_SECRETS, BASE_CONFIRMATIONS: '20', BASE_NETWORK_FEE_USDC: '0.125' }).vault.chains[2]).toMatchObject({
      confirmations: 20,
      networkFeeMicro: 125_000n,
    });

    // Block explorers: the public ones in production, none for the local chains, each replaceable.
    expect(loadConfig(PROD_SECRETS).vault.chains.map((chain) => chain.explorerTxUrl)).toEqual([
      'https://etherscan.io/tx/{txHash}',
      'https://polygonscan.com/tx/{txHash}',
      'https://basescan.org/tx/{txHash}',
      'https://explorer.solana.com/tx/{txHash}',
    ]);
    expect(dev.chains.map((chain) => chain.explorerTxUrl)).toEqual([null, null, null, null]);
    const explorers = loadConfig({ BASE_EXPLORER_TX_URL: 'https://scan.example/base/tx/{txHash}?ref=dash' }).vault.chains;
    expect(explorerUrl(explorers, 'base', '0xabc')).toBe('https://scan.example/base/tx/0xabc?ref=dash');
    expect(explorerUrl(explorers, 'base', null)).toBeNull();
    expect(explorerUrl(explorers, 'ethereum', '0xabc')).toBeNull();
    expect(() => loadConfig({ BASE_EXPLORER_TX_URL: 'https://scan.example/base/tx/' })).toThrow(/BASE_EXPLORER_TX_URL must be an https URL with \{txHash\}/);
    expect(() => loadConfig({ BASE_EXPLORER_TX_URL: 'javascript:alert({txHash})' })).toThrow(/BASE_EXPLORER_TX_URL/);

    const { SOLANA_RPC_URL: _solana, ...withoutSolana } = PROD_SECRETS;
    expect(() => loadConfig(withoutSolana)).toThrow(/SOLANA_RPC_URL: required in production/);
    expect(() => loadConfig({ ...PROD_SECRETS, POLYGON_USDC_ADDRESS: DEV_EVM_USDC_ADDRESS })).toThrow(
      /POLYGON_USDC_ADDRESS: the local chains’ USDC is refused/,
    );
    expect(() => loadConfig({ ...PROD_SECRETS, SOLANA_USDC_MINT: DEV_SOLANA_USDC_MINT })).toThrow(/SOLANA_USDC_MINT: the local chain’s mint is refused/);
    expect(() => loadConfig({ ...PROD_SECRETS, ETHEREUM_CHAIN_ID: '31337' })).toThrow(/ETHEREUM_CHAIN_ID: a local chain id is refused/);
    expect(() => loadConfig({ ...PROD_SECRETS, ETHEREUM_NETWORK_FEE_USDC: '0.1234567' })).toThrow(/ETHEREUM_NETWORK_FEE_USDC must be an amount/);
    // A URL may carry a provider's key: a refusal never echoes it.
    let message = '';
    try {
      loadConfig({ ...PROD_SECRETS, ETHEREUM_RPC_URL: 'not a url real-key' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('ETHEREUM_RPC_URL');
    expect(message).not.toContain('real-key');
  });
});
