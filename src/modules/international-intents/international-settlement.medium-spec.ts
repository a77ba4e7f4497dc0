import { COMPLIANCE_REJECTED_SUFFIX } from '../../../sandbox/bridge-rail/bridge-rail.server';
import { ACCOUNT_CLOSED_SUFFIX } from '../../../sandbox/payout-rail/payout-rail.server';
import { confirmedPayment, eventually, Medium, startMedium } from '../../../test/support/medium';
import { CrossBorderSandboxes, startCrossBorderSandboxes } from '../../../test/support/sandboxes';
import { JobQueues } from '../../jobs';
import { LedgerService } from '../ledger';
import type { InternationalIntentDto } from './dto/international-intent.response';
import { InternationalIntentsModule } from './international-intents.module';
import { INTERNATIONAL_JOBS } from './international-intents.jobs';
import { InternationalIntentsService } from './international-intents.service';
import { InternationalSettlementService } from './international-settlement.service';
import { InternationalRecovery } from './international-recovery.service';
import { QuotesService } from './quotes.service';

/**
 * The settlement pipeline against PostgreSQL and the real sandbox rails, driven as the worker
 * drives it (`advance`, from the status it last saw) but with no callbacks: each waiting state is
 * left by asking the rail.
 */
describe('International settlement (medium)', () => {
  let rails: CrossBorderSandboxes;
  let m: Medium;
  let ledger: LedgerService;
  let settlement: InternationalSettlementService;
  let merchantId: string;
  let businessId: string;

  beforeAll(async () => {
    rails = await startCrossBorderSandboxes({ settlementStepMs: 20 });
    m = await startMedium({ name: 'settlement', imports: [InternationalIntentsModule], env: { ...rails.env, PROVIDER_TIMEOUT_MS: '2000' } });
    ledger = m.app.get(LedgerService);
    settlement = m.app.get(InternationalSettlementService);
    merchantId = await m.merchant();
    businessId = await m.insertBusiness({ agreement_status: 'accepted', kyb_status: 'verified' });
    // ₦50,000 of confirmed money to pay abroad from, posted as a confirmed payment is.
    await m.dataSource.transaction((manager) => ledger.post(manager, confirmedPayment(merchantId, 5_000_000)));
  });

  afterAll(async () => {
    await m?.close();
    await rails?.close();
  });

  const balance = () => ledger.balance(merchantId, 'NGN');

  async function createIntent(accountNumber: string): Promise<InternationalIntentDto> {
    const quote = await m.app.get(QuotesService).create(merchantId, { poboUserId: businessId, destinationCountry: 'US', currency: 'USD', amount: 10 });
    return m.app.get(InternationalIntentsService).create(
      merchantId,
      {
        quoteId: quote.quoteId,
        quoteOptionId: quote.options[0].quoteOptionId,
        recipientFullName: 'Jane Doe',
        bankCodeType: 'swift',
        bankCode: 'CHASUS33',
        accountNumber,
        purposeOfTransfer: 'information service charges',
      },
      undefined,
    );
  }

  /** Advances the intent as the worker does until it is final; every status it passed, in order. */
  async function settle(intentId: string): Promise<string[]> {
    const seen: string[] = [];
    const status = async () => (await m.app.get(InternationalIntentsService).get(merchantId, intentId)).status;
    await eventually(
      async () => {
        const from = await status();
        if (seen[seen.length - 1] !== from) seen.push(from);
        await settlement.advance({ intentId, from });
        return status();
      },
      (now) => now === 'settled' || now === 'rejected',
      20_000,
      25,
    );
    seen.push(await status());
    return seen.filter((state, i) => state !== seen[i - 1]);
  }

  const transfersAt = async (rail: 'bridge' | 'payout', reference: string) => {
    const collection = rail === 'bridge' ? 'transfers' : 'payouts';
    const sandbox = rail === 'bridge' ? rails.bridgeRail : rails.payoutRail;
    return (await sandbox.state<Record<string, { reference: string }[]>>(`/_sandbox/${collection}`))[collection].filter((r) => r.reference === reference);
  };

  it('takes an intent from pending to settled through both rails, each leg sent once, and spends exactly the reservation', async () => {
    const before = await balance();
    const intent = await createIntent('000123456789');
    expect(await balance()).toEqual({ currency: 'NGN', available: before.available - intent.sourceAmount, reserved: before.reserved + intent.sourceAmount });

    const seen = await settle(intent.intentId);
    expect(seen[0]).toBe('pending');
    expect(seen[seen.length - 1]).toBe('settled');
    expect(await transfersAt('bridge', intent.intentId)).toHaveLength(1);
    expect(await transfersAt('payout', intent.intentId)).toHaveLength(1);
    expect(await balance()).toEqual({ currency: 'NGN', available: before.available - intent.sourceAmount, reserved: before.reserved });

    // A late or repeated job changes nothing: no second leg at either rail.
    await settlement.advance({ intentId: intent.intentId, from: 'pending' });
    expect(await transfersAt('bridge', intent.intentId)).toHaveLength(1);
    expect(await transfersAt('payout', intent.intentId)).toHaveLength(1);
  });

  it('rebuilds the recovery of a rejected intent from PostgreSQL when its job is gone (Redis lost it): the rail is asked again and the receivable closes', async () => {
    const before = await balance();
    const intent = await createIntent(`000123456${ACCOUNT_CLOSED_SUFFIX}`.slice(-12));
    const seen = await settle(intent.intentId);
    expect(seen[seen.length - 1]).toBe('rejected');
    expect(await balance()).toEqual(before);
    const positions = () => ledger.platformPositions(m.dataSource.manager, intent.intentId, 'NGN');
    expect(Object.keys(await positions())).toContain('receivable_payout_rail');

    // No worker here relays the outbox: the recovery's job exists only if `resume` rebuilds it.
    const queues = m.app.get(JobQueues);
    const jobId = INTERNATIONAL_JOBS.recover.jobId({ intentId: intent.intentId, rail: 'payout_rail' });
    expect(await queues.queue(INTERNATIONAL_JOBS.recover).getJob(jobId)).toBeUndefined();
    await settlement.resume();
    const rebuilt = await queues.queue(INTERNATIONAL_JOBS.recover).getJob(jobId);
    expect(rebuilt?.data).toEqual({ intentId: intent.intentId, rail: 'payout_rail' });

    // What the job does: the payout rail gives it back to the bridge side, then the bridge rail in NGN.
    await eventually(
      async () => {
        for (const rail of ['payout_rail', 'bridge_rail'] as const)
          await m.app
            .get(InternationalRecovery)
            .recover({ intentId: intent.intentId, rail })
            .catch(() => undefined);
        return positions();
      },
      (now) => !Object.keys(now).some((kind) => /receivable_|rail_in_transit|at_bridge_rail/.test(kind)),
      20_000,
      100,
    );
  });

  it('gives the reservation back once when the bridge rail rejects the recipient, and pays nothing abroad', async () => {
    const before = await balance();
    const intent = await createIntent(`000123456${COMPLIANCE_REJECTED_SUFFIX}`.slice(-12));
    const seen = await settle(intent.intentId);
    expect(seen[seen.length - 1]).toBe('rejected');
    expect(await transfersAt('payout', intent.intentId)).toHaveLength(0);
    await settlement.advance({ intentId: intent.intentId, from: 'bridge_initiated' });
    expect(await balance()).toEqual(before);
  });
});
