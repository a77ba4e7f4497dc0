import { Medium, startMedium, startSandboxes } from '../../../test/support/medium';
import { BANK_RAIL, BankRail, RailTransfer } from '../bank-rail';
import { IdempotencyService } from '../idempotency';
import { IdempotencyLockLostError } from '../idempotency/idempotency.errors';
import { LedgerService } from '../ledger';
import { PaymentIntentCollectionsService } from './payment-intent-collections.service';
import { PaymentIntentsModule } from './payment-intents.module';
import { PaymentIntentsService } from './payment-intents.service';

interface PaymentRow {
  status: string;
  return_reason: string | null;
  rail_return_id: string | null;
}

/** Payment intents against PostgreSQL, Redis and the real sandbox bank rail: what a transfer into an intent's account does. */
describe('Payment intents (medium)', () => {
  let sandboxes: Awaited<ReturnType<typeof startSandboxes>>;
  let m: Medium;
  let intents: PaymentIntentsService;
  let collections: PaymentIntentCollectionsService;
  let rail: BankRail;
  let n = 0;

  beforeAll(async () => {
    sandboxes = await startSandboxes(0);
    m = await startMedium({ name: 'payment-intents', imports: [PaymentIntentsModule], env: { ...sandboxes.env, PROVIDER_TIMEOUT_MS: '2000' } });
    intents = m.app.get(PaymentIntentsService);
    collections = m.app.get(PaymentIntentCollectionsService);
    rail = m.app.get<BankRail>(BANK_RAIL);
  });

  afterAll(async () => {
    await m?.close();
    await sandboxes?.close();
  });

  async function newIntent(amount: number): Promise<{ id: string; accountNumber: string }> {
    const merchantId = await m.merchant();
    const created = await intents.create(
      { merchantId, merchantName: 'Medium Stores', apiKeyId: 'key_medium', permissions: ['read', 'write', 'move_money'] },
      { merchantReference: `medium-${++n}`, amount },
      undefined,
    );
    return { id: created.paymentIntentId, accountNumber: created.virtualAccount.accountNumber };
  }

  async function transferInto(accountNumber: string, kobo: number): Promise<RailTransfer> {
    const { id } = await rail.simulateInboundTransfer(
      { idempotencyKey: `medium-pi-${++n}-${Date.now()}`, accountNumber, amount: kobo, senderBankName: 'Zenith Bank', senderAccountNumber: '1234567890' },
      { timeoutMs: 2000, retries: 0 },
    );
    return {
      id,
      accountNumber,
      amount: kobo,
      senderName: null,
      senderBankName: 'Zenith Bank',
      senderAccountNumber: '1234567890',
      narration: null,
      receivedAt: new Date(),
    };
  }

  const receive = (transfer: RailTransfer) => m.dataSource.transaction((manager) => collections.onTransferReceived(manager, transfer));
  const paymentsOf = (intentId: string) =>
    m.sql<PaymentRow>('SELECT status, return_reason, rail_return_id FROM inbound_payments WHERE payment_intent_id = $1 ORDER BY received_at, id', [intentId]);
  const statusOf = async (intentId: string) => (await m.sql<{ status: string }>('SELECT status FROM payment_intents WHERE id = $1', [intentId]))[0].status;

  describe("create: the intent, its event and the key's answer in one statement", () => {
    async function claimed(merchantId: string) {
      const keys = m.app.get(IdempotencyService);
      const outcome = await keys.begin(
        merchantId,
        `medium-create-${++n}-key`,
        'fp',
        { status: 201, message: 'Payment intent created' },
        `pi_medium${String(++n).padStart(17, '0')}`,
      );
      if (outcome.kind !== 'claimed') throw new Error(`expected a claim, got ${outcome.kind}`);
      return { keys, claim: outcome.claim };
    }
    const create = (merchantId: string, claim: Parameters<PaymentIntentsService['create']>[2]) =>
      intents.create(
        { merchantId, merchantName: 'Medium Stores', apiKeyId: 'key_medium', permissions: ['read', 'write', 'move_money'] },
        { merchantReference: `medium-create-${++n}`, amount: 250 },
        claim,
      );
    const written = async (id: string) => ({
      intents: (await m.sql<{ n: number }>('SELECT count(*)::int AS n FROM payment_intents WHERE id = $1', [id]))[0].n,
      events: await m.sql<{ type: string }>('SELECT type FROM events WHERE object_id = $1', [id]),
    });

    it('stores all three together, the answer being the created intent as the route sends it', async () => {
      const merchantId = await m.merchant();
      const { keys, claim } = await claimed(merchantId);
      const created = await create(merchantId, claim);
      expect(created.paymentIntentId).toBe(claim.resourceId);
      expect(await written(created.paymentIntentId)).toEqual({ intents: 1, events: [{ type: 'payment_intent.created' }] });
      expect(claim.answer).toEqual({ status: 201, body: JSON.stringify({ message: 'Payment intent created', response: created }) });
      expect(await keys.begin(merchantId, claim.key, 'fp', { status: 201, message: 'Payment intent created' }, null)).toEqual({
        kind: 'replay',
        answer: claim.answer,
      });
    });

    it("writes nothing when the key's lock was lost to a retry meanwhile", async () => {
      const merchantId = await m.merchant();
      const { claim } = await claimed(merchantId);
      // A retry took the key over: the holder's token no longer matches.
      await m.sql('UPDATE idempotency_keys SET lock_token = gen_random_uuid() WHERE merchant_id = $1 AND key = $2', [merchantId, claim.key]);
      await expect(create(merchantId, claim)).rejects.toBeInstanceOf(IdempotencyLockLostError);
      expect(await written(claim.resourceId!)).toEqual({ intents: 0, events: [] });
      expect(claim.answer).toBeUndefined();
    });
  });

  it('funds the intent with a transfer of exactly its amount, once however often the rail tells us', async () => {
    const { id, accountNumber } = await newIntent(500);
    const transfer = await transferInto(accountNumber, 50_000);
    await receive(transfer);
    await receive(transfer);
    expect(await statusOf(id)).toBe('funds_received');
    expect(await paymentsOf(id)).toEqual([{ status: 'accepted', return_reason: null, rail_return_id: null }]);
    // Received, not yet the merchant's: it waits for the confirmation.
    const positions = await m.sql<{ kind: string; amount: string }>(
      `SELECT a.kind, sum(e.amount)::text AS amount FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transactions t ON t.id = e.transaction_id
        JOIN inbound_payments p ON p.id = t.source_id WHERE p.payment_intent_id = $1 GROUP BY a.kind ORDER BY a.kind`,
      [id],
    );
    expect(positions).toEqual([
      { kind: 'bank_rail', amount: '-50000' },
      { kind: 'unconfirmed_collections', amount: '50000' },
    ]);
  });

  it('records any other transfer as returned and sends it back once, the intent still waiting', async () => {
    const { id, accountNumber } = await newIntent(500);
    const wrong = await transferInto(accountNumber, 40_000);
    await receive(wrong);
    expect(await statusOf(id)).toBe('awaiting_payment');
    expect(await paymentsOf(id)).toEqual([{ status: 'returned', return_reason: 'amount_mismatch', rail_return_id: null }]);
    const [{ id: paymentId }] = await m.sql<{ id: string }>('SELECT id FROM inbound_payments WHERE rail_transfer_id = $1', [wrong.id]);
    expect((await m.outbox()).map((job) => job.job_id)).toContain(`payment-intents.return-payment.${paymentId}`);
    await collections.returnPayment({ paymentId });
    await collections.returnPayment({ paymentId });
    expect((await paymentsOf(id))[0].rail_return_id).toMatch(/^ret_/);
    const returns = (await sandboxes.bankRail.state<{ returns: { transfer_id: string }[] }>('/_sandbox/transfers')).returns;
    expect(returns.filter((r) => r.transfer_id === wrong.id)).toHaveLength(1);
    // A second transfer, now of the right amount, funds it.
    await receive(await transferInto(accountNumber, 50_000));
    expect(await statusOf(id)).toBe('funds_received');
  });

  it('confirms a funded intent once: the money reaches the available balance exactly once', async () => {
    const { id, accountNumber } = await newIntent(250);
    await receive(await transferInto(accountNumber, 25_000));
    const ledger = m.app.get(LedgerService);
    const merchantId = await m.merchant();
    const before = (await ledger.balance(merchantId, 'NGN')).available;
    await intents.confirm(merchantId, id, undefined);
    await expect(intents.confirm(merchantId, id, undefined)).rejects.toMatchObject({ code: 'payment_intent_already_confirmed' });
    expect(await statusOf(id)).toBe('succeeded');
    expect((await ledger.balance(merchantId, 'NGN')).available).toBeCloseTo(before + 250, 2);
  });
});
