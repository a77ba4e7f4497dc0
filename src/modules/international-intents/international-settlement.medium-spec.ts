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

  it('records a leg the rail answers as done at once as its moves in a row: one UPDATE per leg, each move its history row, events with the object as it left it, and its money', async () => {
    await rails.bridgeRail.setSettlementStep(0);
    await rails.payoutRail.setSettlementStep(0);
    try {
      const before = await balance();
      const intent = await createIntent('000123456790');
      const updates: string[] = [];
      const logger = m.dataSource.logger;
      // Every UPDATE of the intent's row, as TypeORM sends it, from here on.
      const logQuery = logger.logQuery.bind(logger);
      logger.logQuery = (query, parameters, runner) => {
        if (/^UPDATE "international_payment_intents"/.test(query)) updates.push(query);
        logQuery(query, parameters, runner);
      };
      try {
        expect(await settle(intent.intentId)).toEqual(['pending', 'settled']);
      } finally {
        logger.logQuery = logQuery;
      }
      // pending → processing, then the bridge's two moves, then the payout's three: three UPDATEs.
      expect(updates).toHaveLength(3);

      const history = await m.sql<{ from_status: string; to_status: string; cause: string }>(
        'SELECT from_status, to_status, cause FROM international_payment_intent_status_history WHERE intent_id = $1 ORDER BY id',
        [intent.intentId],
      );
      expect(history.map((row) => `${row.from_status}>${row.to_status} ${row.cause}`)).toEqual([
        'pending>processing picked_up',
        'processing>bridge_initiated bridge_transfer_created',
        'bridge_initiated>bridge_confirmed bridge_transfer_completed',
        'bridge_confirmed>withdrawal_initiated payout_created',
        'withdrawal_initiated>withdrawal_confirmed payout_completed',
        'withdrawal_confirmed>settled settled',
      ]);
      const events = await m.sql<{ type: string; data: { status: string; settledAt: string | null; telexUrl?: string } }>(
        'SELECT type, data FROM events WHERE object_id = $1 ORDER BY seq',
        [intent.intentId],
      );
      expect(events.map(({ type, data }) => `${type.replace('international_payment_intent.', '')} ${data.status}`)).toEqual([
        'created pending',
        'status_changed processing',
        'status_changed bridge_initiated',
        'status_changed bridge_confirmed',
        'status_changed withdrawal_initiated',
        'status_changed withdrawal_confirmed',
        'status_changed settled',
        'settled settled',
      ]);
      // Each object as its own move left it: the telex from `withdrawal_confirmed` on, the settlement time only once settled.
      expect(events.map(({ data }) => [Boolean(data.telexUrl), data.settledAt !== null])).toEqual([
        [false, false],
        [false, false],
        [false, false],
        [false, false],
        [false, false],
        [true, false],
        [true, true],
        [true, true],
      ]);
      const get = await m.app.get(InternationalIntentsService).get(merchantId, intent.intentId);
      expect(events[events.length - 1].data).toEqual(JSON.parse(JSON.stringify(get)));
      // In kobo: the figures are major units.
      const kobo = (naira: number) => Math.round(naira * 100);
      const after = await balance();
      expect([kobo(after.available), kobo(after.reserved)]).toEqual([kobo(before.available) - kobo(intent.sourceAmount), kobo(before.reserved)]);
      // Every move posted once: the converted amount paid abroad and the fee earned, nothing left in between.
      const positions = await ledger.platformPositions(m.dataSource.manager, intent.intentId, 'NGN');
      expect(Object.keys(positions).sort()).toEqual(['fee_revenue', 'paid_abroad']);
      expect(positions.fee_revenue! + positions.paid_abroad!).toBe(kobo(intent.sourceAmount));
    } finally {
      await rails.bridgeRail.setSettlementStep(20);
      await rails.payoutRail.setSettlementStep(20);
    }
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
