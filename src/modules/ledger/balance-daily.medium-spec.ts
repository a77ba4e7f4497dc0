import { newId } from '../../common/ids/ids';
import { confirmedPayment, Medium, startMedium } from '../../../test/support/medium';
import { BalanceService } from './balance.service';
import { LedgerModule } from './ledger.module';
import { LedgerService, Posting } from './ledger.service';

const DAY = 86_400_000;
const TIME_ZONE = 'America/New_York';

/**
 * The overview charts' figures against a seeded ledger: 45 days of payments, withdrawals (some
 * failing back), international payments (some rejected back) and fees, each posted through the
 * ledger and dated back. Each day's figures equal the seeded amounts of that calendar day in the
 * time zone asked for (one with a daylight-saving change in the window), and each closing balance
 * equals the sum of the available account's ledger entries up to that day's end. A posting made
 * now keeps the 15 minutes' sums the figures read, and `ledger:verify` tells sums that drifted.
 */
describe('daily activity (medium)', () => {
  let m: Medium;
  let ledger: LedgerService;

  beforeAll(async () => {
    m = await startMedium({ name: 'balance-daily', imports: [LedgerModule] });
    ledger = m.app.get(LedgerService);
  });

  afterAll(() => m?.close());

  const out = (merchantId: string, type: 'withdrawal' | 'international_payment', amount: number): Posting => ({
    type: `${type}_reserved`,
    sourceId: newId(type === 'withdrawal' ? 'wd' : 'ipi'),
    currency: 'NGN',
    lines: [
      { account: { merchantId, kind: 'available' }, amount: -amount },
      { account: { merchantId, kind: 'reserved' }, amount },
    ],
    balanceTransactions: [{ merchantId, type, amount: -amount }],
  });
  const back = (merchantId: string, type: 'withdrawal_reversal' | 'international_payment_reversal', amount: number): Posting => ({
    type,
    sourceId: newId('wd'),
    currency: 'NGN',
    lines: [
      { account: { merchantId, kind: 'reserved' }, amount: -amount },
      { account: { merchantId, kind: 'available' }, amount },
    ],
    balanceTransactions: [{ merchantId, type, amount }],
  });
  const fee = (merchantId: string, amount: number): Posting => ({
    type: 'fee',
    sourceId: newId('wd'),
    currency: 'NGN',
    lines: [
      { account: { merchantId, kind: 'available' }, amount: -amount },
      { account: { platform: 'fee_revenue' }, amount },
    ],
    balanceTransactions: [{ merchantId, type: 'fee', amount: -amount }],
  });

  it("gives each day's collections, payouts, international payments and fees as seeded, and each closing balance as the ledger's entries sum", async () => {
    const merchantId = newId('mer');
    await m.sql('INSERT INTO merchants (id, name) VALUES ($1, $2)', [merchantId, 'Charts Merchant']);
    await m.sql(`INSERT INTO ledger_accounts (id, kind, currency) VALUES ('platform:fee_revenue:NGN', 'fee_revenue', 'NGN') ON CONFLICT DO NOTHING`);
    const dayIn = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
    const expected = new Map<
      string,
      { collected: number; collectedCount: number; paidOut: number; paidOutCount: number; sentAbroad: number; sentAbroadCount: number; fees: number }
    >();
    const on = (at: Date) => {
      const date = dayIn.format(at);
      if (!expected.has(date)) expected.set(date, { collected: 0, collectedCount: 0, paidOut: 0, paidOutCount: 0, sentAbroad: 0, sentAbroadCount: 0, fees: 0 });
      return expected.get(date)!;
    };
    // Dating a posting back rewrites its rows, which the ledger's append-only triggers refuse: this
    // spec's own connection skips triggers (a superuser's replication role); the service's never does.
    await m.sql('SET session_replication_role = replica');
    const dated = async (posting: Posting, at: Date) => {
      await m.dataSource.transaction((manager) => ledger.post(manager, posting));
      await m.sql('UPDATE ledger_transactions SET created_at = $2 WHERE source_id = $1', [posting.sourceId, at]);
      await m.sql('UPDATE balance_transactions SET created_at = $2 WHERE source_id = $1', [posting.sourceId, at]);
    };

    // Every 7 hours for 45 days, oldest first, so the balance never goes below zero.
    const now = Date.now();
    for (let i = 0, at = now - 45 * DAY; at < now - 60_000; i++, at += 7 * 3_600_000) {
      const when = new Date(at);
      const day = on(when);
      const credit = 100_000 + ((i * 7919) % 50_000);
      await dated(confirmedPayment(merchantId, credit), when);
      day.collected += credit;
      day.collectedCount += 1;
      if (i % 3 === 0) {
        const amount = 20_000 + ((i * 131) % 5_000);
        await dated(out(merchantId, 'withdrawal', amount), when);
        day.paidOut += amount;
        day.paidOutCount += 1;
        await dated(fee(merchantId, 5_000), when);
        day.fees += 5_000;
        if (i % 9 === 0) {
          await dated(back(merchantId, 'withdrawal_reversal', amount), when);
          day.paidOut -= amount;
        }
      }
      if (i % 4 === 1) {
        const amount = 30_000 + ((i * 17) % 9_000);
        await dated(out(merchantId, 'international_payment', amount), when);
        day.sentAbroad += amount;
        day.sentAbroadCount += 1;
        if (i % 8 === 1) {
          await dated(back(merchantId, 'international_payment_reversal', amount), when);
          day.sentAbroad -= amount;
        }
      }
    }

    await m.sql('SET session_replication_role = DEFAULT');
    // The 15 minutes' sums were kept at the postings' own time: summed again from the dated balance transactions.
    await m.sql('DELETE FROM balance_activity WHERE merchant_id = $1', [merchantId]);
    await m.sql(
      `INSERT INTO balance_activity (merchant_id, currency, bucket, type, amount, count)
       SELECT merchant_id, currency, date_bin('15 minutes', created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), type, sum(amount), count(*)
         FROM balance_transactions WHERE merchant_id = $1 GROUP BY 1, 2, 3, 4`,
      [merchantId],
    );
    expect((await ledger.verify({ full: true })).problems.activityMismatches).not.toContain(merchantId);

    const daily = await m.app.get(BalanceService).daily(merchantId, { days: 30, timeZone: TIME_ZONE });
    expect(daily).toMatchObject({ currency: 'NGN', timeZone: TIME_ZONE });
    expect(daily.days).toHaveLength(30);
    expect(daily.days[29].date).toBe(dayIn.format(new Date()));
    const kobo = (naira: number) => Math.round(naira * 100);
    for (const day of daily.days) {
      const seeded = expected.get(day.date) ?? { collected: 0, collectedCount: 0, paidOut: 0, paidOutCount: 0, sentAbroad: 0, sentAbroadCount: 0, fees: 0 };
      expect({
        ...day,
        collected: kobo(day.collected),
        paidOut: kobo(day.paidOut),
        sentAbroad: kobo(day.sentAbroad),
        fees: kobo(day.fees),
        closingAvailable: 0,
      }).toEqual({
        ...seeded,
        date: day.date,
        closingAvailable: 0,
      });
      // The day's end in the time zone: the start of the next calendar day there.
      const [{ sum }] = await m.sql<{ sum: string }>(
        `SELECT COALESCE(sum(e.amount), 0)::text AS sum FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
          WHERE e.account_id = $1 AND t.created_at < (($2::date + 1)::timestamp AT TIME ZONE $3)`,
        [`${merchantId}:available:NGN`, day.date, TIME_ZONE],
      );
      expect(kobo(day.closingAvailable)).toBe(Number(sum));
    }
    // The window holds the daylight-saving change (1 November in New York) when it falls in the last 30 days; every day is there once, in order.
    expect(new Set(daily.days.map((day) => day.date)).size).toBe(30);
    expect([...daily.days.map((day) => day.date)].sort()).toEqual(daily.days.map((day) => day.date));

    // A posting now adds itself to today's sums, in its own statement, and the sums still agree.
    await m.dataSource.transaction((manager) => ledger.post(manager, confirmedPayment(merchantId, 123_456)));
    const after = await m.app.get(BalanceService).daily(merchantId, { days: 30, timeZone: TIME_ZONE });
    expect(kobo(after.days[29].collected)).toBe(kobo(daily.days[29].collected) + 123_456);
    expect(after.days[29].collectedCount).toBe(daily.days[29].collectedCount + 1);
    expect(kobo(after.days[29].closingAvailable)).toBe(kobo(daily.days[29].closingAvailable) + 123_456);
    // The next run reads only that posting's rows, and sums its 15 minutes again from the balance transactions.
    const incremental = await ledger.verify({ full: false });
    expect(incremental.problems.activityMismatches).not.toContain(merchantId);
    expect(incremental.checked.since).toBeInstanceOf(Date);
    expect(incremental.checked.balanceTransactions).toBe(1);
    // A full run tells sums that drifted from the balance transactions by hand, which wrote no ledger row.
    await m.sql(
      `UPDATE balance_activity SET amount = amount + 1 WHERE merchant_id = $1 AND bucket = (SELECT max(bucket) FROM balance_activity WHERE merchant_id = $1)`,
      [merchantId],
    );
    expect((await ledger.verify({ full: false })).problems.activityMismatches).not.toContain(merchantId);
    expect((await ledger.verify({ full: true })).problems.activityMismatches).toContain(merchantId);
  });
});
