import { MAGIC_PAYOUT_BANK_CODE, PAYOUT_ACCOUNT_NOT_FOUND } from '../../../sandbox/bank-rail/bank-rail.server';
import { confirmedPayment, Medium, startMedium, startSandboxes } from '../../../test/support/medium';
import { nubanFor } from '../../common/banking/nuban';
import { LedgerService } from '../ledger';
import { WithdrawalsModule } from './withdrawals.module';
import { WithdrawalsService } from './withdrawals.service';
import { WithdrawalPayoutsService } from './withdrawal-payouts.service';

/** Withdrawals against PostgreSQL, Redis and the real sandbox bank rail: the reservation, the payout, its outcome. */
describe('Withdrawals (medium)', () => {
  let sandboxes: Awaited<ReturnType<typeof startSandboxes>>;
  let m: Medium;
  let withdrawals: WithdrawalsService;
  let ledger: LedgerService;
  let merchantId: string;
  let n = 0;

  beforeAll(async () => {
    sandboxes = await startSandboxes(0, { payoutDelayMs: 20 });
    m = await startMedium({
      name: 'withdrawals',
      imports: [WithdrawalsModule],
      env: { ...sandboxes.env, PROVIDER_TIMEOUT_MS: '2000', WITHDRAWAL_FEE_KOBO: '1000' },
    });
    withdrawals = m.app.get(WithdrawalsService);
    ledger = m.app.get(LedgerService);
    merchantId = await m.merchant();
    // ₦1,000 of confirmed money to withdraw from, posted as a confirmed payment is.
    await m.dataSource.transaction((manager) => ledger.post(manager, confirmedPayment(merchantId, 100_000)));
  });

  afterAll(async () => {
    await m?.close();
    await sandboxes?.close();
  });

  const body = (amount: number, accountNumber = nubanFor('044', '069000003'), bankCode = '044') => ({
    merchantReference: `medium-wd-${++n}`,
    amount,
    bankCode,
    accountNumber,
    accountName: 'Acme Stores Ltd',
  });
  const balance = () => ledger.balance(merchantId, 'NGN');
  const railPayouts = async (reference: string) =>
    (await sandboxes.bankRail.state<{ payouts: { reference: string }[] }>('/_sandbox/payouts')).payouts.filter((p) => p.reference === reference);

  it('reserves amount and fee atomically, pays out once, and books the payout when the rail says it succeeded', async () => {
    const before = await balance();
    const created = await withdrawals.create(merchantId, body(100), undefined);
    expect(created).toMatchObject({ status: 'processing', amount: 100, fee: 10 });
    expect(await balance()).toEqual({ currency: 'NGN', available: before.available - 110, reserved: before.reserved + 110 });
    // The rail's outcome, as its callback brings it.
    expect(await railPayouts(created.withdrawalId)).toHaveLength(1);
    await m.dataSource.transaction((manager) =>
      m.app.get(WithdrawalPayoutsService).onPayout(manager, { id: 'po_x', reference: created.withdrawalId, status: 'succeeded', failureCode: null }),
    );
    await m.dataSource.transaction((manager) =>
      m.app.get(WithdrawalPayoutsService).onPayout(manager, { id: 'po_x', reference: created.withdrawalId, status: 'succeeded', failureCode: null }),
    );
    expect((await withdrawals.get(merchantId, created.withdrawalId)).status).toBe('succeeded');
    expect(await balance()).toEqual({ currency: 'NGN', available: before.available - 110, reserved: before.reserved });
  });

  it('gives amount and fee back once when the payout fails', async () => {
    const before = await balance();
    const created = await withdrawals.create(merchantId, body(50, PAYOUT_ACCOUNT_NOT_FOUND, MAGIC_PAYOUT_BANK_CODE), undefined);
    for (let i = 0; i < 2; i++) {
      await m.dataSource.transaction((manager) =>
        m.app
          .get(WithdrawalPayoutsService)
          .onPayout(manager, { id: 'po_y', reference: created.withdrawalId, status: 'failed', failureCode: 'account_not_found' }),
      );
    }
    expect(await withdrawals.get(merchantId, created.withdrawalId)).toMatchObject({ status: 'failed', failureCode: 'account_not_found' });
    expect(await balance()).toEqual(before);
    const reversals = await m.sql(`SELECT 1 FROM balance_transactions WHERE source_id = $1 AND type = 'withdrawal_reversal'`, [created.withdrawalId]);
    expect(reversals).toHaveLength(1);
  });

  it('refuses more than the available balance with nothing reserved, and never lets concurrent withdrawals overdraw it', async () => {
    const { available } = await balance();
    await expect(withdrawals.create(merchantId, body(available + 1), undefined)).rejects.toMatchObject({ code: 'insufficient_funds' });
    // Each takes 10% of what is left plus the fee: at most 9 of 20 can pass.
    const each = Math.floor(available / 10);
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => withdrawals.create(merchantId, body(each), undefined)));
    const accepted = outcomes.filter((o) => o.status === 'fulfilled').length;
    expect(accepted).toBeLessThan(10);
    expect(outcomes.filter((o) => o.status === 'rejected').every((o) => (o.reason as { code?: string }).code === 'insufficient_funds')).toBe(true);
    const after = await balance();
    expect(after.available).toBeGreaterThanOrEqual(0);
    expect(after.available).toBeCloseTo(available - accepted * (each + 10), 2);
  });
});
