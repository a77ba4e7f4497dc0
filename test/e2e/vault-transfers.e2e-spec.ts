import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createSolanaRpc, generateKeyPairSigner, type Signature } from '@solana/kit';
import { createPublicClient, getAddress, http as viemHttp, type Hex } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { DEV_USDC_MINT } from '../../sandbox/chains/solana-chain';
import { loadConfig } from '../../src/config/app.config';
import { DEV_EVM_USDC_ADDRESS } from '../../src/config/dev-secrets';
import type { ChainName } from '../../src/config/vault-chains.config';
import { createChainClients } from '../../src/modules/chains';
import { expectErrorBody } from '../support/contract';
import { verifiedBusiness } from '../support/international';
import { ledgerVerify, newKey, post } from '../support/money-stack';
import { eventually } from '../support/poll';
import { startStack, Stack } from '../support/stack';
import { createBusiness, http } from '../support/test-app';

const TRANSFERS = '/api/merchant/vault-transfers';
const USERS = '/api/merchant/pobo/users';
const CHAINS: ChainName[] = ['ethereum', 'polygon', 'base', 'solana'];
/** Each chain's development network fee (USDC). */
const FEES: Record<ChainName, number> = { ethereum: 2, polygon: 0.05, base: 0.05, solana: 0.01 };

/**
 * Transfers out of businesses' vaults on the real local chains, signed in the wallet thread and
 * followed by the real worker, against real PostgreSQL and Redis. Blocks come every 200 ms.
 */
describe('Vault transfers out', () => {
  let stack: Stack;
  let apiKey: string;
  let clients: ReturnType<typeof createChainClients>;

  beforeAll(async () => {
    stack = await startStack({
      name: 'vault-transfers',
      sandboxes: {},
      chains: { confirmations: 3, blockIntervalMs: 200 },
      worker: true,
      merchants: ['vault'],
    });
    apiKey = stack.merchants[0].apiKey;
    clients = createChainClients(loadConfig({ NODE_ENV: 'test', DATABASE_URL: stack.db.url, ...stack.env }));
  }, 120_000);

  afterAll(() => stack?.close());

  const vaultOf = async (poboUserId: string) => (await http(stack.t.baseUrl, 'GET', `${USERS}/${poboUserId}/vault`, { apiKey })).body.response;
  const availableOn = async (poboUserId: string, chain: ChainName): Promise<number> =>
    (await vaultOf(poboUserId)).balances.find((b: any) => b.chain === chain).available;
  /** A verified business with `amount` USDC credited on `chain`. */
  const fundedBusiness = async (chain: ChainName, amount: number): Promise<string> => {
    const poboUserId = await verifiedBusiness(stack, apiKey);
    expect((await post(stack.t, apiKey, '/api/merchant/test-helpers/vault/deposits', { poboUserId, chain, amount })).status).toBe(202);
    await eventually(
      () => availableOn(poboUserId, chain),
      (available) => available === amount,
      20_000,
      100,
    );
    return poboUserId;
  };
  const recipientOn = async (chain: ChainName): Promise<string> =>
    chain === 'solana' ? (await generateKeyPairSigner()).address : privateKeyToAccount(generatePrivateKey()).address;
  const transfer = (body: Record<string, unknown>, key: string | null = newKey()) =>
    post(stack.t, apiKey, TRANSFERS, { asset: 'USDC', merchantReference: 'payout-1', ...body }, key);
  const settled = async (vaultTransferId: string) =>
    (
      await eventually(
        () => http(stack.t.baseUrl, 'GET', `${TRANSFERS}/${vaultTransferId}`, { apiKey }),
        (r) => ['confirmed', 'failed'].includes(r.body.response.status),
        30_000,
        100,
      )
    ).body.response;
  const postingsOf = async (sourceId: string) =>
    (await stack.pg.query(`SELECT type FROM ledger_transactions WHERE source_id = $1 ORDER BY created_at`, [sourceId])).rows.map((r) => r.type);

  it.each(CHAINS)('a transfer on %s: the recipient gets exactly the amount, the vault pays amount + fee, signed by the vault’s own key', async (chain) => {
    const poboUserId = await fundedBusiness(chain, 100);
    const to = await recipientOn(chain);
    const created = await transfer({ poboUserId, chain, amount: 40.5, toAddress: to });
    expect(created.status).toBe(201);
    expect(created.body.response).toMatchObject({ poboUserId, chain, asset: 'USDC', amount: 40.5, networkFee: FEES[chain], toAddress: to, status: 'pending' });
    expect(await availableOn(poboUserId, chain)).toBe(100 - 40.5 - FEES[chain]);

    const done = await settled(created.body.response.vaultTransferId);
    expect(done.status).toBe('confirmed');
    expect(await clients.get(chain)!.usdcBalance(to)).toBe(40_500_000n);
    expect(await availableOn(poboUserId, chain)).toBe(Number((100 - 40.5 - FEES[chain]).toFixed(6)));
    expect(await postingsOf(done.vaultTransferId)).toEqual(['vault_transfer_reserved', 'vault_transfer_confirmed']);
    const line = (await http(stack.t.baseUrl, 'GET', `${USERS}/${poboUserId}/vault/transactions`, { apiKey })).body.response.find(
      (tx: any) => tx.vaultTransactionId === done.vaultTransactionId,
    );
    expect(line).toMatchObject({
      direction: 'transfer',
      status: 'confirmed',
      amount: 40.5,
      networkFee: FEES[chain],
      txHash: done.txHash,
      merchantReference: 'payout-1',
    });
    // The local chains have no block explorer: no link, on the transfer or its line.
    expect([done.explorerUrl, line.explorerUrl]).toEqual([null, null]);

    // The address that signed is the vault address the API shows.
    const vaultAddress = (await vaultOf(poboUserId)).wallets.find((w: any) => w.chain === chain).address;
    expect(done.fromAddress).toBe(vaultAddress);
    if (chain === 'solana') {
      const rpc = createSolanaRpc(stack.env.SOLANA_RPC_URL);
      const tx = await rpc.getTransaction(done.txHash as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
      const signers = tx!.transaction.message.accountKeys.slice(0, tx!.transaction.message.header.numRequiredSignatures);
      expect(signers).toContain(vaultAddress);
    } else {
      const client = createPublicClient({ transport: viemHttp(stack.env[`${chain.toUpperCase()}_RPC_URL`]) });
      expect(getAddress((await client.getTransaction({ hash: done.txHash as Hex })).from)).toBe(vaultAddress);
    }
  });

  it('replaying the same Idempotency-Key answers the same transfer, sent once', async () => {
    const poboUserId = await fundedBusiness('base', 10);
    const key = newKey();
    const body = { poboUserId, chain: 'base', amount: 1, toAddress: await recipientOn('base') };
    const first = await transfer(body, key);
    const again = await transfer(body, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.response.vaultTransferId).toBe(first.body.response.vaultTransferId);
    await settled(first.body.response.vaultTransferId);
    expect(await clients.get('base')!.usdcBalance(body.toAddress)).toBe(1_000_000n);
    expect(await availableOn(poboUserId, 'base')).toBe(8.95);
  });

  it('two equal solana transfers one after the other are two transactions, each sent once', async () => {
    // The local chain keeps one blockhash until it expires, so both are signed under the same one.
    const poboUserId = await fundedBusiness('solana', 10);
    const body = { poboUserId, chain: 'solana', amount: 2, toAddress: await recipientOn('solana') };
    const first = await transfer(body);
    const second = await transfer(body);
    const done = [await settled(first.body.response.vaultTransferId), await settled(second.body.response.vaultTransferId)];
    expect(done.map((d) => d.status)).toEqual(['confirmed', 'confirmed']);
    expect(done[0].txHash).not.toBe(done[1].txHash);
    expect(await clients.get('solana')!.usdcBalance(body.toAddress)).toBe(4_000_000n);
    expect(await availableOn(poboUserId, 'solana')).toBe(5.98);
  });

  it('20 transfers racing over a balance that covers 5 make exactly 5', async () => {
    const poboUserId = await fundedBusiness('polygon', 5.25);
    const to = await recipientOn('polygon');
    const answers = await Promise.all(Array.from({ length: 20 }, () => transfer({ poboUserId, chain: 'polygon', amount: 1, toAddress: to })));
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(5);
    for (const refused of answers.filter((a) => a.status !== 201)) expectErrorBody(refused, 409, 'insufficient_funds');
    for (const one of created) expect((await settled(one.body.response.vaultTransferId)).status).toBe('confirmed');
    expect(await clients.get('polygon')!.usdcBalance(to)).toBe(5_000_000n);
    expect(await availableOn(poboUserId, 'polygon')).toBe(0);
  });

  it.each(['base', 'solana'] as ChainName[])('a transfer on %s to a blacklisted address fails, and the reservation comes back once', async (chain) => {
    const poboUserId = await fundedBusiness(chain, 10);
    const to = await recipientOn(chain);
    expect((await post(stack.t, apiKey, '/api/merchant/test-helpers/vault/blacklist', { chain, address: to })).status).toBe(200);
    const created = await transfer({ poboUserId, chain, amount: 3, toAddress: to });
    expect(created.status).toBe(201);
    const done = await settled(created.body.response.vaultTransferId);
    expect(done.status).toBe('failed');
    expect(done.failureReason).toEqual(expect.any(String));
    expect(await clients.get(chain)!.usdcBalance(to)).toBe(0n);
    expect(await availableOn(poboUserId, chain)).toBe(10);
    expect(await postingsOf(done.vaultTransferId)).toEqual(['vault_transfer_reserved', 'vault_transfer_failed']);
  });

  it('refuses an unverified business, bad addresses and missing fields, reserving nothing', async () => {
    const unverified = (await createBusiness(stack.t, apiKey)).poboUserId;
    // One with two letters of each case at least: flipping one still leaves it mixed-case (an
    // address whose letters all end up one case carries no checksum, and is rightly taken).
    let evm = await recipientOn('base');
    while ((evm.match(/[A-F]/g) ?? []).length < 2 || (evm.slice(2).match(/[a-f]/g) ?? []).length < 2) evm = await recipientOn('base');
    const solana = await recipientOn('solana');
    expectErrorBody(await transfer({ poboUserId: unverified, chain: 'base', amount: 1, toAddress: evm }), 409, 'kyb_not_verified');
    const verified = await verifiedBusiness(stack, apiKey);
    // The checksummed address with the case of one letter flipped: still mixed-case, its EIP-55 checksum broken.
    const letter = evm.slice(2).search(/[a-fA-F]/) + 2;
    const flipped = evm[letter] === evm[letter].toLowerCase() ? evm[letter].toUpperCase() : evm[letter].toLowerCase();
    const badChecksum = `${evm.slice(0, letter)}${flipped}${evm.slice(letter + 1)}`;
    const own = Object.fromEntries((await vaultOf(verified)).wallets.map((w: { chain: string; address: string }) => [w.chain, w.address]));
    for (const [chain, toAddress] of [
      // Addresses no key holds: money sent there never comes back.
      ['base', '0x0000000000000000000000000000000000000000'],
      ['ethereum', '0x0000000000000000000000000000000000000004'],
      ['base', DEV_EVM_USDC_ADDRESS],
      ['polygon', DEV_EVM_USDC_ADDRESS.toLowerCase()],
      ['solana', '11111111111111111111111111111111'],
      ['solana', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'],
      ['solana', DEV_USDC_MINT],
      // The sending vault itself: the chain would move nothing while the ledger debits.
      ['base', own.base],
      ['base', own.base.toLowerCase()],
      ['solana', own.solana],
      ['base', badChecksum],
      ['base', evm.slice(0, -2)],
      ['ethereum', solana],
      ['solana', evm],
      // Longer than any 32-byte key (a 43-character key with one more digit can still be one).
      ['solana', `${solana}${solana.slice(0, 4)}`],
    ]) {
      expectErrorBody(await transfer({ poboUserId: verified, chain, amount: 1, toAddress }), 400, 'address_invalid');
    }
    const body = { poboUserId: verified, chain: 'base', asset: 'USDC', amount: 1, toAddress: evm, merchantReference: 'payout-1' };
    for (const field of Object.keys(body)) {
      const { [field]: _omitted, ...rest } = body as Record<string, unknown>;
      expectErrorBody(await post(stack.t, apiKey, TRANSFERS, rest), 400, 'validation_failed');
    }
    expectErrorBody(await transfer({ poboUserId: verified, chain: 'base', amount: 1, toAddress: evm }, null), 400, 'idempotency_key_required');
    expectErrorBody(await transfer({ poboUserId: verified, chain: 'base', amount: 1, toAddress: evm }), 409, 'insufficient_funds');
    expect((await stack.pg.query(`SELECT count(*)::int AS n FROM vault_transfers WHERE pobo_user_id = ANY($1)`, [[unverified, verified]])).rows[0].n).toBe(0);
  });

  it('lists and reads transfers; another merchant’s are 404', async () => {
    const listed = await http(stack.t.baseUrl, 'GET', `${TRANSFERS}?limit=2`, { apiKey });
    expect(listed.status).toBe(200);
    expect(listed.body.response).toHaveLength(2);
    expect(listed.headers.get('link')).toContain('cursor=vtr_');
    const other = await stack.t.createMerchant('other');
    expectErrorBody(
      await http(stack.t.baseUrl, 'GET', `${TRANSFERS}/${listed.body.response[0].vaultTransferId}`, { apiKey: other.apiKey }),
      404,
      'resource_not_found',
    );
  });

  it('vault:platform names the platform’s keys and what they hold: the fee payer is the one that paid for solana transfers', async () => {
    const env = { ...process.env, ...stack.env, DATABASE_URL: stack.db.url };
    const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'vault:platform'], { cwd: `${__dirname}/../..`, env });
    const report = JSON.parse(stdout);
    // The gas wallet's balance on each EVM chain, as the chain has it.
    for (const chain of ['ethereum', 'polygon', 'base']) {
      const client = createPublicClient({ transport: viemHttp(stack.env[`${chain.toUpperCase()}_RPC_URL`]) });
      expect(report.gasWallet.chains[chain]).toEqual({ balance: String(await client.getBalance({ address: report.gasWallet.address })) });
    }
    // The local chain starts the fee payer with 1,000 SOL; it paid every solana transfer above.
    expect(BigInt(report.feePayer.chains.solana.balance)).toBeLessThan(10n ** 12n);
    const signature = (await stack.pg.query(`SELECT tx_hash FROM vault_transfers WHERE chain = 'solana' AND status = 'confirmed' LIMIT 1`)).rows[0].tx_hash;
    const tx = await createSolanaRpc(stack.env.SOLANA_RPC_URL)
      .getTransaction(signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
      .send();
    expect(tx!.transaction.message.accountKeys[0]).toBe(report.feePayer.address);
  });

  it('the ledger and the chains agree once every transfer settled', async () => {
    const verified = await ledgerVerify(stack);
    expect(verified.report).toMatchObject({ ok: true, vaultDifferences: [] });
    expect(verified.code).toBe(0);
  });
});
