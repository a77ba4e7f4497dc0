import { callbackUrlProblem } from '../common/callbacks';
import { MAX_SETTLEMENT_STEP_MS } from '../common/cross-border';
import { envInt, envString, runSandbox, startSandbox } from '../common/run';
import { createBridgeRailServer, DEFAULT_BRIDGE_RAIL_API_KEY, DEFAULT_BRIDGE_RAIL_WEBHOOK_SECRET, DEFAULT_SETTLEMENT_STEP_MS } from './bridge-rail.server';

/**
 * `node -r ts-node/register/transpile-only sandbox/bridge-rail/main.ts`
 * (or `node dist/sandbox/bridge-rail/main.js` after `npm run build`).
 */
startSandbox('bridge-rail', async () => {
  const port = envInt('SANDBOX_BRIDGE_RAIL_PORT', 4030, 0, 65535);
  const apiKey = envString('BRIDGE_RAIL_API_KEY', DEFAULT_BRIDGE_RAIL_API_KEY);
  const webhookSecret = envString('BRIDGE_RAIL_WEBHOOK_SECRET', DEFAULT_BRIDGE_RAIL_WEBHOOK_SECRET);
  const callbackUrl = envString('SANDBOX_BRIDGE_RAIL_CALLBACK_URL', '') || null;
  const problem = callbackUrl === null ? null : callbackUrlProblem(callbackUrl);
  if (problem !== null) throw new Error(`SANDBOX_BRIDGE_RAIL_CALLBACK_URL ${problem}`);
  const settlementStepMs = envInt('SANDBOX_SETTLEMENT_STEP_MS', DEFAULT_SETTLEMENT_STEP_MS, 0, MAX_SETTLEMENT_STEP_MS);
  const app = createBridgeRailServer({ apiKey, webhookSecret, callbackUrl, settlementStepMs });
  await runSandbox('bridge-rail', app, port, `settlement step ${settlementStepMs} ms, ${callbackUrl ? `callbacks to ${callbackUrl}` : 'no callback URL'}`);
});
