import type { FastifyInstance } from 'fastify';
import { generateKeyPairSigner } from '@solana/kit';
import { startEvmChains, mintUsdc, DEV_USDC_ADDRESS, type LocalEvmChain } from '../../../sandbox/chains/evm-chains';
import { DEV_USDC_MINT, SolanaChain } from '../../../sandbox/chains/solana-chain';
import { createSolanaRpcServer } from '../../../sandbox/chains/solana-rpc.server';
import { loadConfig } from '../../config/app.config';
import { DEV_EVM_USDC_ADDRESS, DEV_SOLANA_USDC_MINT } from '../../config/dev-secrets';
import type { ChainClient } from './chain-client';
import { createChainClients } from './chain-clients';
import { EvmChainClient } from './evm-chain.client';

const VAULT: `0x${string}` = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const OTHER: `0x${string}` = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

/**
 * The vault's chain clients against the local chains (Hardhat networks, LiteSVM behind JSON-RPC):
 * what the deposit scanner reads, head, transfers to its vaults with their blocks' hashes, a
 * reorganisation changing a hash, and balances. Configured by URL only, as in production.
 */
describe('chain clients', () => {
  let evm: { chains: LocalEvmChain[]; close(): Promise<void> };
  let solana: SolanaChain;
  let solanaRpc: FastifyInstance;
  let clients: ReadonlyMap<string, ChainClient>;

  beforeAll(async () => {
    evm = await startEvmChains([{ name: 'ethereum', chainId: 31337, port: 0 }], { host: '127.0.0.1', blockIntervalMs: 0 });
    solana = await SolanaChain.start();
    solanaRpc = createSolanaRpcServer(solana);
    const solanaUrl = await solanaRpc.listen({ host: '127.0.0.1', port: 0 });
    clients = createChainClients(loadConfig({ ETHEREUM_RPC_URL: evm.chains[0].rpcUrl, SOLANA_RPC_URL: solanaUrl, PROVIDER_TIMEOUT_MS: '2000' }));
  });

  afterAll(async () => {
    await solanaRpc?.close();
    await evm?.close();
  });

  it("configures development with the local chains' USDC, as the local chains deploy it", () => {
    expect(DEV_EVM_USDC_ADDRESS).toBe(DEV_USDC_ADDRESS);
    expect(DEV_SOLANA_USDC_MINT).toBe(DEV_USDC_MINT);
  });

  describe('EVM', () => {
    it('answers the configured chain id, and finds USDC transfers to the vaults asked about, in their blocks', async () => {
      const client = clients.get('ethereum') as EvmChainClient;
      await expect(client.chainId()).resolves.toBe(31337);
      const from = (await client.head()) + 1n;
      await mintUsdc(evm.chains[0], VAULT, 2_500_000n);
      await mintUsdc(evm.chains[0], OTHER, 9_000_000n);
      await mintUsdc(evm.chains[0], VAULT, 500_000n);
      const to = await client.head();
      expect(to - from).toBe(2n);

      const transfers = await client.usdcTransfersTo(new Set([VAULT]), from, to);
      expect(transfers.map((t) => [t.to, t.amount, t.block])).toEqual([
        [VAULT, 2_500_000n, from],
        [VAULT, 500_000n, to],
      ]);
      expect(transfers[0].from).toBe('0x0000000000000000000000000000000000000000');
      await expect(client.blockHash(from)).resolves.toBe(transfers[0].blockHash);
      await expect(client.blockHash(to + 10n)).resolves.toBeNull();
      await expect(client.usdcBalance(VAULT)).resolves.toBe(3_000_000n);
    });

    it('sees a reorganisation: the block at a height gets another hash, and the transfer is gone', async () => {
      const client = clients.get('ethereum')!;
      const snapshot = (await evm.chains[0].provider.request({ method: 'evm_snapshot' })) as string;
      await mintUsdc(evm.chains[0], VAULT, 1_000_000n);
      const height = await client.head();
      const hash = await client.blockHash(height);
      await evm.chains[0].provider.request({ method: 'evm_revert', params: [snapshot] });
      await evm.chains[0].provider.request({ method: 'evm_mine' });
      expect(await client.head()).toBe(height);
      expect(await client.blockHash(height)).not.toBe(hash);
      await expect(client.usdcTransfersTo(new Set([VAULT]), height, height)).resolves.toEqual([]);
    });
  });

  describe('Solana', () => {
    it('finds USDC credited to the vaults asked about, slot by slot, with the slot’s block hash', async () => {
      const client = clients.get('solana')!;
      const vault = await generateKeyPairSigner();
      const other = await generateKeyPairSigner();
      const from = (await client.head()) + 1n;
      const first = await solana.mint(vault.address, 4_000_000n);
      await solana.mint(other.address, 1_000_000n);
      await solana.mint(vault.address, 250_000n);
      solana.tick();
      const to = await client.head();

      const transfers = await client.usdcTransfersTo(new Set([vault.address]), from, to);
      expect(transfers.map((t) => [t.to, t.amount])).toEqual([
        [vault.address, 4_000_000n],
        [vault.address, 250_000n],
      ]);
      expect(transfers[0].txHash).toBe(first);
      expect(transfers[0].from).toBeNull();
      await expect(client.blockHash(transfers[0].block)).resolves.toBe(transfers[0].blockHash);
      await expect(client.blockHash(to)).resolves.toBeNull();
      await expect(client.usdcBalance(vault.address)).resolves.toBe(4_250_000n);
      await expect(client.usdcBalance((await generateKeyPairSigner()).address)).resolves.toBe(0n);
    });

    it('sees a fork: the slot of a dropped transaction has another block, or none', async () => {
      const client = clients.get('solana')!;
      const vault = await generateKeyPairSigner();
      const snapshot = solana.snapshot();
      await solana.mint(vault.address, 1_000_000n);
      const [transfer] = await client.usdcTransfersTo(new Set([vault.address]), (await client.head()) - 1n, await client.head());
      solana.revert(snapshot);
      await expect(client.blockHash(transfer.block)).resolves.toBeNull();
      await solana.mint((await generateKeyPairSigner()).address, 1n);
      const replaced = await client.blockHash(transfer.block);
      expect(replaced).not.toBeNull();
      expect(replaced).not.toBe(transfer.blockHash);
    });
  });
});
