import { generateKeyPairSigner } from '@solana/kit';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { Medium, startMedium } from '../../../test/support/medium';
import { startTestChains, TestChains } from '../../../test/support/chains';
import { ChainClients, createChainClients } from '../chains';
import { WalletAddressPool } from '../wallets';
import { VaultDepositsService } from './vault-deposits.service';
import { VaultModule } from './vault.module';
import { VaultService } from './vault.service';
import { VaultTransfersService } from './vault-transfers.service';

const CONFIRMATIONS = 2;

/**
 * The vault's services as the worker runs them, against a migrated PostgreSQL, Redis and the
 * local chains (blocks only when the spec mines): deposits found, held back until confirmed and
 * credited once; a transfer out reserved, signed, broadcast and settled, however often its job runs.
 */
describe('vault services (medium)', () => {
  let chains: TestChains;
  let m: Medium;
  let vault: VaultService;
  let deposits: VaultDepositsService;
  let transfers: VaultTransfersService;
  let clients: ChainClients;

  beforeAll(async () => {
    chains = await startTestChains({ confirmations: CONFIRMATIONS });
    m = await startMedium({ name: 'vault-services', imports: [VaultModule], env: chains.env });
    vault = m.app.get(VaultService);
    deposits = m.app.get(VaultDepositsService);
    transfers = m.app.get(VaultTransfersService);
    clients = createChainClients(m.config);
    // The first run only places each chain's cursor at its head.
    await deposits.followChains();
  }, 120_000);

  afterAll(async () => {
    await m?.close();
    await chains?.close();
  });

  /** A business whose vault addresses are the wallet's, verified unless `kybStatus` says otherwise. */
  async function business(kybStatus = 'verified'): Promise<string> {
    const wallet = await m.app.get(WalletAddressPool).next();
    return m.insertBusiness({
      kyb_status: kybStatus,
      agreement_status: 'accepted',
      wallet_index: wallet.index,
      evm_address: wallet.evm,
      svm_address: wallet.svm,
    });
  }

  const balance = async (poboUserId: string, chain: string) => (await vault.vault(await m.merchant(), poboUserId)).balances.find((b) => b.chain === chain)!;
  const statusHistory = (table: string, key: string, id: string) =>
    m.sql<{ from_status: string; to_status: string; cause: string }>(`SELECT from_status, to_status, cause FROM ${table} WHERE ${key} = $1 ORDER BY id`, [id]);

  /** `amount` USDC sent by the faucet and credited: seen, then confirmed `CONFIRMATIONS` blocks deep. */
  async function funded(chain: 'base' | 'solana', amount: number): Promise<string> {
    const poboUserId = await business();
    await vault.sendTestDeposit(await m.merchant(), { poboUserId, chain, amount }, undefined);
    await chains.mine(chain, CONFIRMATIONS);
    await deposits.followChains();
    expect((await balance(poboUserId, chain)).available).toBe(amount);
    return poboUserId;
  }

  it('finds a deposit, holds it pending until it is confirmations deep, then credits it once however often the follower runs', async () => {
    const merchantId = await m.merchant();
    const poboUserId = await business();
    await vault.sendTestDeposit(merchantId, { poboUserId, chain: 'base', amount: 12.5 }, undefined);

    await deposits.followChains();
    await deposits.followChains();
    expect(await balance(poboUserId, 'base')).toMatchObject({ available: 0, pending: 12.5 });
    const [line] = (await vault.transactions(merchantId, poboUserId, { limit: 10 })).items;
    expect(line).toMatchObject({ direction: 'deposit', status: 'pending', amount: 12.5 });

    await chains.mine('base', CONFIRMATIONS);
    await deposits.followChains();
    await deposits.followChains();
    expect(await balance(poboUserId, 'base')).toMatchObject({ available: 12.5, pending: 0 });
    expect(await statusHistory('vault_transaction_status_history', 'vault_transaction_id', line.vaultTransactionId)).toEqual([
      { from_status: 'pending', to_status: 'confirmed', cause: 'confirmations_reached' },
    ]);
    const credits = await m.sql(`SELECT 1 FROM ledger_transactions WHERE source_id = $1`, [line.vaultTransactionId]);
    expect(credits).toHaveLength(1);
  });

  it('drops a deposit whose block a reorganisation replaced before it was confirmed: nothing is credited', async () => {
    const merchantId = await m.merchant();
    const poboUserId = await business();
    const before = await chains.snapshot('base');
    await vault.sendTestDeposit(merchantId, { poboUserId, chain: 'base', amount: 7 }, undefined);
    await deposits.followChains();
    expect((await balance(poboUserId, 'base')).pending).toBe(7);

    await chains.revert('base', before);
    await chains.mine('base', CONFIRMATIONS + 1);
    await deposits.followChains();
    await deposits.followChains();

    expect(await balance(poboUserId, 'base')).toMatchObject({ available: 0, pending: 0 });
    const [line] = (await vault.transactions(merchantId, poboUserId, { limit: 10 })).items;
    expect(line.status).toBe('dropped');
    expect(await m.sql(`SELECT 1 FROM ledger_transactions WHERE source_id = $1`, [line.vaultTransactionId])).toHaveLength(0);
  });

  it.each(['base', 'solana'] as const)(
    'a transfer on %s whose send job runs twice at once moves the USDC once, settles, and debits the vault amount plus fee',
    async (chain) => {
      const merchantId = await m.merchant();
      const poboUserId = await funded(chain, 30);
      const to = chain === 'solana' ? (await generateKeyPairSigner()).address : privateKeyToAccount(generatePrivateKey()).address;
      const created = await transfers.create(
        merchantId,
        { poboUserId, chain, asset: 'USDC', amount: 10, toAddress: to, merchantReference: 'medium-1' },
        undefined,
      );
      const fee = created.networkFee;
      expect(created.status).toBe('pending');
      expect((await balance(poboUserId, chain)).available).toBe(30 - 10 - fee);

      // The outbox delivered the job twice (a relay that died before marking it sent).
      await Promise.all([transfers.send({ vaultTransferId: created.vaultTransferId }), transfers.send({ vaultTransferId: created.vaultTransferId })]);
      expect((await transfers.get(merchantId, created.vaultTransferId)).status).toBe('submitted');

      await chains.mine(chain, CONFIRMATIONS);
      await transfers.settle();
      await transfers.settle();

      expect((await transfers.get(merchantId, created.vaultTransferId)).status).toBe('confirmed');
      expect(await clients.get(chain)!.usdcBalance(to)).toBe(10_000_000n);
      expect((await balance(poboUserId, chain)).available).toBeCloseTo(30 - 10 - fee, 6);
      expect(await statusHistory('vault_transfer_status_history', 'vault_transfer_id', created.vaultTransferId)).toEqual([
        { from_status: 'pending', to_status: 'submitted', cause: 'broadcast' },
        { from_status: 'submitted', to_status: 'confirmed', cause: 'confirmations_reached' },
      ]);
      const postings = await m.sql<{ type: string }>(`SELECT type FROM ledger_transactions WHERE source_id = $1 ORDER BY created_at`, [
        created.vaultTransferId,
      ]);
      expect(postings.map((p) => p.type)).toEqual(['vault_transfer_reserved', 'vault_transfer_confirmed']);
    },
  );

  it('refuses a transfer the available balance does not cover, and one from a business not verified, writing nothing', async () => {
    const merchantId = await m.merchant();
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const poor = await funded('base', 5);
    await expect(
      transfers.create(merchantId, { poboUserId: poor, chain: 'base', asset: 'USDC', amount: 5, toAddress: to, merchantReference: 'too-much' }, undefined),
    ).rejects.toMatchObject({ code: 'insufficient_funds' });
    const unverified = await business('processing');
    await expect(
      transfers.create(
        merchantId,
        { poboUserId: unverified, chain: 'base', asset: 'USDC', amount: 1, toAddress: to, merchantReference: 'unverified' },
        undefined,
      ),
    ).rejects.toMatchObject({ code: 'kyb_not_verified' });
    expect(await m.sql(`SELECT 1 FROM vault_transfers WHERE pobo_user_id IN ($1, $2)`, [poor, unverified])).toHaveLength(0);
    expect(
      await m.sql(
        `SELECT 1 FROM outbox WHERE job_name = 'vault.send-transfer' AND payload->>'vaultTransferId' IN (SELECT id FROM vault_transfers WHERE pobo_user_id IN ($1, $2))`,
        [poor, unverified],
      ),
    ).toHaveLength(0);
  });
});
