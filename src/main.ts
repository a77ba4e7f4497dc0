import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/app.config';
import { createApp } from './app.factory';

/** HTTP API entrypoint (`npm run start:api`). Migrations are applied by `npm start` / `npm run migration:run`. */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  await app.listen({ port: config.port, host: '0.0.0.0' });
}

main().catch((err: unknown) => {
  // Config errors name the variable and never contain a secret value.
  process.stderr.write(`${err instanceof ConfigError ? err.message : 'API failed to start'}\n`);
  if (!(err instanceof ConfigError) && err instanceof Error) process.stderr.write(`${err.stack}\n`);
  process.exit(1);
});
