import { envInt, envString, runSandbox, startSandbox } from '../common/run';
import { createVerificationProviderServer } from './verification-provider.server';

/**
 * `node -r ts-node/register/transpile-only sandbox/verification-provider/main.ts`
 * (or `node dist/sandbox/verification-provider/main.js` after `npm run build`).
 */
startSandbox('verification-provider', async () => {
  const port = envInt('SANDBOX_VERIFICATION_PORT', 4010, 0, 65535);
  const reviewDelayMs = envInt('SANDBOX_REVIEW_DELAY_MS', 2000, 0, 86_400_000);
  const apiKey = envString('VERIFICATION_PROVIDER_API_KEY', 'sandbox-verification-key');
  const app = createVerificationProviderServer({ apiKey, reviewDelayMs });
  await runSandbox('verification-provider', app, port, `review delay ${reviewDelayMs} ms`);
});
