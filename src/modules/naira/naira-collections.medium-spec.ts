import { Medium, Sandbox, startMedium, startSandboxes } from '../../../test/support/medium';
import { BANK_RAIL, BankRail, RailTransfer } from '../bank-rail';
import { LedgerService } from '../ledger';
import { PoboBusinessStates } from '../pobo-businesses';
import { NairaCollectionsService } from './naira-collections.service';
import { NairaModule } from './naira.module';
import { NairaService } from './naira.service';

interface CollectionRow {
  status: string;
  return_reason: string | null;
  amount: string;
  rail_return_id: string | null;
}

/** NairaCollectionsService against PostgreSQL, Redis and the real sandbox bank rail. */
describe('NairaCollectionsService (medium)', () => {
  let sandboxes: Awaited<ReturnType<typeof startSandboxes>>;
  let rail: Sandbox;
  let m: Medium;
  let collections: NairaCollectionsService;
  let ledger: LedgerService;
  let bankRail: BankRail;

  beforeAll(async () => {
    sandboxes = await startSandboxes(0);
    rail = sandboxes.bankRail;
    m = await startMedium({ name: 'naira-collections', imports: [NairaModule], env: { ...sandboxes.env, PROVIDER_TIMEOUT_MS: '2000' } });
    collections = m.app.get(NairaCollectionsService);
    ledger = m.app.get(LedgerService);
    bankRail = m.app.get<BankRail>(BANK_RAIL);
  });

  afterAll(async () => {
    await m?.close();
    await sandboxes?.close();
  });

  /** A verified business whose own account the sandbox bank opened (provisioning as the worker runs it). */
  async function activeBusiness(): Promise<{ id: string; accountNumber: string }> {
    const id = await m.insertBusiness({ agreement_status: 'accepted', kyb_status: 'verified', allow_naira_collection: true, business_name: 'Collect Ltd' });
    const naira = m.app.get(NairaService);
    await m.dataSource.transaction(async (manager) =>
      naira.requestProvisioning(manager, (await m.app.get(PoboBusinessStates).lock(manager, id))!, 'kyb_verified'),
    );
    await naira.provision({ businessId: id }, { attempt: 1, finalAttempt: false });
    const [{ account_number }] = await m.sql<{ account_number: string }>('SELECT account_number FROM naira_accounts WHERE business_id = $1', [id]);
    return { id, accountNumber: account_number };
  }

  /** A transfer the sandbox bank really received into `accountNumber`, as its event would carry it. */
  async function railTransfer(accountNumber: string, amount: number): Promise<RailTransfer> {
    const { id } = await bankRail.simulateInboundTransfer(
      {
        idempotencyKey: `medium-${Math.random()}`,
        accountNumber,
        amount,
        senderBankName: 'Zenith Bank',
        senderAccountNumber: '1234567890',
        senderName: 'Ada Obi',
        narration: 'Rent',
      },
      { timeoutMs: 2000, retries: 0 },
    );
    return {
      id,
      accountNumber,
      amount,
      senderName: 'Ada Obi',
      senderBankName: 'Zenith Bank',
      senderAccountNumber: '1234567890',
      narration: 'Rent',
      receivedAt: new Date(),
    };
  }

  const receive = (transfer: RailTransfer) => m.dataSource.transaction((manager) => collections.onTransferReceived(manager, transfer));
  const collectionsOf = (businessId: string) =>
    m.sql<CollectionRow>('SELECT status, return_reason, amount, rail_return_id FROM collections WHERE pobo_user_id = $1 ORDER BY seq', [businessId]);
  const available = async () => (await ledger.balance(await m.merchant(), 'NGN')).available;

  it("credits a transfer to the merchant's available balance once, however often it is received", async () => {
    const { id, accountNumber } = await activeBusiness();
    const before = await available();
    const transfer = await railTransfer(accountNumber, 150_050);
    expect(await receive(transfer)).toBe(true);
    expect(await receive(transfer)).toBe(true);
    expect(await collectionsOf(id)).toEqual([{ status: 'credited', return_reason: null, amount: '150050', rail_return_id: null }]);
    expect(await available()).toBeCloseTo(before + 1500.5, 2);
    const credited = await m.sql<{ type: string; amount: string; pobo_user_id: string }>(
      `SELECT b.type, b.amount, b.pobo_user_id FROM balance_transactions b JOIN collections c ON c.id = b.source_id WHERE c.pobo_user_id = $1`,
      [id],
    );
    expect(credited).toEqual([{ type: 'collection', amount: '150050', pobo_user_id: id }]);
  });

  it('credits concurrent transfers into one account each exactly once', async () => {
    const { id, accountNumber } = await activeBusiness();
    const before = await available();
    const transfers = await Promise.all(Array.from({ length: 10 }, (_, i) => railTransfer(accountNumber, 1_000 + i)));
    await Promise.all([...transfers, ...transfers].map(receive));
    const rows = await collectionsOf(id);
    expect(rows).toHaveLength(10);
    expect(rows.every((row) => row.status === 'credited')).toBe(true);
    expect(await available()).toBeCloseTo(before + transfers.reduce((sum, t) => sum + t.amount, 0) / 100, 2);
  });

  it("leaves a transfer into an account that is no business's to the payment intents", async () => {
    expect(await receive({ ...(await railTransfer((await activeBusiness()).accountNumber, 1)), id: 'trf_other', accountNumber: '0000000000' })).toBe(false);
    expect(await m.sql(`SELECT 1 FROM collections WHERE rail_transfer_id = 'trf_other'`)).toEqual([]);
  });

  it('after an operator closes the account, returns what still arrives once, and moves none of it to the merchant', async () => {
    const { id, accountNumber } = await activeBusiness();
    expect(await collections.close(id, 'closed by request')).toEqual({ accountNumber });
    expect(await m.business(id)).toMatchObject({ naira_collection_status: 'not_requested', allow_naira_collection: false });
    await expect(collections.close(id, 'again')).rejects.toMatchObject({ code: 'conflict' });

    const before = await available();
    const transfer = await railTransfer(accountNumber, 7_500);
    await receive(transfer);
    const [row] = await collectionsOf(id);
    expect(row).toMatchObject({ status: 'returned', return_reason: 'account_closed', rail_return_id: null });
    const [{ id: collectionId }] = await m.sql<{ id: string }>('SELECT id FROM collections WHERE pobo_user_id = $1', [id]);
    expect((await m.outbox()).map((job) => job.job_id)).toContain(`naira.return-collection.${collectionId}`);

    // The job, run twice (a retry after a lost answer): one return at the rail, booked once.
    await collections.returnCollection({ collectionId });
    await collections.returnCollection({ collectionId });
    const railState = await rail.state<{ returns: { transfer_id: string }[] }>('/_sandbox/transfers');
    expect(railState.returns.filter((r) => r.transfer_id === transfer.id)).toHaveLength(1);
    expect((await collectionsOf(id))[0].rail_return_id).toMatch(/^ret_/);
    const postings = await m.sql<{ type: string }>(`SELECT type FROM ledger_transactions WHERE source_id = $1 ORDER BY created_at`, [collectionId]);
    expect(postings.map((p) => p.type)).toEqual(['collection_received_for_return', 'collection_returned']);
    expect(await available()).toBe(before);
  });
});
