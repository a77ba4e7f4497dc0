import { newId } from '../../common/ids/ids';
import { Medium, startMedium } from '../../../test/support/medium';
import { SeenDeposit, VaultRepository } from './vault.repository';

/** The vault's SQL against a real, migrated PostgreSQL. */
describe('VaultRepository (medium)', () => {
  let m: Medium;
  let repository: VaultRepository;

  beforeAll(async () => {
    m = await startMedium({ name: 'vault', providers: [VaultRepository] });
    repository = m.app.get(VaultRepository);
  });

  afterAll(() => m?.close());

  it('records a batch in which the RPC repeated and reordered transfers: one deposit each, in the latest block it was seen in', async () => {
    const merchantId = await m.merchant();
    const poboUserId = await m.insertBusiness();
    const seen = (txHash: string, block: bigint, amount = 1_000_000n): SeenDeposit => ({
      id: newId('vtx'),
      merchantId,
      poboUserId,
      chain: 'solana',
      txHash,
      logIndex: 1,
      fromAddress: null,
      toAddress: 'vault',
      amount,
      block,
      blockHash: `hash-${block}`,
    });
    const batch = [seen('sig-b', 12n), seen('sig-a', 10n), seen('sig-b', 12n), seen('sig-a', 11n), seen('sig-c', 13n, 3_000_000n), seen('sig-a', 10n)];

    await m.dataSource.transaction((manager) => repository.recordDeposits(manager, batch));
    // The same batch again (a run retried after a cut connection): nothing new.
    await m.dataSource.transaction((manager) => repository.recordDeposits(manager, batch));

    const rows = await m.sql<{ tx_hash: string; block_number: string; status: string }>(
      `SELECT tx_hash, block_number, status FROM vault_transactions WHERE pobo_user_id = $1 ORDER BY tx_hash`,
      [poboUserId],
    );
    expect(rows).toEqual([
      { tx_hash: 'sig-a', block_number: '11', status: 'pending' },
      { tx_hash: 'sig-b', block_number: '12', status: 'pending' },
      { tx_hash: 'sig-c', block_number: '13', status: 'pending' },
    ]);
  });
});
