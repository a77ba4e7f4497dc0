import { createPublicClient, erc20Abi, http as viemHttp, parseEventLogs, parseTransaction, type Hex } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { DEV_EVM_USDC_ADDRESS } from '../../src/config/dev-secrets';
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
 * it signed (the signed transaction stored) and before the node had it, and after the node had it
 * and before the answer came back. The restarted worker broadcasts the same transaction again:
 * the chain shows one transfer, with the nonce and hash signed before the kill.
 */
describe('Vault transfers: the worker killed between signing and broadcasting', () => {
  let stack: Stack;
  let proxy: RpcProxy;
  let worker: ApiProcess | undefined;
  let apiKey: string;
  let workerEnv: Record<string, string>;

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
    proxy = await startRpcProxy(stack.env.BASE_RPC_URL);
    // The worker process reaches base through the proxy; the suite's own worker stops, so it is the only one.
    workerEnv = { ...stack.env, BASE_RPC_URL: proxy.url };
    await stack.worker!.close();
    stack.worker = undefined;
  }, 120_000);

  afterAll(async () => {
    await worker?.kill();
    await proxy?.close();
    await stack?.close();
  });

  const statusOf = async (id: string) => (await stack.pg.query(`SELECT status, raw_tx, tx_hash, nonce FROM vault_transfers WHERE id = $1`, [id])).rows[0];
  /** The USDC transfer of the vault's transaction: the ERC-20 call of the raw transaction the proxy held. */
  const isVaultTransfer = (call: { method: string; params: unknown[] }) =>
    call.method === 'eth_sendRawTransaction' && parseTransaction(call.params[0] as Hex).to?.toLowerCase() === DEV_EVM_USDC_ADDRESS.toLowerCase();

  it.each(['drop', 'swallow'] as HoldMode[])('killed while broadcasting (%s): one transfer on the chain, the one signed before the kill', async (mode) => {
    worker = await spawnWorker(stack.db.url, workerEnv);
    const poboUserId = await verifiedBusiness(stack, apiKey);
    expect((await post(stack.t, apiKey, '/api/merchant/test-helpers/vault/deposits', { poboUserId, chain: 'base', amount: 20 })).status).toBe(202);
    await eventually(
      async () => (await http(stack.t.baseUrl, 'GET', `${USERS}/${poboUserId}/vault`, { apiKey })).body.response.balances[2].available,
      (available) => available === 20,
      20_000,
      100,
    );

    proxy.hold(isVaultTransfer, mode);
    const heldBefore = proxy.held();
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const created = await post(
      stack.t,
      apiKey,
      '/api/merchant/vault-transfers',
      { poboUserId, chain: 'base', asset: 'USDC', amount: 7, toAddress: to, merchantReference: `crash-${mode}` },
      newKey(),
    );
    expect(created.status).toBe(201);
    const id = created.body.response.vaultTransferId;
    await eventually(
      () => Promise.resolve(proxy.held()),
      (held) => held > heldBefore,
      20_000,
      20,
    );
    const signed = await statusOf(id);
    expect(signed).toMatchObject({ status: 'pending', raw_tx: expect.stringMatching(/^0x02/), tx_hash: expect.stringMatching(/^0x/) });
    await worker.kill();
    worker = undefined;

    proxy.hold(null);
    worker = await spawnWorker(stack.db.url, workerEnv);
    const done = await eventually(
      () => statusOf(id),
      (row) => row.status === 'confirmed',
      30_000,
      100,
    );
    expect(done).toMatchObject({ tx_hash: signed.tx_hash, nonce: signed.nonce, raw_tx: signed.raw_tx });

    const client = createPublicClient({ transport: viemHttp(stack.env.BASE_RPC_URL) });
    const receipt = await client.getTransactionReceipt({ hash: signed.tx_hash as Hex });
    expect(receipt.status).toBe('success');
    const logs = await client.getLogs({ address: DEV_EVM_USDC_ADDRESS as Hex, fromBlock: 0n, toBlock: 'latest' });
    const toRecipient = parseEventLogs({ abi: erc20Abi, logs, eventName: 'Transfer' }).filter((log) => log.args.to === to);
    expect(toRecipient).toHaveLength(1);
    expect(toRecipient[0].args.value).toBe(7_000_000n);
    await worker.kill();
    worker = undefined;
  });

  it('the ledger and the chain agree', async () => {
    const verified = await ledgerVerify(stack);
    expect(verified.report).toMatchObject({ ok: true, vaultDifferences: [] });
  });
});
