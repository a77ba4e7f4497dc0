import { newId } from '../../common/ids/ids';
import { Medium, startMedium } from '../../../test/support/medium';
import type { ChainName } from '../../config/vault-chains.config';
import { LedgerService } from '../ledger';
import { VaultModule } from './vault.module';
import { VaultRepository } from './vault.repository';
import { VaultService } from './vault.service';

/**
 * The dashboard's merchant-wide vault against a real PostgreSQL: totals per chain from the ledger
 * and the pending deposits, the businesses holding USDC page by page, every business's
 * transactions, and never another merchant's.
 */
describe('merchant-wide vault (medium)', () => {
  let m: Medium;
  let vault: VaultService;

  beforeAll(async () => {
    m = await startMedium({ name: 'vault-totals', imports: [VaultModule] });
    vault = m.app.get(VaultService);
  });

  afterAll(() => m?.close());

  /** A deposit of `micro` micro-USDC recorded pending, and credited unless `pending`. */
  async function deposit(merchantId: string, poboUserId: string, chain: ChainName, micro: number, pending = false): Promise<void> {
    const id = newId('vtx');
    await m.dataSource.transaction(async (manager) => {
      const block = BigInt(Math.floor(Math.random() * 1e9));
      await m.app.get(VaultRepository).recordDeposits(manager, [
        {
          id,
          merchantId,
          poboUserId,
          chain,
          txHash: id,
          logIndex: 0,
          fromAddress: null,
          toAddress: 'vault',
          amount: BigInt(micro),
          block,
          blockHash: `h${block}`,
        },
      ]);
      if (pending) return;
      await manager.query(`UPDATE vault_transactions SET status = 'confirmed', confirmed_at = now() WHERE tx_hash = $1`, [id]);
      await m.app.get(LedgerService).post(manager, {
        type: 'vault_deposit',
        sourceId: id,
        currency: 'USDC',
        lines: [
          { account: { vault: { merchantId, poboUserId, chain }, kind: 'vault_available' }, amount: micro },
          { account: { platform: `custody_${chain}` }, amount: -micro },
        ],
      });
    });
  }

  it('sums every business per chain, lists the holders page by page in id order, and shows nothing of another merchant', async () => {
    const merchantId = await m.merchant();
    const [a, b, onlyPending] = [await m.insertBusiness(), await m.insertBusiness(), await m.insertBusiness()];
    await deposit(merchantId, a, 'base', 10_000_000);
    await deposit(merchantId, a, 'solana', 2_500_000);
    await deposit(merchantId, a, 'solana', 500_000, true);
    await deposit(merchantId, b, 'polygon', 1_000_001);
    await deposit(merchantId, onlyPending, 'base', 3_000_000, true);
    const other = newId('mer');
    await m.sql('INSERT INTO merchants (id, name) VALUES ($1, $2)', [other, 'Other']);
    const foreign = await m.insertBusiness({ merchant_id: other });
    await deposit(other, foreign, 'base', 99_000_000);
    await deposit(other, foreign, 'base', 1_000_000, true);

    const totals = await vault.totals(merchantId);
    expect(totals).toMatchObject({ asset: 'USDC', available: 13.500001, pending: 3.5 });
    const byChain = Object.fromEntries(totals.balances.map((row) => [row.chain, [row.available, row.pending]]));
    expect(byChain).toEqual({ ethereum: [0, 0], polygon: [1.000001, 0], base: [10, 3], solana: [2.5, 0.5] });

    const first = await vault.holders(merchantId, { limit: 1 });
    expect(first.next).toBeDefined();
    const second = await vault.holders(merchantId, { limit: 1, cursor: first.next!.cursor });
    expect(second.next).toBeUndefined();
    const holders = [...first.items, ...second.items];
    expect(holders.map((row) => row.poboUserId)).toEqual([a, b].sort());
    const holderA = holders.find((row) => row.poboUserId === a)!;
    expect(holderA.businessName).toBe('Medium Trading Ltd');
    expect(holderA.balances.find((row) => row.chain === 'solana')).toMatchObject({ available: 2.5, pending: 0.5 });
    expect(holderA.balances.find((row) => row.chain === 'base')).toMatchObject({ available: 10, pending: 0 });

    const transactions = (await vault.transactions(merchantId, undefined, { limit: 100 })).items;
    expect(transactions.map((row) => row.poboUserId).sort()).toEqual([a, a, a, b, onlyPending].sort());
    expect(await vault.totals(other)).toMatchObject({ available: 99, pending: 1 });
  });
});
