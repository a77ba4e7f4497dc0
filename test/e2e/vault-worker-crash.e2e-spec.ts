import { address, generateKeyPairSigner } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { createPublicClient, erc20Abi, http as viemHttp, parseEventLogs, parseTransaction, type Hex } from 'viem';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { DEV_USDC_MINT } from '../../sandbox/chains/solana-chain';
import { DEV_EVM_USDC_ADDRESS, DEV_WALLET_MNEMONIC } from '../../src/config/dev-secrets';
import { loadConfig } from '../../src/config/app.config';
import type { ChainName } from '../../src/config/vault-chains.config';
import { createChainClients } from '../../src/modules/chains';
import { ApiProcess, spawnWorker } from '../support/api-process';
import { verifiedBusiness } from '../support/international';
import { ledgerVerify, newKey, post } from '../support/money-stack';
import { eventually } from '../support/poll';
import { HoldMode, RpcProxy, startRpcProxy } from '../support/rpc-proxy';
import { startStack, Stack } from '../support/stack';
import { http } from '../support/test-app';

const USERS = '/api/merchant/pobo/users';

/**
 * The worker as its own process, killed with SIGKILL around the broadcast of a transfer out: after
 * it signed (the signed transaction stored) and before the node had it (`drop`), and after the
 * node had it and before the answer came back (`swallow`), on an EVM chain and on Solana. The
 * restarted worker broadcasts the same transaction again, and the chain, which may have it
 * already (Solana then refuses the resend as already processed), decides: one transfer on the
 * chain, with the nonce or signature signed before the kill, confirmed, never failed.
 */
describe('Vault transfers: the worker killed between signing and broadcasting', () => {
  let stack: Stack;
  const proxies = {} as Record<'base' | 'solana', RpcProxy>;
  let worker: ApiProcess | undefined;
  let apiKey: string;
  let workerEnv: Record<string, string>;
  let clients: ReturnType<typeof createChainClients>;

  beforeAll(async () => {
    stack = await startStack({
      name: 'vault-crash',
      sandboxes: {},
      chains: { confirmations: 2, blockIntervalMs: 200 },
      worker: true,
      merchants: ['vault'],
      env: { JOB_LOCK_MS: '2000', IDEMPOTENCY_LOCK_MS: '2000', PERIODIC_JOB_INTERVAL_MS: '300' },
    });
    apiKey = stack.merchants[0].apiKey;
    proxies.base = await startRpcProxy(stack.env.BASE_RPC_URL);
    proxies.solana = await startRpcProxy(stack.env.SOLANA_RPC_URL);
    // The worker process reaches the chains through the proxies; the suite's own worker stops, so it is the only one.
    workerEnv = { ...stack.env, BASE_RPC_URL: proxies.base.url, SOLANA_RPC_URL: proxies.solana.url };
    await stack.worker!.close();
    stack.worker = undefined;
    clients = createChainClients(loadConfig({ NODE_ENV: 'test', DATABASE_URL: stack.db.url, ...stack.env }));
  }, 120_000);

  afterAll(async () => {
    await worker?.kill();
    for (const proxy of Object.values(proxies)) await proxy?.close();
    await stack?.close();
  });

  const statusOf = async (id: string) => (await stack.pg.query(`SELECT status, raw_tx, tx_hash, nonce FROM vault_transfers WHERE id = $1`, [id])).rows[0];
  /** The broadcast of the vault's transfer: the ERC-20 call of a raw transaction (base), any sendTransaction (only the worker sends on Solana). */
  const isVaultTransfer = (chain: 'base' | 'solana') => (call: { method: string; params: unknown[] }) =>
    chain === 'solana'
      ? call.method === 'sendTransaction'
      : call.method === 'eth_sendRawTransaction' && parseTransaction(call.params[0] as Hex).to?.toLowerCase() === DEV_EVM_USDC_ADDRESS.toLowerCase();
  /** How many transfers of USDC reached `to` on the chain. */
  const transfersTo = async (chain: ChainName, to: string): Promise<number> => {
    if (chain === 'solana') return stack.chains!.solana.signaturesFor(await usdcAccountOf(to), { limit: 100 }).length;
    const client = createPublicClient({ transport: viemHttp(stack.env[`${chain.toUpperCase()}_RPC_URL`]) });
    const logs = await client.getLogs({ address: DEV_EVM_USDC_ADDRESS as Hex, fromBlock: 0n, toBlock: 'latest' });
    return parseEventLogs({ abi: erc20Abi, logs, eventName: 'Transfer' }).filter((log) => log.args.to === to).length;
  };

  /** A verified business whose vault holds 20 USDC on `chain`, credited by the running worker. */
  const fundedBusiness = async (chain: 'base' | 'solana'): Promise<string> => {
    const poboUserId = await verifiedBusiness(stack, apiKey);
    expect((await post(stack.t, apiKey, '/api/merchant/test-helpers/vault/deposits', { poboUserId, chain, amount: 20 })).status).toBe(202);
    await eventually(
      async () =>
        (await http(stack.t.baseUrl, 'GET', `${USERS}/${poboUserId}/vault`, { apiKey })).body.response.balances.find(
          (b: { chain: string }) => b.chain === chain,
        ).available,
      (available) => available === 20,
      20_000,
      100,
    );
    return poboUserId;
  };

  /**
   * A transfer out whose broadcast the proxy holds (`drop`: never reaches the node; `swallow`:
   * reaches it, its answer never comes back): created, signed and stored by the worker, which is
   * then waiting on that call.
   */
  const heldTransfer = async (
    chain: 'base' | 'solana',
    mode: HoldMode,
    body: { poboUserId: string; amount: number; toAddress: string; merchantReference: string },
  ) => {
    const proxy = proxies[chain];
    proxy.hold(isVaultTransfer(chain), mode);
    const heldBefore = proxy.held();
    const created = await post(stack.t, apiKey, '/api/merchant/vault-transfers', { chain, asset: 'USDC', ...body }, newKey());
    expect(created.status).toBe(201);
    const id: string = created.body.response.vaultTransferId;
    await eventually(
      () => Promise.resolve(proxy.held()),
      (held) => held > heldBefore,
      20_000,
      20,
    );
    return { id, fromAddress: created.body.response.fromAddress as string, signed: await statusOf(id) };
  };

  const cases: ['base' | 'solana', HoldMode][] = [
    ['base', 'drop'],
    ['base', 'swallow'],
    ['solana', 'drop'],
    ['solana', 'swallow'],
  ];
  it.each(cases)('%s, killed while broadcasting (%s): one transfer on the chain, the one signed before the kill', async (chain, mode) => {
    worker = await spawnWorker(stack.db.url, workerEnv);
    const poboUserId = await fundedBusiness(chain);

    const to = chain === 'solana' ? (await generateKeyPairSigner()).address : privateKeyToAccount(generatePrivateKey()).address;
    const { id, signed } = await heldTransfer(chain, mode, { poboUserId, amount: 7, toAddress: to, merchantReference: `crash-${chain}-${mode}` });
    expect(signed).toMatchObject({ status: 'pending', raw_tx: expect.any(String), tx_hash: expect.any(String) });
    await worker.kill();
    worker = undefined;
    // Swallowed: the chain has it, though the killed worker never heard so.
    if (mode === 'swallow') expect(await transfersTo(chain, to)).toBe(1);

    proxies[chain].hold(null);
    worker = await spawnWorker(stack.db.url, workerEnv);
    const done = await eventually(
      () => statusOf(id),
      (row) => ['confirmed', 'failed'].includes(row.status),
      30_000,
      100,
    );
    expect(done).toMatchObject({ status: 'confirmed', tx_hash: signed.tx_hash, nonce: signed.nonce, raw_tx: signed.raw_tx });
    expect(await clients.get(chain)!.usdcBalance(to)).toBe(7_000_000n);
    expect(await transfersTo(chain, to)).toBe(1);
    await worker.kill();
    worker = undefined;
  });

  it("base: the vault's gas spent after signing, and the platform's gas wallet empty: stalled and said so once, then sent when the gas wallet is funded", async () => {
    const node = stack.chains!.evm.find((chain) => chain.name === 'base')!.provider;
    const gasWallet = mnemonicToAccount(DEV_WALLET_MNEMONIC, { path: "m/44'/60'/1'/0/0" }).address;
    const setBalance = (address: string, wei: bigint) => node.request({ method: 'hardhat_setBalance', params: [address, `0x${wei.toString(16)}`] });
    worker = await spawnWorker(stack.db.url, workerEnv);
    const poboUserId = await fundedBusiness('base');
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const { id, signed, fromAddress } = await heldTransfer('base', 'drop', { poboUserId, amount: 3, toAddress: to, merchantReference: 'gas-drained' });
    await worker.kill();
    worker = undefined;
    proxies.base.hold(null);

    // Signed when the vault held gas for it; now the vault holds none, and the gas wallet cannot top it up.
    const gasWalletBalance = await clients.get('base')!.nativeBalance(gasWallet);
    await setBalance(fromAddress, 0n);
    await setBalance(gasWallet, 0n);
    worker = await spawnWorker(stack.db.url, workerEnv);
    const transferOf = async () => (await http(stack.t.baseUrl, 'GET', `/api/merchant/vault-transfers/${id}`, { apiKey })).body.response;
    const stalled = await eventually(transferOf, (t) => t.stalledReason !== null, 20_000, 100);
    expect(stalled).toMatchObject({ status: 'pending', stalledReason: expect.any(String) });
    // Tried again after each lock (2 s here): still stalled, and said so in the log once.
    const triedAt = (await stack.pg.query(`SELECT updated_at FROM vault_transfers WHERE id = $1`, [id])).rows[0].updated_at.getTime();
    await eventually(
      async () => (await stack.pg.query(`SELECT updated_at FROM vault_transfers WHERE id = $1`, [id])).rows[0].updated_at.getTime(),
      (at) => at > triedAt,
      20_000,
      100,
    );
    expect(await transferOf()).toMatchObject({ status: 'pending', stalledReason: stalled.stalledReason });
    expect(
      worker
        .output()
        .split('\n')
        .filter((line) => line.includes(id) && line.includes('stalled')),
    ).toHaveLength(1);

    await setBalance(gasWallet, gasWalletBalance);
    const done = await eventually(
      () => statusOf(id),
      (row) => ['confirmed', 'failed'].includes(row.status),
      30_000,
      100,
    );
    expect(done).toMatchObject({ status: 'confirmed', tx_hash: signed.tx_hash, nonce: signed.nonce });
    expect((await transferOf()).stalledReason).toBeNull();
    expect(await clients.get('base')!.usdcBalance(to)).toBe(3_000_000n);
    await worker.kill();
    worker = undefined;
  });

  it('the ledger and the chains agree', async () => {
    const verified = await ledgerVerify(stack);
    expect(verified.report).toMatchObject({ ok: true, vaultDifferences: [] });
  });
});

/** A Solana owner's USDC account on the development mint. */
async function usdcAccountOf(owner: string) {
  return (await findAssociatedTokenPda({ owner: address(owner), mint: DEV_USDC_MINT, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
}
