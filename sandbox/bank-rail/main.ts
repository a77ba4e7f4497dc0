import { envInt, envString, runSandbox, startSandbox } from '../common/run';
import { createBankRailServer, DEFAULT_BANK_RAIL_WEBHOOK_SECRET, DEFAULT_PAYOUT_DELAY_MS } from './bank-rail.server';
import { callbackUrlProblem } from './rail-callbacks';

/**
 * `node -r ts-node/register/transpile-only sandbox/bank-rail/main.ts`
 * (or `node dist/sandbox/bank-rail/main.js` after `npm run build`).
 */
startSandbox('bank-rail', async () => {
  const port = envInt('SANDBOX_BANK_RAIL_PORT', 4020, 0, 65535);
  const apiKey = envString('BANK_RAIL_API_KEY', 'sandbox-bank-rail-key');
  const webhookSecret = envString('BANK_RAIL_WEBHOOK_SECRET', DEFAULT_BANK_RAIL_WEBHOOK_SECRET);
  const callbackUrl = envString('SANDBOX_BANK_RAIL_CALLBACK_URL', '') || null;
  const problem = callbackUrl === null ? null : callbackUrlProblem(callbackUrl);
  if (problem !== null) throw new Error(`SANDBOX_BANK_RAIL_CALLBACK_URL ${problem}`);
  const payoutDelayMs = envInt('SANDBOX_PAYOUT_DELAY_MS', DEFAULT_PAYOUT_DELAY_MS, 0, 3_600_000);
  const app = createBankRailServer({ apiKey, webhookSecret, callbackUrl, payoutDelayMs });
  await runSandbox('bank-rail', app, port, callbackUrl ? `callbacks to ${callbackUrl}` : 'no callback URL');
});
