import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  DEV_LINK_SIGNING_SECRET,
  DEV_WALLET_MNEMONIC,
  DEV_VERIFICATION_PROVIDER_API_KEY,
  DEV_BANK_RAIL_API_KEY,
  DEV_BANK_RAIL_WEBHOOK_SECRET,
  DEV_BRIDGE_RAIL_API_KEY,
  DEV_BRIDGE_RAIL_WEBHOOK_SECRET,
  DEV_PAYOUT_RAIL_API_KEY,
  DEV_PAYOUT_RAIL_WEBHOOK_SECRET,
  DEV_CHAIN_FAUCET_API_KEY,
  DEV_EVM_USDC_ADDRESS,
  DEV_SOLANA_USDC_MINT,
} from './dev-secrets';
import { EnvironmentVariables } from './env.schema';
import { CHAIN_DEFAULTS, CHAIN_NAMES, ChainConfig, ChainName, LOCAL_CHAIN_IDS, microUsdc } from './vault-chains.config';

export interface AppConfig {
  env: 'development' | 'test' | 'production';
  port: number;
  /** The address the API listens on. */
  host: string;
  /** The operator ports (metrics), on `host`: the API's and the worker's (0: any free port). */
  ops: {
    host: string;
    apiPort: number;
    workerPort: number;
    /** Whether the process counts its metrics (`OPS_METRICS`). */
    metrics: boolean;
    /** How often the worker verifies the ledger on its own. */
    ledgerVerifyIntervalMs: number;
    /** How long past its step's start a money object counts as stuck. */
    stuckAfterMs: number;
  };
  /** The OTLP endpoint traces go to; null: tracing off. */
  tracing: { endpoint: string | null };
  databaseUrl: string;
  redisUrl: string;
  publicBaseUrl: string;
  /** The origin of `publicBaseUrl`: what a browser sends as `Origin` on the service's own pages. */
  publicOrigin: string;
  /** Served over HTTPS: cookies are `Secure` (and the session's `__Host-` prefixed). */
  secureCookies: boolean;
  linkSigningSecret: string;
  walletMnemonic: string;
  apiKeyPrefix: 'mk_test' | 'mk_live';
  apiKeyCacheTtlMs: number;
  /** How long an API process trusts a dashboard session it looked up (0: never cached); changes broadcast through Redis reach it sooner. */
  sessionCacheTtlMs: number;
  agreementLinkTtlSeconds: number;
  logLevel: string;
  dbPoolSize: number;
  dbStatementTimeoutMs: number;
  /** Fastify `trustProxy`: false (default), a hop count, or trusted proxy addresses. */
  trustProxy: false | number | string;
  verificationProvider: { url: string; apiKey: string };
  /** `webhookSecret` signs the rail's callbacks (HMAC-SHA256 over the timestamp and the raw body). */
  bankRail: { url: string; apiKey: string; webhookSecret: string };
  /** The cross-border legs of international payment intents; the bridge rail also quotes the rates. Callbacks signed as the bank rail's. */
  bridgeRail: { url: string; apiKey: string; webhookSecret: string };
  payoutRail: { url: string; apiKey: string; webhookSecret: string };
  /**
   * `lockMs`: the in-flight lock of an Idempotency-Key, longer than the slowest request; a retry
   * takes over a key whose holder died once it runs out. `retentionMs`: how long answers replay.
   */
  idempotency: { lockMs: number; retentionMs: number };
  /** How long a receivable may stay open before `ledger:verify` fails. */
  receivableMaxAgeMs: number;
  reconcileGraceMs: number;
  /** Flat fee of a withdrawal, in kobo. */
  withdrawalFeeMinor: number;
  /** Budget of one provider call from the worker (each attempt). */
  providerTimeoutMs: number;
  /** Budget of the refresh that GET …/onboarding does before answering. */
  kybRefreshTimeoutMs: number;
  periodicJobIntervalMs: number;
  documentRetentionHours: number;
  maxConcurrentKybUploads: number;
  queuePrefix: string;
  /**
   * A worker's lock on a job, renewed while it runs. A job whose worker died goes to another
   * between half of it and it plus a tenth (stalled-job checks run every tenth; see docs/architecture.md).
   */
  jobLockMs: number;
  sandbox: {
    reviewDelayMs: number;
    verificationPort: number;
    bankRailPort: number;
    payoutDelayMs: number;
    bridgeRailPort: number;
    payoutRailPort: number;
    /** How long each leg of an international payment takes in the sandbox rails. */
    settlementStepMs: number;
    /** The development mail server: SMTP, and the web inbox that shows what it received. */
    smtpPort: number;
    inboxPort: number;
  };
  mail: {
    /** `smtp://` or `smtps://`, credentials in the URL; the sandbox's outside production. */
    smtpUrl: string;
    /** The `From` of every message. */
    from: string;
  };
  rateLimit: {
    /** Sustained requests per second per API key. */
    perSecond: number;
    /** Most requests per API key in one second; the excess over `perSecond` refills every 10 s. */
    burst: number;
    /** Failed authentications (and rail callbacks failing their signature) per second per client IP. */
    authFailuresPerSecond: number;
    /** Failed dashboard logins per e-mail, and per client IP, in a 15-minute window; past either, 429 until the window moves on. */
    loginFailuresPerAccount: number;
    loginFailuresPerIp: number;
    /** Requests per second per client IP to the public pages and documents, and the burst above it (as per key). */
    publicPerSecond: number;
    publicBurst: number;
    /** Past this, a limiter's Redis call gives way to the in-process count (a hung Redis must not hang requests). */
    redisTimeoutMs: number;
  };
  /** A request body that sends nothing for `idleTimeoutMs`, or less than `minBytesPerSecond` after that long, gets 408. */
  body: { idleTimeoutMs: number; minBytesPerSecond: number };
  /** After SIGTERM, how long in-flight requests may take before every connection is closed. */
  shutdownTimeoutMs: number;
  /**
   * The vault's chains, in the order `ethereum`, `polygon`, `base`, `solana`; and the local
   * chains' faucet behind the test helpers (null in production); how often the worker reads the chains.
   */
  vault: { chains: ChainConfig[]; faucet: { url: string; apiKey: string } | null; pollIntervalMs: number };
  /**
   * Delivery of events to the merchants' endpoints: the wait after each failed attempt (the last
   * gives up), the time an attempt may take, how long an endpoint may fail before it is disabled,
   * the URL policy (`strict` refuses plain HTTP and non-public addresses), the DNS servers that
   * resolve endpoints' hosts (the system's when empty), and the requests in flight per worker
   * process, in all and per endpoint.
   */
  webhooks: {
    retryScheduleMs: number[];
    timeoutMs: number;
    disableAfterMs: number;
    urlPolicy: 'strict' | 'open';
    dnsServers: string[];
    concurrency: number;
    endpointConcurrency: number;
  };
}

export class ConfigError extends Error {}

/**
 * Parses and validates the environment. Throws a `ConfigError` naming every bad variable;
 * secret values are never echoed back.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = plainToInstance(EnvironmentVariables, raw, { exposeDefaultValues: true });
  const errors = validateSync(parsed, { skipMissingProperties: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }

  const production = parsed.NODE_ENV === 'production';
  const secret = (
    name:
      | 'LINK_SIGNING_SECRET'
      | 'WALLET_MNEMONIC'
      | 'VERIFICATION_PROVIDER_API_KEY'
      | 'BANK_RAIL_API_KEY'
      | 'BANK_RAIL_WEBHOOK_SECRET'
      | 'BRIDGE_RAIL_API_KEY'
      | 'BRIDGE_RAIL_WEBHOOK_SECRET'
      | 'PAYOUT_RAIL_API_KEY'
      | 'PAYOUT_RAIL_WEBHOOK_SECRET',
    devDefault: string,
  ) => {
    const value = parsed[name];
    if (production && (value === undefined || value === devDefault)) {
      throw new ConfigError(`Invalid configuration:\n  ${name}: required in production (the development default is refused)`);
    }
    return value ?? devDefault;
  };

  /** A setting with a development default that production must set itself (never echoed: a URL may hold credentials). */
  const required = (name: 'SMTP_URL', devDefault: string) => {
    const value = parsed[name];
    if (production && value === undefined) throw new ConfigError(`Invalid configuration:\n  ${name}: required in production`);
    return value ?? devDefault;
  };

  /** One chain of the vault: production names its RPC URL and never the local chains' USDC or chain ids. */
  const chain = (name: ChainName): ChainConfig => {
    const upper = name.toUpperCase() as Uppercase<ChainName>;
    const defaults = CHAIN_DEFAULTS[name];
    const refuse = (variable: string, why: string) => new ConfigError(`Invalid configuration:\n  ${variable}: ${why}`);
    const rpcUrl = parsed[`${upper}_RPC_URL`];
    if (production && rpcUrl === undefined) throw refuse(`${upper}_RPC_URL`, 'required in production');
    const settings = {
      rpcUrl: rpcUrl ?? `http://127.0.0.1:${defaults.dev.port}`,
      confirmations: parsed[`${upper}_CONFIRMATIONS`] ?? (production ? defaults.confirmations : defaults.dev.confirmations),
      networkFeeMicro: microUsdc(parsed[`${upper}_NETWORK_FEE_USDC`] ?? defaults.networkFeeUsdc),
      explorerTxUrl: parsed[`${upper}_EXPLORER_TX_URL`] ?? (production ? defaults.explorerTxUrl : null),
    };
    if (name === 'solana') {
      const usdcMint = parsed.SOLANA_USDC_MINT ?? (production ? defaults.usdc : defaults.dev.usdc);
      if (production && usdcMint === DEV_SOLANA_USDC_MINT) throw refuse('SOLANA_USDC_MINT', 'the local chain’s mint is refused in production');
      return { name: 'solana', kind: 'svm', usdcMint, ...settings };
    }
    const evm = upper as 'ETHEREUM' | 'POLYGON' | 'BASE';
    const usdc = parsed[`${evm}_USDC_ADDRESS`] ?? (production ? defaults.usdc : defaults.dev.usdc);
    const chainId = parsed[`${evm}_CHAIN_ID`] ?? (production ? defaults.chainId! : defaults.dev.chainId!);
    if (production && usdc.toLowerCase() === DEV_EVM_USDC_ADDRESS.toLowerCase())
      throw refuse(`${evm}_USDC_ADDRESS`, 'the local chains’ USDC is refused in production');
    if (production && LOCAL_CHAIN_IDS.includes(chainId)) throw refuse(`${evm}_CHAIN_ID`, 'a local chain id is refused in production');
    return { name, kind: 'evm', chainId, usdc, ...settings };
  };

  if (production && parsed.WEBHOOK_URL_POLICY === 'open') throw new ConfigError('Invalid configuration:\n  WEBHOOK_URL_POLICY: open is refused in production');
  const publicBaseUrl = (parsed.PUBLIC_BASE_URL ?? `http://127.0.0.1:${parsed.PORT}`).replace(/\/+$/, '');
  return {
    env: parsed.NODE_ENV,
    port: parsed.PORT,
    host: parsed.HOST ?? (production ? '0.0.0.0' : '127.0.0.1'),
    ops: {
      host: parsed.OPS_HOST,
      apiPort: parsed.OPS_PORT ?? (parsed.NODE_ENV === 'test' ? 0 : 9464),
      workerPort: parsed.WORKER_OPS_PORT ?? (parsed.NODE_ENV === 'test' ? 0 : 9465),
      metrics: parsed.OPS_METRICS === 'on',
      ledgerVerifyIntervalMs: parsed.LEDGER_VERIFY_INTERVAL_MS,
      stuckAfterMs: parsed.STUCK_AFTER_MS,
    },
    tracing: { endpoint: parsed.OTEL_EXPORTER_OTLP_ENDPOINT ?? null },
    databaseUrl: parsed.DATABASE_URL,
    redisUrl: parsed.REDIS_URL,
    publicBaseUrl,
    publicOrigin: new URL(publicBaseUrl).origin,
    secureCookies: new URL(publicBaseUrl).protocol === 'https:',
    linkSigningSecret: secret('LINK_SIGNING_SECRET', DEV_LINK_SIGNING_SECRET),
    walletMnemonic: secret('WALLET_MNEMONIC', DEV_WALLET_MNEMONIC),
    apiKeyPrefix: parsed.API_KEY_PREFIX ?? (production ? 'mk_live' : 'mk_test'),
    apiKeyCacheTtlMs: parsed.API_KEY_CACHE_TTL_MS,
    sessionCacheTtlMs: parsed.DASHBOARD_SESSION_CACHE_TTL_MS,
    agreementLinkTtlSeconds: parsed.AGREEMENT_LINK_TTL_SECONDS,
    logLevel: parsed.LOG_LEVEL,
    dbPoolSize: parsed.DB_POOL_SIZE,
    dbStatementTimeoutMs: parsed.DB_STATEMENT_TIMEOUT_MS,
    trustProxy: parsed.TRUST_PROXY === undefined ? false : /^\d+$/.test(parsed.TRUST_PROXY) ? Number(parsed.TRUST_PROXY) : parsed.TRUST_PROXY,
    verificationProvider: {
      url: parsed.VERIFICATION_PROVIDER_URL.replace(/\/+$/, ''),
      apiKey: secret('VERIFICATION_PROVIDER_API_KEY', DEV_VERIFICATION_PROVIDER_API_KEY),
    },
    bankRail: {
      url: parsed.BANK_RAIL_URL.replace(/\/+$/, ''),
      apiKey: secret('BANK_RAIL_API_KEY', DEV_BANK_RAIL_API_KEY),
      webhookSecret: secret('BANK_RAIL_WEBHOOK_SECRET', DEV_BANK_RAIL_WEBHOOK_SECRET),
    },
    bridgeRail: {
      url: parsed.BRIDGE_RAIL_URL.replace(/\/+$/, ''),
      apiKey: secret('BRIDGE_RAIL_API_KEY', DEV_BRIDGE_RAIL_API_KEY),
      webhookSecret: secret('BRIDGE_RAIL_WEBHOOK_SECRET', DEV_BRIDGE_RAIL_WEBHOOK_SECRET),
    },
    payoutRail: {
      url: parsed.PAYOUT_RAIL_URL.replace(/\/+$/, ''),
      apiKey: secret('PAYOUT_RAIL_API_KEY', DEV_PAYOUT_RAIL_API_KEY),
      webhookSecret: secret('PAYOUT_RAIL_WEBHOOK_SECRET', DEV_PAYOUT_RAIL_WEBHOOK_SECRET),
    },
    idempotency: { lockMs: parsed.IDEMPOTENCY_LOCK_MS, retentionMs: parsed.IDEMPOTENCY_RETENTION_HOURS * 3_600_000 },
    receivableMaxAgeMs: parsed.LEDGER_RECEIVABLE_MAX_AGE_HOURS * 3_600_000,
    reconcileGraceMs: parsed.LEDGER_RECONCILE_GRACE_SECONDS * 1000,
    withdrawalFeeMinor: parsed.WITHDRAWAL_FEE_KOBO,
    providerTimeoutMs: parsed.PROVIDER_TIMEOUT_MS,
    kybRefreshTimeoutMs: parsed.KYB_REFRESH_TIMEOUT_MS,
    periodicJobIntervalMs: parsed.PERIODIC_JOB_INTERVAL_MS,
    documentRetentionHours: parsed.DOCUMENT_RETENTION_HOURS,
    maxConcurrentKybUploads: parsed.MAX_CONCURRENT_KYB_UPLOADS,
    queuePrefix: parsed.QUEUE_PREFIX,
    jobLockMs: parsed.JOB_LOCK_MS,
    sandbox: {
      reviewDelayMs: parsed.SANDBOX_REVIEW_DELAY_MS,
      verificationPort: parsed.SANDBOX_VERIFICATION_PORT,
      bankRailPort: parsed.SANDBOX_BANK_RAIL_PORT,
      payoutDelayMs: parsed.SANDBOX_PAYOUT_DELAY_MS,
      bridgeRailPort: parsed.SANDBOX_BRIDGE_RAIL_PORT,
      payoutRailPort: parsed.SANDBOX_PAYOUT_RAIL_PORT,
      settlementStepMs: parsed.SANDBOX_SETTLEMENT_STEP_MS,
      smtpPort: parsed.SANDBOX_SMTP_PORT,
      inboxPort: parsed.SANDBOX_INBOX_PORT,
    },
    mail: {
      smtpUrl: required('SMTP_URL', `smtp://127.0.0.1:${parsed.SANDBOX_SMTP_PORT}`),
      from: parsed.MAIL_FROM,
    },
    rateLimit: {
      perSecond: parsed.RATE_LIMIT_PER_SECOND,
      burst: Math.max(parsed.RATE_LIMIT_BURST, parsed.RATE_LIMIT_PER_SECOND),
      authFailuresPerSecond: parsed.AUTH_FAILURE_LIMIT_PER_SECOND,
      loginFailuresPerAccount: parsed.LOGIN_FAILURE_LIMIT_PER_ACCOUNT,
      loginFailuresPerIp: parsed.LOGIN_FAILURE_LIMIT_PER_IP,
      publicPerSecond: parsed.PUBLIC_RATE_LIMIT_PER_SECOND,
      publicBurst: Math.max(parsed.PUBLIC_RATE_LIMIT_BURST, parsed.PUBLIC_RATE_LIMIT_PER_SECOND),
      redisTimeoutMs: parsed.RATE_LIMIT_REDIS_TIMEOUT_MS,
    },
    body: { idleTimeoutMs: parsed.BODY_IDLE_TIMEOUT_MS, minBytesPerSecond: parsed.BODY_MIN_BYTES_PER_SECOND },
    shutdownTimeoutMs: parsed.SHUTDOWN_TIMEOUT_MS,
    vault: {
      chains: CHAIN_NAMES.map(chain),
      pollIntervalMs: parsed.VAULT_POLL_INTERVAL_MS,
      faucet: production ? null : { url: parsed.CHAIN_FAUCET_URL.replace(/\/+$/, ''), apiKey: parsed.CHAIN_FAUCET_API_KEY ?? DEV_CHAIN_FAUCET_API_KEY },
    },
    webhooks: {
      retryScheduleMs: parsed.WEBHOOK_RETRY_SCHEDULE_MS.split(',').map(Number),
      timeoutMs: parsed.WEBHOOK_TIMEOUT_MS,
      disableAfterMs: parsed.WEBHOOK_DISABLE_AFTER_MS,
      urlPolicy: parsed.WEBHOOK_URL_POLICY ?? (production ? 'strict' : 'open'),
      dnsServers: parsed.WEBHOOK_DNS_SERVERS?.split(',') ?? [],
      concurrency: parsed.WEBHOOK_CONCURRENCY,
      endpointConcurrency: parsed.WEBHOOK_ENDPOINT_CONCURRENCY,
    },
  };
}

/** Nest injection token for the typed configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');
