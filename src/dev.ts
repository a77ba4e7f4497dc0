import { join } from 'node:path';
import { ConfigError, loadConfig } from './config/app.config';
import { assertDependenciesReachable, DependenciesUnavailableError } from './startup/preflight';
import { superviseRoles } from './startup/supervisor';
import { BANK_RAIL_CALLBACK_PATH, BRIDGE_RAIL_CALLBACK_PATH, PAYOUT_RAIL_CALLBACK_PATH } from './modules/rail-events/rail-events.routes';

/**
 * `npm start`: the whole service on one machine with development defaults. Creates the database
 * and applies migrations once, then runs each role as its own process, as production does,
 * restarted with back-off when one exits (`superviseRoles`).
 */
const ROLES: Record<string, string> = {
  api: join(__dirname, 'main.js'),
  worker: join(__dirname, 'worker.js'),
};
/**
 * V8's young generation, per role; only settable at start, so the same flags are in
 * `npm run start:api` and `npm run start:worker`. The worker streams documents through short-lived
 * buffers (pg's result parsing, fetch); with V8's default 16 MB semi-spaces that garbage alone adds
 * tens of MB of RSS per upload before a scavenge, and 1 MB semi-spaces keep its memory near its
 * live data. The API is the other way round: fifty requests in flight keep their objects alive
 * across each scavenge, which then copies them and promotes many to the old generation; 64 MB
 * semi-spaces scavenge a quarter as often and let most of them die young. The bench measured a
 * fifth less CPU per request on reads and creates, for about 90 MB more RSS under load.
 */
const NODE_ARGS: Record<string, string[]> = { api: ['--max-semi-space-size=64'], worker: ['--max-semi-space-size=1'] };
/** The sandbox third parties, each its own HTTP server; never started in production. */
const SANDBOXES: Record<string, string> = {
  'sandbox-verification-provider': join(__dirname, '..', 'sandbox', 'verification-provider', 'main.js'),
  'sandbox-bank-rail': join(__dirname, '..', 'sandbox', 'bank-rail', 'main.js'),
  'sandbox-bridge-rail': join(__dirname, '..', 'sandbox', 'bridge-rail', 'main.js'),
  'sandbox-payout-rail': join(__dirname, '..', 'sandbox', 'payout-rail', 'main.js'),
  'sandbox-mail': join(__dirname, '..', 'sandbox', 'mail', 'main.js'),
  'sandbox-chains': join(__dirname, '..', 'sandbox', 'chains', 'main.js'),
};

async function main(): Promise<void> {
  const config = loadConfig();
  // Before any role starts: a missing service is reported once, here, instead of by each child.
  await assertDependenciesReachable(config, { databaseMayBeMissing: true });
  const { prepareDatabase } = await import('./database/migrate');
  await prepareDatabase(config);
  const roles = config.env === 'production' ? ROLES : { ...SANDBOXES, ...ROLES };
  process.stderr.write(`database ready; starting ${Object.keys(roles).join(', ')}\n`);

  const env = {
    ...process.env,
    SANDBOX_VERIFICATION_PORT: String(config.sandbox.verificationPort),
    SANDBOX_BANK_RAIL_PORT: String(config.sandbox.bankRailPort),
    SANDBOX_REVIEW_DELAY_MS: String(config.sandbox.reviewDelayMs),
    SANDBOX_PAYOUT_DELAY_MS: String(config.sandbox.payoutDelayMs),
    BANK_RAIL_WEBHOOK_SECRET: config.bankRail.webhookSecret,
    // The sandbox rails call the API back here; the API listens on every interface.
    SANDBOX_BANK_RAIL_CALLBACK_URL: `http://127.0.0.1:${config.port}${BANK_RAIL_CALLBACK_PATH}`,
    SANDBOX_BRIDGE_RAIL_PORT: String(config.sandbox.bridgeRailPort),
    SANDBOX_PAYOUT_RAIL_PORT: String(config.sandbox.payoutRailPort),
    SANDBOX_SETTLEMENT_STEP_MS: String(config.sandbox.settlementStepMs),
    SANDBOX_SMTP_PORT: String(config.sandbox.smtpPort),
    SANDBOX_INBOX_PORT: String(config.sandbox.inboxPort),
    BRIDGE_RAIL_API_KEY: config.bridgeRail.apiKey,
    BRIDGE_RAIL_WEBHOOK_SECRET: config.bridgeRail.webhookSecret,
    PAYOUT_RAIL_API_KEY: config.payoutRail.apiKey,
    PAYOUT_RAIL_WEBHOOK_SECRET: config.payoutRail.webhookSecret,
    SANDBOX_BRIDGE_RAIL_CALLBACK_URL: `http://127.0.0.1:${config.port}${BRIDGE_RAIL_CALLBACK_PATH}`,
    SANDBOX_PAYOUT_RAIL_CALLBACK_URL: `http://127.0.0.1:${config.port}${PAYOUT_RAIL_CALLBACK_PATH}`,
  };
  const supervisor = superviseRoles(
    Object.fromEntries(Object.entries(roles).map(([role, script]) => [role, { script, execArgv: NODE_ARGS[role] ?? [] }])),
    env,
  );
  process.on('SIGINT', () => supervisor.stop(0));
  process.on('SIGTERM', () => supervisor.stop(0));
}

main().catch((err: unknown) => {
  const expected = err instanceof ConfigError || err instanceof DependenciesUnavailableError;
  process.stderr.write(`${expected ? err.message : `start failed: ${(err as Error).stack ?? String(err)}`}\n`);
  process.exit(1);
});
