import { envInt, envString, runSandbox, startSandbox } from '../common/run';
import { createBankRailServer } from './bank-rail.server';

/**
 * `node -r ts-node/register/transpile-only sandbox/bank-rail/main.ts`
 * (or `node dist/sandbox/bank-rail/main.js` after `npm run build`).
 */
startSandbox('bank-rail', async () => {
  const port = envInt('SANDBOX_BANK_RAIL_PORT', 4020, 0, 65535);
  const apiKey = envString('BANK_RAIL_API_KEY', 'sandbox-bank-rail-key');
  await runSandbox('bank-rail', createBankRailServer({ apiKey }), port);
});
