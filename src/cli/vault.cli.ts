import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '../config/app.config';
import type { ChainName } from '../config/vault-chains.config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { MetricsModule } from '../modules/metrics';
import { CHAIN_CLIENTS, ChainClients, ChainsModule, describeChainError } from '../modules/chains';
import { WalletSigner, WalletsModule } from '../modules/wallets';
import { assertDependenciesReachable } from '../startup/preflight';
import { runCli } from './run-cli';

/** A key's balance on a chain, or why it could not be read. */
type Reading = { balance: string } | { error: string };

/**
 * `vault:platform`: the platform's own addresses, which the operator funds, and what each holds of
 * its chain's coin now (smallest units, as strings: wei, lamports): the EVM gas wallet on every
 * EVM chain (it tops vaults up with gas for their transfers out) and the Solana fee payer. A chain
 * that does not answer shows its error instead. Prints one line of JSON; exits 1 when a chain
 * could not be read.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  await assertDependenciesReachable(config, { redis: false });
  const app = await NestFactory.createApplicationContext(
    { module: class VaultCliModule {}, imports: [ConfigModule.forRoot(config), DatabaseModule, MetricsModule, WalletsModule, ChainsModule] },
    { logger: false },
  );
  try {
    const platform = await app.get(WalletSigner).platformAddresses();
    const clients = app.get<ChainClients>(CHAIN_CLIENTS);
    const readings = await Promise.all(
      [...clients.values()].map(async (client): Promise<[ChainName, Reading]> => {
        const owner = client.name === 'solana' ? platform.svm : platform.evm;
        try {
          return [client.name, { balance: String(await client.nativeBalance(owner)) }];
        } catch (err) {
          return [client.name, { error: describeChainError(err) }];
        }
      }),
    );
    const of = (solana: boolean): Record<string, Reading> => Object.fromEntries(readings.filter(([name]) => (name === 'solana') === solana));
    process.stdout.write(
      `${JSON.stringify({ gasWallet: { address: platform.evm, chains: of(false) }, feePayer: { address: platform.svm, chains: of(true) } })}\n`,
    );
    process.exitCode = readings.some(([, reading]) => 'error' in reading) ? 1 : 0;
  } finally {
    await app.close();
  }
}

runCli(main);
