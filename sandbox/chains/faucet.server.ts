import Fastify, { FastifyInstance, FastifyReply } from 'fastify';
import { isAddress as isEvmAddress, type Address as EvmAddress } from 'viem';
import { installSandboxCommon } from '../common/faults';
import { isRecord } from '../common/validation';
import { blacklistOnUsdc, LocalEvmChain, mintUsdc } from './evm-chains';
import { isAddress as isSolanaAddress, SolanaChain } from './solana-chain';

/** The most one faucet call sends: 1,000,000 USDC in micro-USDC. */
export const MAX_FAUCET_AMOUNT = 1_000_000_000_000n;
export const DEFAULT_FAUCET_API_KEY = 'sandbox-chains-key';

/** What the faucet does on one chain, whatever its kind. */
interface FaucetChain {
  isAddress(value: string): boolean;
  mint(to: string, amount: bigint): Promise<string>;
  blacklist(account: string): Promise<string>;
}

/**
 * The local chains' faucet, for the service's test helpers: real on-chain transactions of the
 * USDC's owner (a mint to an address, a blacklisting: Circle's blacklist on the EVM chains, a
 * frozen token account on Solana), answered with their hashes. A mint with the `key` of an earlier
 * one is that one. `GET /v1/chains` lists the chains,
 * their RPC URLs and the USDC's address or mint.
 */
export function createFaucetServer(options: { apiKey: string; evm: LocalEvmChain[]; solana: { chain: SolanaChain; rpcUrl: string } }): FastifyInstance {
  const app = Fastify({ logger: false });
  installSandboxCommon(app, { apiKey: options.apiKey, onReset: () => undefined });
  const chains = new Map<string, FaucetChain>(
    options.evm.map((chain) => [
      chain.name,
      {
        isAddress: (value) => isEvmAddress(value, { strict: false }),
        mint: (to, amount) => mintUsdc(chain, to as EvmAddress, amount),
        blacklist: (account) => blacklistOnUsdc(chain, account as EvmAddress),
      },
    ]),
  );
  const solana = options.solana.chain;
  chains.set('solana', {
    isAddress: isSolanaAddress,
    mint: (to, amount) => solana.mint(to as Parameters<SolanaChain['mint']>[0], amount),
    blacklist: (account) => solana.freeze(account as Parameters<SolanaChain['freeze']>[0]),
  });

  // A mint sent again with its `key` (a retried request) is the same mint.
  const minted = new Map<string, string>();

  app.get('/v1/chains', () => ({
    evm: options.evm.map((chain) => ({ name: chain.name, chainId: chain.chainId, rpcUrl: chain.rpcUrl, usdc: chain.usdc })),
    solana: { name: 'solana', rpcUrl: options.solana.rpcUrl, usdcMint: options.solana.chain.usdcMint },
  }));

  const chainOf = (name: string, reply: FastifyReply): FaucetChain | undefined => {
    const chain = chains.get(name);
    if (!chain) void reply.code(404).send({ error: 'unknown_chain' });
    return chain;
  };

  app.post<{ Params: { chain: string } }>('/v1/:chain/mint', async (request, reply) => {
    const chain = chainOf(request.params.chain, reply);
    if (!chain) return reply;
    const to = isRecord(request.body) ? request.body.to : undefined;
    const amount = isRecord(request.body) ? request.body.amount : undefined;
    const details = [
      ...(typeof to === 'string' && chain.isAddress(to) ? [] : [{ field: 'to', message: `must be a ${request.params.chain} address` }]),
      ...(typeof amount === 'string' && /^[1-9][0-9]{0,15}$/.test(amount) && BigInt(amount) <= MAX_FAUCET_AMOUNT
        ? []
        : [{ field: 'amount', message: `must be a string of micro-USDC from 1 to ${MAX_FAUCET_AMOUNT}` }]),
    ];
    const key = isRecord(request.body) && typeof request.body.key === 'string' ? `${request.params.chain}\n${request.body.key}` : undefined;
    if (details.length > 0) return reply.code(422).send({ error: 'validation_failed', details });
    const earlier = key === undefined ? undefined : minted.get(key);
    if (earlier) return { txHash: earlier };
    const txHash = await chain.mint(to as string, BigInt(amount as string));
    if (key !== undefined) minted.set(key, txHash);
    return { txHash };
  });

  app.post<{ Params: { chain: string } }>('/v1/:chain/blacklist', async (request, reply) => {
    const chain = chainOf(request.params.chain, reply);
    if (!chain) return reply;
    const account = isRecord(request.body) ? request.body.address : undefined;
    if (typeof account !== 'string' || !chain.isAddress(account)) {
      return reply.code(422).send({ error: 'validation_failed', details: [{ field: 'address', message: `must be a ${request.params.chain} address` }] });
    }
    return { txHash: await chain.blacklist(account) };
  });

  return app;
}
