import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsIP, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength } from 'class-validator';

const EXPLORER_TEMPLATE = /^https:\/\/[^\s{}]+\{txHash\}[^\s{}]*$/;

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));

/** A whole number from the environment, at least `min` (and at most `max` when given); unset or empty takes the default. */
function IntegerVariable(min: number, max?: number): PropertyDecorator {
  return applyDecorators(Transform(toInt), IsInt(), Min(min), ...(max === undefined ? [] : [Max(max)]));
}

/** Raw environment, validated once at boot. Names match the variables in `.env.example`. */
export class EnvironmentVariables {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @IntegerVariable(0, 65535)
  PORT = 3000;

  /** Where the API listens: loopback unless set (production's default is every interface, as a container needs). */
  @IsOptional()
  @IsIP(undefined, { message: 'HOST must be an IPv4 or IPv6 address' })
  HOST?: string;

  /**
   * The operator port of the API (metrics): never the public one. Unset: 9464, or any free port
   * under `NODE_ENV=test` (the suites start many processes at once); 0 is always any free port.
   */
  @IsOptional()
  @IntegerVariable(0, 65535)
  OPS_PORT?: number;

  /** The worker's operator port; unset: 9465 (any free port under `NODE_ENV=test`). */
  @IsOptional()
  @IntegerVariable(0, 65535)
  WORKER_OPS_PORT?: number;

  /**
   * `off`: the process counts nothing (no request histogram, no third-party timings, no process
   * metrics); its operator port still answers `/ready`, the board and the stuck work. For the
   * benchmark's measure of what counting costs, and for a deployment nobody scrapes.
   */
  @IsIn(['on', 'off'])
  OPS_METRICS: 'on' | 'off' = 'on';

  /** How often the worker runs `ledger:verify` itself and records the result (its gauges on the operator port). */
  @IntegerVariable(1000, 86_400_000)
  LEDGER_VERIFY_INTERVAL_MS = 900_000;

  /**
   * A money object still in a step this long after the step began is stuck: the operator port
   * lists it and counts it (a payment intent awaiting payment counts from its expiry instead).
   */
  @IntegerVariable(1000, 7 * 86_400_000)
  STUCK_AFTER_MS = 900_000;

  /** Where the operator ports listen: loopback unless set, in every environment. */
  @IsIP(undefined, { message: 'OPS_HOST must be an IPv4 or IPv6 address' })
  OPS_HOST = '127.0.0.1';

  /**
   * Where traces go, over OTLP/HTTP (the collector's base URL; `/v1/traces` is added). Unset:
   * tracing is off and nothing of OpenTelemetry is loaded. The exporter reads the other standard
   * `OTEL_*` variables (headers, batch delays) itself.
   */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an absolute http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

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

  @IntegerVariable(0, 300_000)
  API_KEY_CACHE_TTL_MS = 5_000;

  /** How long an API process trusts a dashboard session it looked up; changes elsewhere reach it sooner, through Redis. */
  @IntegerVariable(0, 60_000)
  DASHBOARD_SESSION_CACHE_TTL_MS = 5_000;

  @IntegerVariable(60)
  AGREEMENT_LINK_TTL_SECONDS = 7 * 24 * 3600;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @IntegerVariable(1)
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

  @IntegerVariable(100)
  PROVIDER_TIMEOUT_MS = 10_000;

  @IntegerVariable(100)
  KYB_REFRESH_TIMEOUT_MS = 1_500;

  @IntegerVariable(200)
  PERIODIC_JOB_INTERVAL_MS = 5_000;

  @IntegerVariable(0)
  DOCUMENT_RETENTION_HOURS = 72;

  @IntegerVariable(1)
  MAX_CONCURRENT_KYB_UPLOADS = 2;

  @IsString()
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'QUEUE_PREFIX may contain letters, digits, _ and - only' })
  QUEUE_PREFIX = 'merchant-api';

  @IntegerVariable(1000)
  JOB_LOCK_MS = 30_000;

  /** Milliseconds after each failed webhook attempt before the next, comma-separated; after the last, the delivery is given up. */
  @Matches(/^\d+(,\d+)*$/, { message: 'WEBHOOK_RETRY_SCHEDULE_MS must be comma-separated milliseconds' })
  WEBHOOK_RETRY_SCHEDULE_MS = '5000,300000,1800000,7200000,18000000,36000000,36000000';

  @IntegerVariable(100)
  WEBHOOK_TIMEOUT_MS = 15_000;

  /** An endpoint that failed every attempt for this long is disabled (5 days). */
  @IntegerVariable(1000)
  WEBHOOK_DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

  /** `strict`: https only, and no private, loopback or reserved addresses. Defaults to strict in production, `open` elsewhere. */
  @IsOptional()
  @IsIn(['strict', 'open'])
  WEBHOOK_URL_POLICY?: 'strict' | 'open';

  /** DNS servers (`host[:port]`, comma-separated) that resolve webhook hosts; the system's resolver when unset. */
  @IsOptional()
  @Matches(/^[0-9a-fA-F.:[\]]+(,[0-9a-fA-F.:[\]]+)*$/, { message: 'WEBHOOK_DNS_SERVERS must be comma-separated addresses' })
  WEBHOOK_DNS_SERVERS?: string;

  /** Webhook requests one worker process has in flight at once, over all endpoints, and per endpoint. */
  @IntegerVariable(1)
  WEBHOOK_CONCURRENCY = 64;

  @IntegerVariable(1)
  WEBHOOK_ENDPOINT_CONCURRENCY = 4;

  @IntegerVariable(0)
  SANDBOX_REVIEW_DELAY_MS = 2_000;

  @IntegerVariable(0, 65535)
  SANDBOX_VERIFICATION_PORT = 4010;

  @IntegerVariable(0, 65535)
  SANDBOX_BANK_RAIL_PORT = 4020;

  @IntegerVariable(0, 65535)
  SANDBOX_BRIDGE_RAIL_PORT = 4030;

  @IntegerVariable(0, 65535)
  SANDBOX_PAYOUT_RAIL_PORT = 4040;

  @IntegerVariable(0, 3_600_000)
  SANDBOX_SETTLEMENT_STEP_MS = 1_000;

  @IntegerVariable(0, 65535)
  SANDBOX_SMTP_PORT = 1025;

  @IntegerVariable(0, 65535)
  SANDBOX_INBOX_PORT = 1080;

  // The vault's chains (see docs/operations.md): each one's JSON-RPC URL (required in production),
  // its USDC (an ERC-20 contract, or an SPL mint), the confirmations a deposit waits for, and the
  // network fee a transfer out charges, in USDC, and a block explorer's transaction page ({txHash}
  // stands for the hash; the public explorers by default in production, none in development).
  // Development's defaults are the local chains.

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'ETHEREUM_RPC_URL must be an absolute http(s) URL' })
  ETHEREUM_RPC_URL?: string;

  @IsOptional()
  @IntegerVariable(1)
  ETHEREUM_CHAIN_ID?: number;

  @IsOptional()
  @Matches(/^0x[0-9a-fA-F]{40}$/, { message: 'ETHEREUM_USDC_ADDRESS must be a 0x-prefixed 20-byte hex address' })
  ETHEREUM_USDC_ADDRESS?: string;

  @IsOptional()
  @IntegerVariable(1, 10_000)
  ETHEREUM_CONFIRMATIONS?: number;

  @IsOptional()
  @Matches(/^\d{1,6}(\.\d{1,6})?$/, { message: 'ETHEREUM_NETWORK_FEE_USDC must be an amount of USDC with at most 6 decimals' })
  ETHEREUM_NETWORK_FEE_USDC?: string;

  @IsOptional()
  @Matches(EXPLORER_TEMPLATE, { message: 'ETHEREUM_EXPLORER_TX_URL must be an https URL with {txHash} in it' })
  ETHEREUM_EXPLORER_TX_URL?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'POLYGON_RPC_URL must be an absolute http(s) URL' })
  POLYGON_RPC_URL?: string;

  @IsOptional()
  @IntegerVariable(1)
  POLYGON_CHAIN_ID?: number;

  @IsOptional()
  @Matches(/^0x[0-9a-fA-F]{40}$/, { message: 'POLYGON_USDC_ADDRESS must be a 0x-prefixed 20-byte hex address' })
  POLYGON_USDC_ADDRESS?: string;

  @IsOptional()
  @IntegerVariable(1, 10_000)
  POLYGON_CONFIRMATIONS?: number;

  @IsOptional()
  @Matches(/^\d{1,6}(\.\d{1,6})?$/, { message: 'POLYGON_NETWORK_FEE_USDC must be an amount of USDC with at most 6 decimals' })
  POLYGON_NETWORK_FEE_USDC?: string;

  @IsOptional()
  @Matches(EXPLORER_TEMPLATE, { message: 'POLYGON_EXPLORER_TX_URL must be an https URL with {txHash} in it' })
  POLYGON_EXPLORER_TX_URL?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'BASE_RPC_URL must be an absolute http(s) URL' })
  BASE_RPC_URL?: string;

  @IsOptional()
  @IntegerVariable(1)
  BASE_CHAIN_ID?: number;

  @IsOptional()
  @Matches(/^0x[0-9a-fA-F]{40}$/, { message: 'BASE_USDC_ADDRESS must be a 0x-prefixed 20-byte hex address' })
  BASE_USDC_ADDRESS?: string;

  @IsOptional()
  @IntegerVariable(1, 10_000)
  BASE_CONFIRMATIONS?: number;

  @IsOptional()
  @Matches(/^\d{1,6}(\.\d{1,6})?$/, { message: 'BASE_NETWORK_FEE_USDC must be an amount of USDC with at most 6 decimals' })
  BASE_NETWORK_FEE_USDC?: string;

  @IsOptional()
  @Matches(EXPLORER_TEMPLATE, { message: 'BASE_EXPLORER_TX_URL must be an https URL with {txHash} in it' })
  BASE_EXPLORER_TX_URL?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'SOLANA_RPC_URL must be an absolute http(s) URL' })
  SOLANA_RPC_URL?: string;

  @IsOptional()
  @Matches(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, { message: 'SOLANA_USDC_MINT must be a base58 address' })
  SOLANA_USDC_MINT?: string;

  @IsOptional()
  @IntegerVariable(1, 10_000)
  SOLANA_CONFIRMATIONS?: number;

  @IsOptional()
  @Matches(/^\d{1,6}(\.\d{1,6})?$/, { message: 'SOLANA_NETWORK_FEE_USDC must be an amount of USDC with at most 6 decimals' })
  SOLANA_NETWORK_FEE_USDC?: string;

  @IsOptional()
  @Matches(EXPLORER_TEMPLATE, { message: 'SOLANA_EXPLORER_TX_URL must be an https URL with {txHash} in it' })
  SOLANA_EXPLORER_TX_URL?: string;

  /** How often the worker reads the chains for new blocks (deposits, confirmations, reorganisations). */
  @IntegerVariable(100, 600_000)
  VAULT_POLL_INTERVAL_MS = 2_000;

  /** The local chains' faucet, behind the vault's test helpers; never in production. */
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'CHAIN_FAUCET_URL must be an absolute http(s) URL' })
  CHAIN_FAUCET_URL = 'http://127.0.0.1:8540';

  @IsOptional()
  @IsString()
  CHAIN_FAUCET_API_KEY?: string;

  /** Where mail goes: `smtp://` or `smtps://`, credentials in the URL. Required in production. */
  @IsOptional()
  @Matches(/^smtps?:\/\/[^\s]+$/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsString()
  @MinLength(3)
  MAIL_FROM = 'Merchant Payments <no-reply@merchant-payments.localhost>';

  @IntegerVariable(100)
  DB_STATEMENT_TIMEOUT_MS = 10_000;

  @IntegerVariable(1)
  RATE_LIMIT_PER_SECOND = 100;

  @IntegerVariable(1)
  RATE_LIMIT_BURST = 200;

  @IntegerVariable(1)
  AUTH_FAILURE_LIMIT_PER_SECOND = 20;

  @IntegerVariable(1)
  LOGIN_FAILURE_LIMIT_PER_ACCOUNT = 10;

  @IntegerVariable(1)
  LOGIN_FAILURE_LIMIT_PER_IP = 100;

  @IntegerVariable(1)
  PUBLIC_RATE_LIMIT_PER_SECOND = 20;

  @IntegerVariable(1)
  PUBLIC_RATE_LIMIT_BURST = 40;

  @IntegerVariable(10, 5_000)
  RATE_LIMIT_REDIS_TIMEOUT_MS = 100;

  @IntegerVariable(100)
  BODY_IDLE_TIMEOUT_MS = 10_000;

  @IntegerVariable(0)
  BODY_MIN_BYTES_PER_SECOND = 10_240;

  @IntegerVariable(100)
  SHUTDOWN_TIMEOUT_MS = 20_000;

  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'BANK_RAIL_WEBHOOK_SECRET must be at least 16 characters' })
  BANK_RAIL_WEBHOOK_SECRET?: string;

  @IntegerVariable(1000, 600_000)
  IDEMPOTENCY_LOCK_MS = 30_000;

  @IntegerVariable(24)
  IDEMPOTENCY_RETENTION_HOURS = 24;

  /** `ledger:verify` fails once a receivable (money a rail owes back) has been open this long. */
  @IntegerVariable(0)
  LEDGER_RECEIVABLE_MAX_AGE_HOURS = 72;

  /**
   * `ledger:verify` leaves out of its reconciliation with the rails a payment that it or a rail
   * changed this recently: a callback on its way is not a difference.
   */
  @IntegerVariable(0, 86_400)
  LEDGER_RECONCILE_GRACE_SECONDS = 300;

  /** Flat fee per withdrawal, in kobo. */
  @IntegerVariable(0, 100_000_000)
  WITHDRAWAL_FEE_KOBO = 0;

  @IntegerVariable(0)
  SANDBOX_PAYOUT_DELAY_MS = 200;
}
