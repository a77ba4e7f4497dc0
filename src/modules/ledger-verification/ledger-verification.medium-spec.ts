import { confirmedPayment, Medium, startMedium } from '../../../test/support/medium';
import { LedgerService } from '../ledger';
import { LedgerVerificationScheduleModule } from './ledger-verification.module';
import { LedgerVerificationSchedule } from './ledger-verification.schedule';
import { LedgerVerificationService } from './ledger-verification.service';

/** The worker's scheduled verification of the ledger: each run recorded, the last one read, a run skipped right after another. */
describe('LedgerVerificationSchedule (medium)', () => {
  let m: Medium;
  let schedule: LedgerVerificationSchedule;
  let verification: LedgerVerificationService;

  beforeAll(async () => {
    m = await startMedium({ name: 'ledger-verification', imports: [LedgerVerificationScheduleModule], quiet: [/ledger verification failed/] });
    schedule = m.app.get(LedgerVerificationSchedule);
    verification = m.app.get(LedgerVerificationService);
  });

  afterAll(() => m?.close());

  const runs = () =>
    m.sql<{ trigger: string; ok: boolean; problems: Record<string, number> }>('SELECT trigger, ok, problems FROM ledger_verifications ORDER BY id');
  /** As if the last run finished an interval ago. */
  const ageLastRun = () =>
    m.sql(`UPDATE ledger_verifications SET finished_at = finished_at - make_interval(secs => $1)`, [m.config.ops.ledgerVerifyIntervalMs / 1000]);

  it('records a run that found nothing wrong, and is the last one read', async () => {
    const merchantId = await m.merchant();
    await m.dataSource.transaction((manager) => m.app.get(LedgerService).post(manager, confirmedPayment(merchantId, 10_000)));
    await schedule.verify();
    const [run] = await runs();
    expect(run).toMatchObject({ trigger: 'schedule', ok: true });
    expect(Object.values(run.problems).every((count) => count === 0)).toBe(true);
    expect(run.problems).toHaveProperty('driftedAccounts', 0);
    expect(await verification.latest()).toMatchObject({ trigger: 'schedule', ok: true });
  });

  it('skips a run right after another, then finds an account that drifted, records it and logs it', async () => {
    await schedule.verify();
    expect(await runs()).toHaveLength(1);

    const [{ id }] = await m.sql<{ id: string }>(`SELECT id FROM ledger_accounts WHERE merchant_id = $1 AND kind = 'available'`, [await m.merchant()]);
    await m.sql('UPDATE ledger_accounts SET balance = balance + 1 WHERE id = $1', [id]);
    await ageLastRun();
    await schedule.verify();
    const all = await runs();
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ trigger: 'schedule', ok: false, problems: { driftedAccounts: 1 } });
    expect(await verification.latest()).toMatchObject({ ok: false });
    expect(m.logs.some((line) => /ledger verification failed: driftedAccounts 1/.test(line))).toBe(true);
  });
});
