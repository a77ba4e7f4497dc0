import { newId } from '../../common/ids/ids';
import type { StateMachine } from '../../common/state-machine/state-machine';
import { Medium, startMedium } from '../../../test/support/medium';
import { VAULT_TRANSACTION_STATES, VAULT_TRANSFER_STATES } from './vault.states';
import { SeenDeposit, VaultRepository } from './vault.repository';
import { VaultTransfersRepository } from './vault-transfers.repository';

/** The vault's statuses move through their machines only, each move in its history, against a real, migrated PostgreSQL. */
describe('vault statuses (medium)', () => {
  let m: Medium;
  let vault: VaultRepository;
  let transfers: VaultTransfersRepository;

  beforeAll(async () => {
    m = await startMedium({ name: 'vault-states', providers: [VaultRepository, VaultTransfersRepository] });
    vault = m.app.get(VaultRepository);
    transfers = m.app.get(VaultTransfersRepository);
  });

  afterAll(() => m?.close());

  async function newTransfer(): Promise<{ id: string; lineId: string }> {
    const id = newId('vtr');
    const lineId = newId('vtx');
    const merchantId = await m.merchant();
    const poboUserId = await m.insertBusiness();
    await m.dataSource.transaction((manager) =>
      transfers.insert(manager, {
        id,
        merchantId,
        poboUserId,
        vaultTransactionId: lineId,
        chain: 'base',
        fromAddress: `0x${id.slice(4).padStart(40, '0')}`,
        walletIndex: 1,
        toAddress: '0x2f1A6b4d8c0e2F4A6b8C0d2E4F6A8B0C2d4e6f8A',
        merchantReference: `ref-${id}`,
        amount: 1_000_000,
        networkFee: 10_000,
      }),
    );
    return { id, lineId };
  }

  const history = (table: string, key: string, id: string) =>
    m.sql<{ from_status: string; to_status: string; cause: string }>(`SELECT from_status, to_status, cause FROM ${table} WHERE ${key} = $1 ORDER BY id`, [id]);

  /** Every pair of the table's statuses, written directly: the database takes exactly the moves the machine declares. */
  async function everyPair(table: string, machine: StateMachine<string>, row: () => Promise<string>): Promise<void> {
    for (const from of machine.states) {
      for (const to of machine.states) {
        if (from === to) continue;
        const id = await row();
        await m.sql(`ALTER TABLE ${table} DISABLE TRIGGER ${table}_status_move`);
        await m.sql(`UPDATE ${table} SET status = $2 WHERE id = $1`, [id, from]);
        await m.sql(`ALTER TABLE ${table} ENABLE TRIGGER ${table}_status_move`);
        const move = m.sql(`UPDATE ${table} SET status = $2 WHERE id = $1`, [id, to]);
        if (machine.can(from, to)) await expect(move).resolves.toBeDefined();
        else await expect(move).rejects.toThrow(`${table} status cannot move from ${from} to ${to}`);
      }
    }
  }

  it('refuses, loudly, every transfer move VAULT_TRANSFER_STATES does not declare, whoever writes it', async () => {
    await everyPair('vault_transfers', VAULT_TRANSFER_STATES, async () => (await newTransfer()).id);
  });

  it('refuses, loudly, every vault transaction move VAULT_TRANSACTION_STATES does not declare', async () => {
    await everyPair('vault_transactions', VAULT_TRANSACTION_STATES, async () => (await newTransfer()).lineId);
  });

  it('moves a transfer and its line together, each move in both histories with its cause, and a move the machine forbids moves nothing', async () => {
    const { id, lineId } = await newTransfer();
    expect(await m.dataSource.transaction((manager) => transfers.move(manager, id, 'submitted', 'broadcast'))).toBe(true);
    expect(await m.dataSource.transaction((manager) => transfers.move(manager, id, 'confirmed', 'confirmations_reached', { confirmations: 12 }))).toBe(true);
    // Confirmed is final: a late failure (another run's revert) finds nothing to move.
    expect(await m.dataSource.transaction((manager) => transfers.move(manager, id, 'failed', 'reverted', { failureReason: 'late' }))).toBe(false);

    const expected = [
      { from_status: 'pending', to_status: 'submitted', cause: 'broadcast' },
      { from_status: 'submitted', to_status: 'confirmed', cause: 'confirmations_reached' },
    ];
    expect(await history('vault_transfer_status_history', 'vault_transfer_id', id)).toEqual(expected);
    expect(await history('vault_transaction_status_history', 'vault_transaction_id', lineId)).toEqual(expected);
    const [row] = await m.sql<{ status: string; failure_reason: string | null }>(`SELECT status, failure_reason FROM vault_transfers WHERE id = $1`, [id]);
    expect(row).toEqual({ status: 'confirmed', failure_reason: null });
    // The history is append-only.
    await expect(m.sql(`DELETE FROM vault_transfer_status_history WHERE vault_transfer_id = $1`, [id])).rejects.toThrow('append-only');
  });

  it('sends a submitted transfer whose blockhash expired back to pending, unsigned, with its line', async () => {
    const { id, lineId } = await newTransfer();
    await m.dataSource.transaction((manager) => transfers.recordSigned(manager, id, { raw: 'raw', txHash: 'sig-expired', nonce: null, validUntil: 10n }));
    await m.dataSource.transaction((manager) => transfers.move(manager, id, 'submitted', 'broadcast'));
    expect(await transfers.forgetSigned(id, 'sig-expired')).toBe(true);
    expect(await transfers.forgetSigned(id, 'sig-expired')).toBe(false);

    const [row] = await m.sql<{ status: string; tx_hash: string | null }>(`SELECT status, tx_hash FROM vault_transfers WHERE id = $1`, [id]);
    expect(row).toEqual({ status: 'pending', tx_hash: null });
    expect((await history('vault_transaction_status_history', 'vault_transaction_id', lineId)).map((h) => h.cause)).toEqual(['broadcast', 'blockhash_expired']);
  });

  it("records a deposit's moves: dropped with its block, pending again when seen in another, confirmed once", async () => {
    const merchantId = await m.merchant();
    const poboUserId = await m.insertBusiness();
    const deposit = (block: bigint): SeenDeposit => ({
      id: newId('vtx'),
      merchantId,
      poboUserId,
      chain: 'base',
      txHash: `0x${poboUserId}`,
      logIndex: 0,
      fromAddress: null,
      toAddress: 'vault',
      amount: 5_000_000n,
      block,
      blockHash: `hash-${block}`,
    });
    await m.dataSource.transaction((manager) => vault.recordDeposits(manager, [deposit(20n)]));
    const [{ id }] = await m.sql<{ id: string }>(`SELECT id FROM vault_transactions WHERE pobo_user_id = $1`, [poboUserId]);
    await m.dataSource.transaction((manager) => vault.dropDeposit(manager, id, 'hash-20'));
    await m.dataSource.transaction((manager) => vault.recordDeposits(manager, [deposit(21n)]));
    // The block that dropped it is no longer its block: confirming it there moves nothing.
    expect(await m.dataSource.transaction((manager) => vault.confirmDeposit(manager, id, 'hash-20', 12))).toBe(false);
    expect(await m.dataSource.transaction((manager) => vault.confirmDeposit(manager, id, 'hash-21', 12))).toBe(true);
    expect(await m.dataSource.transaction((manager) => vault.confirmDeposit(manager, id, 'hash-21', 12))).toBe(false);

    expect(await history('vault_transaction_status_history', 'vault_transaction_id', id)).toEqual([
      { from_status: 'pending', to_status: 'dropped', cause: 'block_replaced' },
      { from_status: 'dropped', to_status: 'pending', cause: 'reincluded' },
      { from_status: 'pending', to_status: 'confirmed', cause: 'confirmations_reached' },
    ]);
  });
});
