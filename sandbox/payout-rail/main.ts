import { callbackUrlProblem } from '../common/callbacks';
import { MAX_SETTLEMENT_STEP_MS } from '../common/cross-border';
import { envInt, envString, runSandbox, startSandbox } from '../common/run';
import { createPayoutRailServer, DEFAULT_PAYOUT_RAIL_API_KEY, DEFAULT_PAYOUT_RAIL_WEBHOOK_SECRET, DEFAULT_SETTLEMENT_STEP_MS } from './payout-rail.server';

/**
 * `node -r ts-node/register/transpile-only sandbox/payout-rail/main.ts`
 * (or `node dist/sandbox/payout-rail/main.js` after `npm run build`).
 */
startSandbox('payout-rail', async () => {
  const port = envInt('SANDBOX_PAYOUT_RAIL_PORT', 4040, 0, 65535);
  const apiKey = envString('PAYOUT_RAIL_API_KEY', DEFAULT_PAYOUT_RAIL_API_KEY);
  const webhookSecret = envString('PAYOUT_RAIL_WEBHOOK_SECRET', DEFAULT_PAYOUT_RAIL_WEBHOOK_SECRET);
  const callbackUrl = envString('SANDBOX_PAYOUT_RAIL_CALLBACK_URL', '') || null;
  const problem = callbackUrl === null ? null : callbackUrlProblem(callbackUrl);
  if (problem !== null) throw new Error(`SANDBOX_PAYOUT_RAIL_CALLBACK_URL ${problem}`);
  const settlementStepMs = envInt('SANDBOX_SETTLEMENT_STEP_MS', DEFAULT_SETTLEMENT_STEP_MS, 0, MAX_SETTLEMENT_STEP_MS);
  const app = createPayoutRailServer({ apiKey, webhookSecret, callbackUrl, settlementStepMs });
  await runSandbox('payout-rail', app, port, `settlement step ${settlementStepMs} ms, ${callbackUrl ? `callbacks to ${callbackUrl}` : 'no callback URL'}`);
});
