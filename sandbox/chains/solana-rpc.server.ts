import Fastify, { FastifyInstance } from 'fastify';
import { getCompiledTransactionMessageDecoder, getTransactionDecoder, getBase58Decoder, type Address } from '@solana/kit';
import { base64, fromBase64, isAddress, Recorded, RpcError, SolanaChain, uiTokenAmount } from './solana-chain';

type Params = unknown[];

const FINALIZED_DEPTH = 32n;

/**
 * Solana's JSON-RPC over the local chain: the methods the service's Solana adapter and its tests
 * call, answering in a validator's shapes (`context.slot`, base64 account data, token balances in
 * a transaction's meta), plus two of development's own: `sandbox_snapshot` and `sandbox_revert`.
 */
export function createSolanaRpcServer(chain: SolanaChain): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 2 * 1024 * 1024 });
  const context = () => ({ slot: Number(chain.slot), apiVersion: '2.2.0' });
  const requireAddress = (value: unknown): Address => {
    if (!isAddress(value)) throw new RpcError(-32602, 'Invalid param: not a base58 address');
    return value;
  };

  const methods: Record<string, (params: Params) => unknown> = {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': '2.2.0', 'feature-set': 0 }),
    getSlot: () => Number(chain.slot),
    getBlockHeight: () => Number(chain.slot),
    getLatestBlockhash: () => ({ context: context(), value: { blockhash: chain.latestBlockhash(), lastValidBlockHeight: Number(chain.slot + 150n) } }),
    getBalance: ([account]) => ({ context: context(), value: Number(chain.balance(requireAddress(account))) }),
    getMinimumBalanceForRentExemption: ([size]) => Number(chain.rentExemption(BigInt(Number(size) || 0))),
    getAccountInfo: ([account]) => ({ context: context(), value: accountInfo(chain, requireAddress(account)) }),
    getMultipleAccounts: ([accounts]) => ({
      context: context(),
      value: (Array.isArray(accounts) ? accounts : []).map((account) => accountInfo(chain, requireAddress(account))),
    }),
    getTokenAccountBalance: ([account]) => {
      const amount = chain.tokenAmount(requireAddress(account));
      if (amount === null) throw new RpcError(-32602, 'Invalid param: could not find account');
      return { context: context(), value: uiTokenAmount(amount) };
    },
    requestAirdrop: ([account, amount]) => {
      chain.airdrop(requireAddress(account), BigInt(Number(amount) || 0));
      return getBase58Decoder().decode(new Uint8Array(64));
    },
    sendTransaction: ([wire, config]) => {
      const encoding = (config as { encoding?: string } | undefined)?.encoding ?? 'base58';
      if (typeof wire !== 'string' || encoding !== 'base64') throw new RpcError(-32602, 'Invalid params: send base64-encoded transactions');
      return chain.send(fromBase64(wire));
    },
    getSignatureStatuses: ([signatures]) => ({
      context: context(),
      value: (Array.isArray(signatures) ? signatures : []).map((signature) => {
        const found = typeof signature === 'string' ? chain.transaction(signature) : undefined;
        if (!found) return null;
        const status = confirmationStatus(chain, found);
        return {
          slot: Number(found.slot),
          confirmations: status === 'finalized' ? null : Number(chain.slot - found.slot),
          err: null,
          status: { Ok: null },
          confirmationStatus: status,
        };
      }),
    }),
    getSignaturesForAddress: ([account, config]) => {
      const options = (config ?? {}) as { limit?: number; before?: string; until?: string };
      return chain
        .signaturesFor(requireAddress(account), { limit: Math.min(Number(options.limit) || 1000, 1000), before: options.before, until: options.until })
        .map((found) => ({
          signature: found.signature,
          slot: Number(found.slot),
          err: null,
          memo: null,
          blockTime: found.blockTime,
          confirmationStatus: confirmationStatus(chain, found),
        }));
    },
    getTransaction: ([signature]) => {
      const found = typeof signature === 'string' ? chain.transaction(signature) : undefined;
      return found ? { slot: Number(found.slot), blockTime: found.blockTime, ...transactionJson(found) } : null;
    },
    getBlock: ([slot, config]) => {
      const block = chain.block(BigInt(Number(slot) || 0));
      if (!block) throw new RpcError(-32007, `Slot ${String(slot)} was skipped, or missing due to ledger jump to recent snapshot`);
      const parentSlot = BigInt(Number(slot)) - 1n;
      return {
        blockhash: block.blockhash,
        previousBlockhash: chain.block(parentSlot)?.blockhash ?? block.blockhash,
        parentSlot: Number(parentSlot),
        blockHeight: Number(slot),
        blockTime: block.transactions[0]?.blockTime ?? null,
        // `transactionDetails: 'none'` (a client that wants the hash only) leaves the transactions out, as a validator does.
        ...((config as { transactionDetails?: string } | undefined)?.transactionDetails === 'none'
          ? {}
          : { transactions: block.transactions.map(transactionJson) }),
      };
    },
    sandbox_snapshot: () => chain.snapshot(),
    sandbox_revert: ([id]) => {
      chain.revert(Number(id));
      return true;
    },
    sandbox_mine: ([slots]) => {
      for (let i = 0; i < Math.min(Math.max(Number(slots) || 1, 1), 10_000); i++) chain.tick();
      return Number(chain.slot);
    },
  };

  app.post('/', async (request) => {
    const call = async (body: unknown) => {
      const {
        id = null,
        method,
        params = [],
      } = (typeof body === 'object' && body !== null ? body : {}) as { id?: unknown; method?: unknown; params?: unknown };
      const handler = typeof method === 'string' && Object.hasOwn(methods, method) ? methods[method] : undefined;
      if (!handler) return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
      try {
        return { jsonrpc: '2.0', id, result: await handler(Array.isArray(params) ? params : []) };
      } catch (err) {
        if (err instanceof RpcError) return { jsonrpc: '2.0', id, error: { code: err.code, message: err.message, data: err.data } };
        return { jsonrpc: '2.0', id, error: { code: -32603, message: err instanceof Error ? err.message : 'Internal error' } };
      }
    };
    return Array.isArray(request.body) ? Promise.all(request.body.map(call)) : call(request.body);
  });
  return app;
}

/** How settled a transaction is by the depth of its slot: `finalized` past 32 slots, as mainnet roots it. */
function confirmationStatus(chain: SolanaChain, found: Recorded): 'processed' | 'confirmed' | 'finalized' {
  const depth = chain.slot - found.slot;
  return depth >= FINALIZED_DEPTH ? 'finalized' : depth > 0n ? 'confirmed' : 'processed';
}

/** A recorded transaction as `getTransaction` and `getBlock` (encoding `json`) show it. */
function transactionJson(found: Recorded) {
  const transaction = getTransactionDecoder().decode(found.wire);
  const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  return {
    version: message.version === 'legacy' ? 'legacy' : message.version,
    meta: {
      err: null,
      status: { Ok: null },
      fee: Number(found.fee),
      logMessages: found.logs,
      preTokenBalances: found.preTokenBalances,
      postTokenBalances: found.postTokenBalances,
      preBalances: [],
      postBalances: [],
      innerInstructions: [],
      loadedAddresses: { readonly: [], writable: [] },
    },
    transaction: {
      signatures: Object.values(transaction.signatures).map((bytes) => getBase58Decoder().decode(bytes!)),
      message: {
        accountKeys: found.accountKeys,
        header: {
          numRequiredSignatures: message.header.numSignerAccounts,
          numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
          numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
        },
        recentBlockhash: message.lifetimeToken,
        instructions: ('instructions' in message ? message.instructions : []).map((instruction) => ({
          programIdIndex: instruction.programAddressIndex,
          accounts: [...(instruction.accountIndices ?? [])],
          data: getBase58Decoder().decode(instruction.data ?? new Uint8Array()),
        })),
      },
    },
  };
}

function accountInfo(chain: SolanaChain, account: Address) {
  const found = chain.account(account);
  if (!found) return null;
  return {
    data: [base64(found.data), 'base64'],
    executable: found.executable,
    lamports: Number(found.lamports),
    owner: found.owner,
    rentEpoch: 0,
    space: found.data.length,
  };
}
