import { newId } from '../../common/ids/ids';
import { ledgerVerify } from '../../../test/support/money-stack';
import { confirmedPayment, Medium, startMedium } from '../../../test/support/medium';
import { InsufficientFundsError } from './ledger.errors';
import { LedgerModule } from './ledger.module';
import { LedgerService, Posting } from './ledger.service';

/** LedgerService against a real, migrated PostgreSQL, and `npm run ledger:verify` on what it wrote. */
describe('LedgerService (medium)', () => {
  let m: Medium;
  let ledger: LedgerService;

  beforeAll(async () => {
    m = await startMedium({ name: 'ledger', imports: [LedgerModule] });
    ledger = m.app.get(LedgerService);
  });

  afterAll(() => m?.close());

  const newMerchant = async () => {
    const id = newId('mer');
    await m.sql('INSERT INTO merchants (id, name) VALUES ($1, $2)', [id, 'Ledger Merchant']);
    return id;
  };
  const credit = confirmedPayment;
  const reserve = (merchantId: string, amount: number): Posting => ({
    type: 'withdrawal_reserved',
    sourceId: newId('wd'),
    currency: 'NGN',
    lines: [
      { account: { merchantId, kind: 'available' }, amount: -amount },
      { account: { merchantId, kind: 'reserved' }, amount },
    ],
    balanceTransactions: [{ merchantId, type: 'withdrawal', amount: -amount }],
  });
  const post = (posting: Posting) => m.dataSource.transaction((manager) => ledger.post(manager, posting));
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (err: unknown) => err,
    );
  const verify = () => ledgerVerify({ db: m.db, env: {} }) as Promise<{ code: number; report: Record<string, unknown> }>;

  it('posts a balanced transaction, keeps the balances in step and the merchant view with it', async () => {
    const merchantId = await newMerchant();
    await post(credit(merchantId, 10_050));
    await post(reserve(merchantId, 50));

    expect(await ledger.balance(merchantId, 'NGN')).toEqual({ currency: 'NGN', available: 100, reserved: 0.5 });
    expect((await ledger.balanceTransactions(merchantId, 10))!.map((b) => [b.type, b.amount])).toEqual([
      ['withdrawal', -0.5],
      ['payment', 100.5],
    ]);
  });

  it('refuses an unbalanced posting or a zero line before writing anything', async () => {
    const merchantId = await newMerchant();
    const unbalanced = { ...credit(merchantId, 100), lines: [{ account: { merchantId, kind: 'available' as const }, amount: 100 }] };
    expect(await failure(post(unbalanced))).toEqual(new Error('ledger: payment_confirmed does not balance (100)'));
    expect(
      await failure(post({ ...credit(merchantId, 100), lines: [...credit(merchantId, 100).lines, { account: { platform: 'fee_revenue' }, amount: 0 }] })),
    ).toBeInstanceOf(Error);
    expect(await m.sql('SELECT id FROM ledger_accounts WHERE merchant_id = $1', [merchantId])).toEqual([]);
  });

  it('refuses to take a merchant below zero, and writes nothing of that posting', async () => {
    const merchantId = await newMerchant();
    await post(credit(merchantId, 100));
    expect(await failure(post(reserve(merchantId, 101)))).toBeInstanceOf(InsufficientFundsError);
    expect(await ledger.balance(merchantId, 'NGN')).toEqual({ currency: 'NGN', available: 1, reserved: 0 });
    expect(
      await m.sql(
        `SELECT count(*)::int AS n FROM ledger_transactions WHERE type = 'withdrawal_reserved' AND id IN (SELECT transaction_id FROM ledger_entries WHERE account_id = $1)`,
        [`${merchantId}:available:NGN`],
      ),
    ).toEqual([{ n: 0 }]);
  });

  it('20 concurrent reservations of 10 over a balance of 100: exactly 10 succeed, no deadlock', async () => {
    const merchantId = await newMerchant();
    await post(credit(merchantId, 100));
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => failure(post(reserve(merchantId, 10)))));

    expect(outcomes.filter((o) => o === undefined)).toHaveLength(10);
    expect(outcomes.filter((o) => o instanceof InsufficientFundsError)).toHaveLength(10);
    expect(await ledger.balance(merchantId, 'NGN')).toEqual({ currency: 'NGN', available: 0, reserved: 1 });
  });

  it('verifies only what was written since the last run that held: what a run could not see yet, the next reads', async () => {
    const none = { unbalancedTransactions: [], driftedAccounts: [], negativeMerchantAccounts: [], balanceTransactionMismatches: [], activityMismatches: [] };
    const merchantId = await newMerchant();
    await post(credit(merchantId, 1_000));
    expect(await ledger.verify({ full: true })).toMatchObject({ problems: none, checked: { since: null } });

    // A posting still open while a run looks is not in its snapshot, though its writer's xid is older than the run's.
    const open = credit(merchantId, 200);
    const runner = m.dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      await ledger.post(runner.manager, open);
      const during = await ledger.verify({ full: false });
      expect(during).toMatchObject({ problems: none, checked: { ledgerEntries: 0, balanceTransactions: 0 } });
      expect(during.checked.since).toBeInstanceOf(Date);
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    // Two runs at once: one reads the posting, the other waits and reads nothing; neither adds it to the kept sums twice.
    const both = await Promise.all([ledger.verify({ full: false }), ledger.verify({ full: false })]);
    expect(both.map((run) => run.problems)).toEqual([none, none]);
    expect(both.map((run) => run.checked.ledgerEntries).sort()).toEqual([0, open.lines.length]);
    expect(both.map((run) => run.checked.balanceTransactions).sort()).toEqual([0, 1]);

    // A run that finds a problem keeps its checkpoint: the next run reads the same rows again, and finds it again until it is mended.
    const ltx = newId('ltx');
    await m.sql(`INSERT INTO ledger_transactions (id, type, source_id) VALUES ($1, 'tampered', 'x')`, [ltx]);
    await m.sql(`INSERT INTO ledger_entries (transaction_id, account_id, amount) VALUES ($1, 'platform:unconfirmed_collections:NGN', 7)`, [ltx]);
    for (let run = 0; run < 2; run++) {
      expect(await ledger.verify({ full: false })).toMatchObject({ problems: { unbalancedTransactions: [ltx] }, checked: { ledgerEntries: 1 } });
    }
    await m.sql(`INSERT INTO ledger_entries (transaction_id, account_id, amount) VALUES ($1, 'platform:unconfirmed_collections:NGN', -7)`, [ltx]);
    expect(await ledger.verify({ full: false })).toMatchObject({ problems: none, checked: { ledgerEntries: 2 } });
    expect(await ledger.verify({ full: false })).toMatchObject({ problems: none, checked: { ledgerEntries: 0 } });
    // A full run counts every sum again from nothing and agrees.
    expect((await ledger.verify({ full: true })).problems).toEqual(none);
  });

  it('ledger:verify passes on what the service wrote, and names what is wrong when the books are tampered with', async () => {
    const clean = await verify();
    expect([clean.code, clean.report.ok]).toEqual([0, true]);

    const merchantId = await newMerchant();
    await post(credit(merchantId, 500));
    const account = `${merchantId}:available:NGN`;
    await m.sql('UPDATE ledger_accounts SET balance = balance + 1 WHERE id = $1', [account]);
    const ltx = newId('ltx');
    await m.sql(`INSERT INTO ledger_transactions (id, type, source_id) VALUES ($1, 'tampered', 'x')`, [ltx]);
    await m.sql(`INSERT INTO ledger_entries (transaction_id, account_id, amount) VALUES ($1, 'platform:fee_revenue:NGN', 7)`, [ltx]).catch(async () => {
      await m.sql(`INSERT INTO ledger_accounts (id, kind, currency) VALUES ('platform:fee_revenue:NGN', 'fee_revenue', 'NGN') ON CONFLICT DO NOTHING`);
      await m.sql(`INSERT INTO ledger_entries (transaction_id, account_id, amount) VALUES ($1, 'platform:fee_revenue:NGN', 7)`, [ltx]);
    });

    const { code, report } = await verify();
    expect(code).toBe(1);
    expect(report).toMatchObject({ ok: false, unbalancedTransactions: [ltx], balanceTransactionMismatches: [account] });
    // A platform account keeps no balance to drift from: the stray entry shows as the unbalanced transaction.
    expect(report.driftedAccounts).toEqual([account]);
  });

  it("keeps no balance on a platform account, so one merchant's open posting never holds up another's", async () => {
    const [first, second] = [await newMerchant(), await newMerchant()];
    await post(credit(first, 1));
    // The first merchant's posting stays uncommitted, holding whatever rows it locked.
    const runner = m.dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      await ledger.post(runner.manager, credit(first, 5));
      const started = Date.now();
      await m.dataSource.transaction(async (manager) => {
        await manager.query(`SET LOCAL lock_timeout = '2s'`);
        await ledger.post(manager, credit(second, 7));
      });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    expect(await m.sql(`SELECT balance FROM ledger_accounts WHERE id = 'platform:unconfirmed_collections:NGN'`)).toEqual([{ balance: null }]);
    expect(await ledger.balance(second, 'NGN')).toEqual({ currency: 'NGN', available: 0.07, reserved: 0 });
    expect(await ledger.balance(first, 'NGN')).toEqual({ currency: 'NGN', available: 0.01, reserved: 0 });
  });

  describe('postAtCommit', () => {
    /** Whether another session can take the merchant's `reserved` row right now. */
    const reservedRowFree = async (merchantId: string) => {
      const probe = m.dataSource.createQueryRunner();
      try {
        await probe.startTransaction();
        await probe.query(`SELECT id FROM ledger_accounts WHERE id = $1 FOR UPDATE NOWAIT`, [`${merchantId}:reserved:NGN`]);
        return true;
      } catch {
        return false;
      } finally {
        await probe.rollbackTransaction();
        await probe.release();
      }
    };

    it('posts right before COMMIT, in order, so the rows are not locked while the transaction goes on', async () => {
      const merchantId = await newMerchant();
      await post(credit(merchantId, 1_000));
      await post(reserve(merchantId, 300));
      const runner = m.dataSource.createQueryRunner();
      await runner.startTransaction();
      try {
        ledger.postAtCommit(runner.manager, reserve(merchantId, 700));
        // Then a release of 900 that the reservation before it makes possible: the order is kept.
        ledger.postAtCommit(runner.manager, reserve(merchantId, -900));
        await runner.query('SELECT 1');
        expect(await reservedRowFree(merchantId)).toBe(true);
        expect(await runner.query(`SELECT balance FROM ledger_accounts WHERE id = $1`, [`${merchantId}:reserved:NGN`])).toEqual([{ balance: '300' }]);
        await runner.commitTransaction();
      } finally {
        await runner.release();
      }
      expect(await ledger.balance(merchantId, 'NGN')).toEqual({ currency: 'NGN', available: 9, reserved: 1 });
    });

    it('writes nothing when the transaction rolls back, and a posting that falls short rolls back the whole transaction', async () => {
      const merchantId = await newMerchant();
      await post(credit(merchantId, 100));
      await m.dataSource
        .transaction((manager) => {
          ledger.postAtCommit(manager, reserve(merchantId, 60));
          return Promise.reject(new Error('changed its mind'));
        })
        .catch(() => undefined);
      // A later transaction in a session the pool may hand out again posts only its own.
      await m.dataSource.transaction((manager) => Promise.resolve(ledger.postAtCommit(manager, reserve(merchantId, 10))));
      expect(await ledger.balance(merchantId, 'NGN')).toEqual({ currency: 'NGN', available: 0.9, reserved: 0.1 });

      const marker = newId('mer');
      const failed = await failure(
        m.dataSource.transaction(async (manager) => {
          await manager.query('INSERT INTO merchants (id, name) VALUES ($1, $2)', [marker, 'Written before the posting']);
          ledger.postAtCommit(manager, reserve(merchantId, 91));
        }),
      );
      expect(failed).toBeInstanceOf(InsufficientFundsError);
      expect(await m.sql('SELECT id FROM merchants WHERE id = $1', [marker])).toEqual([]);
      expect(await ledger.balance(merchantId, 'NGN')).toEqual({ currency: 'NGN', available: 0.9, reserved: 0.1 });
    });

    it('refuses an unbalanced posting when it is made, and outside a transaction', async () => {
      const merchantId = await newMerchant();
      const unbalanced = { ...credit(merchantId, 100), lines: [{ account: { merchantId, kind: 'available' as const }, amount: 100 }] };
      await m.dataSource.transaction((manager) =>
        Promise.resolve(expect(() => ledger.postAtCommit(manager, unbalanced)).toThrow('ledger: payment_confirmed does not balance (100)')),
      );
      expect(() => ledger.postAtCommit(m.dataSource.manager, credit(merchantId, 1))).toThrow('posted at commit outside a transaction');
      expect(await m.sql('SELECT id FROM ledger_accounts WHERE merchant_id = $1', [merchantId])).toEqual([]);
    });
  });

  it('the ledger tables are append-only', async () => {
    const merchantId = await newMerchant();
    await post(credit(merchantId, 5));
    await expect(m.sql(`UPDATE ledger_entries SET amount = amount * 2 WHERE account_id = $1`, [`${merchantId}:available:NGN`])).rejects.toThrow(/append-only/);
    await expect(m.sql(`DELETE FROM balance_transactions WHERE merchant_id = $1`, [merchantId])).rejects.toThrow(/append-only/);
  });
});
