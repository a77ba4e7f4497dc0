import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

/**
 * Development-only secrets. Safe to publish because production refuses to boot with them
 * (see `assertProductionSecrets`). The mnemonic is the well-known Hardhat/Foundry test phrase.
 */
export const DEV_LINK_SIGNING_SECRET = 'dev-only-link-signing-secret-change-me';
export const DEV_WALLET_MNEMONIC = 'test test test test test test test test test test test junk';
export const DEV_VERIFICATION_PROVIDER_API_KEY = 'sandbox-verification-key';
export const DEV_BANK_RAIL_API_KEY = 'sandbox-bank-rail-key';
export const DEV_BANK_RAIL_WEBHOOK_SECRET = 'sandbox-bank-rail-webhook-secret';
export const DEV_BRIDGE_RAIL_API_KEY = 'sandbox-bridge-rail-key';
export const DEV_BRIDGE_RAIL_WEBHOOK_SECRET = 'sandbox-bridge-rail-webhook-secret';
export const DEV_PAYOUT_RAIL_API_KEY = 'sandbox-payout-rail-key';
export const DEV_PAYOUT_RAIL_WEBHOOK_SECRET = 'sandbox-payout-rail-webhook-secret';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));

/** Raw environment, validated once at boot. Names match the variables in `.env.example`. */
class EnvironmentVariables {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/merchant_api';

  @IsString()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'PUBLIC_BASE_URL must be an absolute http(s) URL' })
  PUBLIC_BASE_URL?: string;

  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'LINK_SIGNING_SECRET must be at least 32 characters' })
  LINK_SIGNING_SECRET?: string;

  @IsOptional()
  @IsString()
  WALLET_MNEMONIC?: string;

  /** Defaults to `mk_live` in production and `mk_test` elsewhere. */
  @IsOptional()
  @IsIn(['mk_test', 'mk_live'])
  API_KEY_PREFIX?: 'mk_test' | 'mk_live';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(300_000)
  API_KEY_CACHE_TTL_MS = 5_000;

  @Transform(toInt)
  @IsInt()
  @Min(60)
  AGREEMENT_LINK_TTL_SECONDS = 7 * 24 * 3600;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  DB_POOL_SIZE = 10;

  /** Hop count or comma-separated addresses/CIDRs of the load balancers whose X-Forwarded-For is believed. */
  @IsOptional()
  @Matches(/^(\d{1,2}|[0-9a-fA-F.:/,\s]+)$/, { message: 'TRUST_PROXY must be a hop count or a list of addresses/CIDRs' })
  TRUST_PROXY?: string;

  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'VERIFICATION_PROVIDER_URL must be an absolute http(s) URL' })
  VERIFICATION_PROVIDER_URL = 'http://127.0.0.1:4010';

  @IsOptional()
  @IsString()
  VERIFICATION_PROVIDER_API_KEY?: string;

  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'BANK_RAIL_URL must be an absolute http(s) URL' })
  BANK_RAIL_URL = 'http://127.0.0.1:4020';

  @IsOptional()
  @IsString()
  BANK_RAIL_API_KEY?: string;

  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'BRIDGE_RAIL_URL must be an absolute http(s) URL' })
  BRIDGE_RAIL_URL = 'http://127.0.0.1:4030';

  @IsOptional()
  @IsString()
  BRIDGE_RAIL_API_KEY?: string;

  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'BRIDGE_RAIL_WEBHOOK_SECRET must be at least 16 characters' })
  BRIDGE_RAIL_WEBHOOK_SECRET?: string;

  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'PAYOUT_RAIL_URL must be an absolute http(s) URL' })
  PAYOUT_RAIL_URL = 'http://127.0.0.1:4040';

  @IsOptional()
  @IsString()
  PAYOUT_RAIL_API_KEY?: string;

  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'PAYOUT_RAIL_WEBHOOK_SECRET must be at least 16 characters' })
  PAYOUT_RAIL_WEBHOOK_SECRET?: string;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  PROVIDER_TIMEOUT_MS = 10_000;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  KYB_REFRESH_TIMEOUT_MS = 1_500;

  @Transform(toInt)
  @IsInt()
  @Min(200)
  PERIODIC_JOB_INTERVAL_MS = 5_000;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  DOCUMENT_RETENTION_HOURS = 72;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAX_CONCURRENT_KYB_UPLOADS = 2;

  @IsString()
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'QUEUE_PREFIX may contain letters, digits, _ and - only' })
  QUEUE_PREFIX = 'merchant-api';

  @Transform(toInt)
  @IsInt()
  @Min(1000)
  JOB_LOCK_MS = 30_000;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  SANDBOX_REVIEW_DELAY_MS = 2_000;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  SANDBOX_VERIFICATION_PORT = 4010;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  SANDBOX_BANK_RAIL_PORT = 4020;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  SANDBOX_BRIDGE_RAIL_PORT = 4030;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  SANDBOX_PAYOUT_RAIL_PORT = 4040;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  SANDBOX_SETTLEMENT_STEP_MS = 1_000;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  DB_STATEMENT_TIMEOUT_MS = 10_000;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_PER_SECOND = 100;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_BURST = 200;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_FAILURE_LIMIT_PER_SECOND = 20;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  PUBLIC_RATE_LIMIT_PER_SECOND = 20;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  PUBLIC_RATE_LIMIT_BURST = 40;

  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(5_000)
  RATE_LIMIT_REDIS_TIMEOUT_MS = 100;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  BODY_IDLE_TIMEOUT_MS = 10_000;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  BODY_MIN_BYTES_PER_SECOND = 10_240;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  SHUTDOWN_TIMEOUT_MS = 20_000;

  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'BANK_RAIL_WEBHOOK_SECRET must be at least 16 characters' })
  BANK_RAIL_WEBHOOK_SECRET?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(600_000)
  IDEMPOTENCY_LOCK_MS = 30_000;

  @Transform(toInt)
  @IsInt()
  @Min(24)
  IDEMPOTENCY_RETENTION_HOURS = 24;

  /** `ledger:verify` fails once a receivable (money a rail owes back) has been open this long. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  LEDGER_RECEIVABLE_MAX_AGE_HOURS = 72;

  /**
   * `ledger:verify` leaves out of its reconciliation with the rails a payment that it or a rail
   * changed this recently: a callback on its way is not a difference.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400)
  LEDGER_RECONCILE_GRACE_SECONDS = 300;

  /** Flat fee per withdrawal, in kobo. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100_000_000)
  WITHDRAWAL_FEE_KOBO = 0;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  SANDBOX_PAYOUT_DELAY_MS = 200;
}

export interface AppConfig {
  env: 'development' | 'test' | 'production';
  port: number;
  databaseUrl: string;
  redisUrl: string;
  publicBaseUrl: string;
  linkSigningSecret: string;
  walletMnemonic: string;
  apiKeyPrefix: 'mk_test' | 'mk_live';
  apiKeyCacheTtlMs: number;
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
  };
  rateLimit: {
    /** Sustained requests per second per API key. */
    perSecond: number;
    /** Most requests per API key in one second; the excess over `perSecond` refills every 10 s. */
    burst: number;
    /** Failed authentications (and rail callbacks failing their signature) per second per client IP. */
    authFailuresPerSecond: number;
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

  return {
    env: parsed.NODE_ENV,
    port: parsed.PORT,
    databaseUrl: parsed.DATABASE_URL,
    redisUrl: parsed.REDIS_URL,
    publicBaseUrl: (parsed.PUBLIC_BASE_URL ?? `http://127.0.0.1:${parsed.PORT}`).replace(/\/+$/, ''),
    linkSigningSecret: secret('LINK_SIGNING_SECRET', DEV_LINK_SIGNING_SECRET),
    walletMnemonic: secret('WALLET_MNEMONIC', DEV_WALLET_MNEMONIC),
    apiKeyPrefix: parsed.API_KEY_PREFIX ?? (production ? 'mk_live' : 'mk_test'),
    apiKeyCacheTtlMs: parsed.API_KEY_CACHE_TTL_MS,
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
    },
    rateLimit: {
      perSecond: parsed.RATE_LIMIT_PER_SECOND,
      burst: Math.max(parsed.RATE_LIMIT_BURST, parsed.RATE_LIMIT_PER_SECOND),
      authFailuresPerSecond: parsed.AUTH_FAILURE_LIMIT_PER_SECOND,
      publicPerSecond: parsed.PUBLIC_RATE_LIMIT_PER_SECOND,
      publicBurst: Math.max(parsed.PUBLIC_RATE_LIMIT_BURST, parsed.PUBLIC_RATE_LIMIT_PER_SECOND),
      redisTimeoutMs: parsed.RATE_LIMIT_REDIS_TIMEOUT_MS,
    },
    body: { idleTimeoutMs: parsed.BODY_IDLE_TIMEOUT_MS, minBytesPerSecond: parsed.BODY_MIN_BYTES_PER_SECOND },
    shutdownTimeoutMs: parsed.SHUTDOWN_TIMEOUT_MS,
  };
}

/** Nest injection token for the typed configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');
