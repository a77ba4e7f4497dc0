import type { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from '../../src/config/app.config';
import type { ChainName } from '../../src/config/vault-chains.config';
import { ChainClients, createChainClients } from '../../src/modules/chains';
import { expectErrorBody } from '../support/contract';
import { ledgerVerify, post } from '../support/money-stack';
import { eventually } from '../support/poll';
import { startStack, Stack } from '../support/stack';
import { createBusiness, http } from '../support/test-app';
import { startTestWorker } from '../support/test-worker';

const CHAINS: ChainName[] = ['ethereum', 'polygon', 'base', 'solana'];
const CONFIRMATIONS = 3;
const BUSINESSES = '/api/merchant/pobo/users';

/**
 * Deposits into businesses' vaults on the real local chains (Hardhat networks, LiteSVM behind
 * Solana's JSON-RPC), followed by the real worker against real PostgreSQL and Redis. Blocks are
 * mined by the tests, so each confirmation is one the test made.
 */
describe('Vault deposits', () => {
  let stack: Stack;
  let apiKey: string;
  /** The worker started after the suite's own was stopped (the stack closes only the one it started). */
  let restarted: INestApplicationContext | undefined;
  let chainClients: ChainClients;

  beforeAll(async () => {
    stack = await startStack({ name: 'vault-deposits', chains: { confirmations: CONFIRMATIONS }, worker: true, merchants: ['vault'] });
    apiKey = stack.merchants[0].apiKey;
    chainClients = createChainClients(loadConfig({ NODE_ENV: 'test', DATABASE_URL: stack.db.url, ...stack.env }));
  }, 120_000);

  afterAll(async () => {
    await restarted?.close();
    await stack?.close();
  });

  const vaultOf = async (poboUserId: string) => {
    const result = await http(stack.t.baseUrl, 'GET', `${BUSINESSES}/${poboUserId}/vault`, { apiKey });
    expect(result.status).toBe(200);
    return result.body.response;
  };
  const balanceOn = async (poboUserId: string, chain: ChainName) => (await vaultOf(poboUserId)).balances.find((b: any) => b.chain === chain);
  const transactionsOf = async (poboUserId: string): Promise<any[]> => {
    const result = await http(stack.t.baseUrl, 'GET', `${BUSINESSES}/${poboUserId}/vault/transactions`, { apiKey });
    expect(result.status).toBe(200);
    return result.body.response;
  };
  const deposit = async (poboUserId: string, chain: ChainName, amount: number) => {
    const sent = await post(stack.t, apiKey, '/api/merchant/test-helpers/vault/deposits', { poboUserId, chain, amount });
    expect(sent.status).toBe(202);
    return sent.body.response;
  };
  /** The deposit of `txHash`, once the worker lists it and `accept` holds. */
  const depositSeen = async (poboUserId: string, txHash: string, accept: (tx: any) => boolean = () => true) =>
    (await eventually(
      async () => (await transactionsOf(poboUserId)).find((tx) => tx.txHash === txHash),
      (tx) => tx !== undefined && accept(tx),
      20_000,
      100,
    ))!;
  const ledgerTransactionsOf = async (vaultTransactionId: string) =>
    (await stack.pg.query(`SELECT id FROM ledger_transactions WHERE source_id = $1`, [vaultTransactionId])).rows;
  /**
   * Until a whole run of the worker's follower has passed on `chain` since now: a block is mined
   * and waited for in the chain's cursor, which the next run moves only after the run before it
   * settled what it had read.
   */
  const workerRuns = async (chain: ChainName) => {
    await stack.chains!.mine(chain, 1);
    const head = await chainClients.get(chain)!.head();
    await eventually(
      async () => (await stack.pg.query(`SELECT block FROM vault_chain_cursors WHERE chain = $1`, [chain])).rows[0]?.block,
      (block) => block !== undefined && BigInt(block) >= head,
      20_000,
      50,
    );
  };

  it.each(CHAINS)('a deposit on %s is pending, then credited once at the confirmation count', async (chain) => {
    const business = await createBusiness(stack.t, apiKey);
    const vault = await vaultOf(business.poboUserId);
    expect(vault.wallets).toHaveLength(4);
    expect(vault.balances.find((b: any) => b.chain === chain)).toEqual({ chain, asset: 'USDC', available: 0, pending: 0 });

    const sent = await deposit(business.poboUserId, chain, 12.345678);
    const address = vault.wallets.find((w: any) => w.chain === chain).address;
    expect(sent).toMatchObject({ poboUserId: business.poboUserId, chain, toAddress: address, amount: 12.345678 });

    // Its own block is its first confirmation: pending until two more.
    const pending = await depositSeen(business.poboUserId, sent.txHash);
    expect(pending).toMatchObject({ direction: 'deposit', chain, asset: 'USDC', amount: 12.345678, networkFee: 0, toAddress: address, status: 'pending' });
    expect(pending.vaultTransactionId).toMatch(/^vtx_[0-9a-f]{24}$/);
    expect(pending.confirmations).toBeLessThan(CONFIRMATIONS);
    expect(pending.confirmedAt).toBeNull();
    expect(await balanceOn(business.poboUserId, chain)).toEqual({ chain, asset: 'USDC', available: 0, pending: 12.345678 });

    await stack.chains!.mine(chain, CONFIRMATIONS - 1);
    const credited = await depositSeen(business.poboUserId, sent.txHash, (tx) => tx.status === 'confirmed');
    expect(credited.confirmations).toBe(CONFIRMATIONS);
    expect(credited.confirmedAt).not.toBeNull();
    expect(await balanceOn(business.poboUserId, chain)).toEqual({ chain, asset: 'USDC', available: 12.345678, pending: 0 });

    // More blocks, more runs: still one deposit, credited once.
    await stack.chains!.mine(chain, 5);
    await workerRuns(chain);
    await workerRuns(chain);
    expect(await transactionsOf(business.poboUserId)).toHaveLength(1);
    expect(await ledgerTransactionsOf(credited.vaultTransactionId)).toHaveLength(1);
    expect((await balanceOn(business.poboUserId, chain)).available).toBe(12.345678);
  });

  it.each(['base', 'solana'] as ChainName[])('a deposit on %s whose block leaves the chain before its confirmations is dropped', async (chain) => {
    const business = await createBusiness(stack.t, apiKey);
    const fork = await stack.chains!.snapshot(chain);
    const sent = await deposit(business.poboUserId, chain, 40);
    const pending = await depositSeen(business.poboUserId, sent.txHash);
    expect(pending.status).toBe('pending');

    // The block with the deposit is replaced by others: the chain moves on without it.
    await stack.chains!.revert(chain, fork);
    await stack.chains!.mine(chain, CONFIRMATIONS + 2);
    const dropped = await depositSeen(business.poboUserId, sent.txHash, (tx) => tx.status === 'dropped');
    expect(dropped.vaultTransactionId).toBe(pending.vaultTransactionId);
    expect(await balanceOn(business.poboUserId, chain)).toEqual({ chain, asset: 'USDC', available: 0, pending: 0 });
    expect(await ledgerTransactionsOf(pending.vaultTransactionId)).toHaveLength(0);
    // The merchant heard of both moves, the last with the line as the list answers it now.
    const events = (await http(stack.t.baseUrl, 'GET', '/api/merchant/events?type=vault.deposit_pending&type=vault.deposit_dropped', { apiKey })).body.response
      .filter((event: any) => event.data.object.vaultTransactionId === pending.vaultTransactionId)
      .reverse();
    expect(events.map((event: any) => event.type)).toEqual(['vault.deposit_pending', 'vault.deposit_dropped']);
    expect(events[1].data.object).toEqual(dropped);
  });

  it('a worker restarted between blocks neither skips nor doubles a deposit', async () => {
    const business = await createBusiness(stack.t, apiKey);
    const first = await deposit(business.poboUserId, 'ethereum', 1.5);
    await depositSeen(business.poboUserId, first.txHash);

    // While no worker runs, the chain moves on and another deposit lands.
    await stack.worker!.close();
    await stack.chains!.mine('ethereum', 1);
    const second = await deposit(business.poboUserId, 'ethereum', 2.25);
    await stack.chains!.mine('ethereum', 1);
    const worker = await startTestWorker(stack.db.url, stack.env);
    try {
      await depositSeen(business.poboUserId, second.txHash);
      await stack.chains!.mine('ethereum', CONFIRMATIONS);
      await eventually(
        () => transactionsOf(business.poboUserId),
        (txs) => txs.length === 2 && txs.every((tx) => tx.status === 'confirmed'),
        20_000,
        100,
      );
      await workerRuns('ethereum');
      const txs = await transactionsOf(business.poboUserId);
      expect(txs.map((tx) => tx.txHash).sort()).toEqual([first.txHash, second.txHash].sort());
      for (const tx of txs) expect(await ledgerTransactionsOf(tx.vaultTransactionId)).toHaveLength(1);
      expect(await balanceOn(business.poboUserId, 'ethereum')).toEqual({ chain: 'ethereum', asset: 'USDC', available: 3.75, pending: 0 });
    } finally {
      await worker.close();
      restarted = await startTestWorker(stack.db.url, stack.env);
    }
  });

  it('the ledger holds the vaults’ USDC on each chain, and agrees with the chains', async () => {
    const verified = await ledgerVerify(stack);
    expect(verified.report).toMatchObject({ ok: true, vaultDifferences: [] });
    expect(verified.code).toBe(0);
    expect(verified.report.vaults.compared).toBeGreaterThan(0);
  });

  it('reads and test helpers refuse what is not theirs or not well formed', async () => {
    const other = await stack.t.createMerchant('other');
    const business = await createBusiness(stack.t, apiKey);
    for (const path of [`${BUSINESSES}/${business.poboUserId}/vault`, `${BUSINESSES}/${business.poboUserId}/vault/transactions`]) {
      expectErrorBody(await http(stack.t.baseUrl, 'GET', path, { apiKey: other.apiKey }), 404, 'resource_not_found');
    }
    const deposits = '/api/merchant/test-helpers/vault/deposits';
    expectErrorBody(await post(stack.t, other.apiKey, deposits, { poboUserId: business.poboUserId, chain: 'base', amount: 1 }), 404, 'resource_not_found');
    for (const body of [
      { chain: 'base', amount: 1 },
      { poboUserId: business.poboUserId, amount: 1 },
      { poboUserId: business.poboUserId, chain: 'base' },
      { poboUserId: business.poboUserId, chain: 'bitcoin', amount: 1 },
      { poboUserId: business.poboUserId, chain: 'base', amount: 0.0000001 },
      { poboUserId: business.poboUserId, chain: 'base', amount: 2_000_000 },
    ]) {
      expectErrorBody(await post(stack.t, apiKey, deposits, body), 400, 'validation_failed');
    }
    const blacklist = '/api/merchant/test-helpers/vault/blacklist';
    expectErrorBody(await post(stack.t, apiKey, blacklist, { address: '0x2f1a6b4d8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a' }), 400, 'validation_failed');
    expectErrorBody(await post(stack.t, apiKey, blacklist, { chain: 'base' }), 400, 'validation_failed');
    // A broken EIP-55 checksum, and a Solana address on an EVM chain.
    expectErrorBody(await post(stack.t, apiKey, blacklist, { chain: 'base', address: '0x2F1a6b4D8c0E2f4A6b8C0d2E4f6A8b0C2d4E6f8A' }), 400, 'address_invalid');
    const solanaAddress = (await vaultOf(business.poboUserId)).wallets.find((w: any) => w.chain === 'solana').address;
    expectErrorBody(await post(stack.t, apiKey, blacklist, { chain: 'base', address: solanaAddress }), 400, 'address_invalid');
    const listed = await post(stack.t, apiKey, blacklist, { chain: 'solana', address: solanaAddress });
    expect(listed.status).toBe(200);
    expect(listed.body.response).toMatchObject({ chain: 'solana', address: solanaAddress, txHash: expect.any(String) });
  });
});
