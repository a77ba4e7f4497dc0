import { SANDBOX_BANK_NAME } from '../../../sandbox/bank-rail/bank-rail.server';
import { Medium, Sandbox, startMedium, startSandboxes } from '../../../test/support/medium';
import { ProviderError } from '../../common/providers/provider-http-client';
import { JobQueues } from '../../jobs';
import { PoboBusinessStates } from '../pobo-businesses';
import { NAIRA_JOBS } from './naira.jobs';
import { NairaModule } from './naira.module';
import { NairaService } from './naira.service';

interface AccountRow {
  provider_reference: string | null;
  account_number: string | null;
  bank_name: string | null;
  attempts: number;
  last_error: string | null;
  failed_at: Date | null;
}

interface RailState {
  requests: number;
  accounts: { id: string; reference: string; account_number: string; account_name: string }[];
}

/** PERIODIC_JOB_INTERVAL_MS of the spec: a failed round is retried 12 intervals (2.4 s) after it failed. */
const INTERVAL_MS = 200;

/** NairaService with the real sandbox bank rail, PostgreSQL and the queues in Redis. */
describe('NairaService (medium)', () => {
  let sandboxes: Awaited<ReturnType<typeof startSandboxes>>;
  let rail: Sandbox;
  let m: Medium;
  let naira: NairaService;

  beforeAll(async () => {
    sandboxes = await startSandboxes(0);
    rail = sandboxes.bankRail;
    m = await startMedium({
      name: 'naira',
      imports: [NairaModule],
      env: { ...sandboxes.env, PERIODIC_JOB_INTERVAL_MS: String(INTERVAL_MS), PROVIDER_TIMEOUT_MS: '1000' },
    });
    naira = m.app.get(NairaService);
  });

  afterAll(async () => {
    await m?.close();
    await sandboxes?.close();
  });

  /** A verified business whose Naira account was requested (round 1), as the KYB refresh does it. */
  async function pendingBusiness(): Promise<string> {
    const id = await m.insertBusiness({
      agreement_status: 'accepted',
      kyb_status: 'verified',
      allow_naira_collection: true,
      business_name: 'Naira Traders Ltd',
    });
    const states = m.app.get(PoboBusinessStates);
    await m.dataSource.transaction(async (manager) => {
      const business = (await states.lock(manager, id))!;
      await naira.requestProvisioning(manager, business, 'kyb_verified');
    });
    return id;
  }

  const account = async (businessId: string) =>
    (
      await m.sql<AccountRow>(
        'SELECT provider_reference, account_number, bank_name, attempts, last_error, failed_at FROM naira_accounts WHERE business_id = $1',
        [businessId],
      )
    )[0];
  const roundsOf = async (businessId: string) => (await m.outbox()).filter((row) => row.payload.businessId === businessId).map((row) => row.payload.round);
  /** A round-1 job's payload, typed as NAIRA_JOBS.provision declares it (the handler reads the business only). */
  const round1 = (businessId: string): Parameters<typeof NAIRA_JOBS.provision.jobId>[0] => ({ businessId, round: '1' });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (err: unknown) => err,
    );

  it('requests provisioning: pending, round 1, and its job in the outbox', async () => {
    const id = await pendingBusiness();

    expect((await m.business(id)).naira_collection_status).toBe('pending');
    expect(await account(id)).toMatchObject({ attempts: 1, failed_at: null, provider_reference: null });
    expect(await m.outbox()).toContainEqual({ job_name: 'naira.provision', job_id: `naira.provision.${id}.1`, payload: { businessId: id, round: '1' } });
  });

  it('opens the account on the rail and activates Naira collection; a repeated job changes nothing', async () => {
    const id = await pendingBusiness();

    await naira.provision(round1(id), { attempt: 1, finalAttempt: false });

    expect((await m.business(id)).naira_collection_status).toBe('active');
    const opened = (await rail.state<RailState>('/_sandbox/accounts')).accounts.filter((a) => a.reference === id);
    expect(opened).toEqual([expect.objectContaining({ reference: id, account_name: 'Naira Traders Ltd' })]);
    expect(await account(id)).toMatchObject({
      provider_reference: opened[0].id,
      account_number: opened[0].account_number,
      bank_name: SANDBOX_BANK_NAME,
      attempts: 1,
      last_error: null,
      failed_at: null,
    });
    expect((await account(id)).account_number).toMatch(/^\d{10}$/);
    expect((await m.history(id)).slice(-1)).toEqual([
      { field: 'naira_collection', from_status: 'pending', to_status: 'active', cause: 'bank_rail_account_opened' },
    ]);

    const requests = (await rail.state<RailState>('/_sandbox/accounts')).requests;
    await naira.provision(round1(id), { attempt: 2, finalAttempt: true });
    expect((await rail.state<RailState>('/_sandbox/accounts')).requests).toBe(requests);
    expect((await m.business(id)).naira_collection_status).toBe('active');
  });

  describe('with the rail down', () => {
    let id: string;

    beforeAll(async () => {
      id = await pendingBusiness();
      await rail.faults({ down: true });
    });

    afterAll(() => rail.faults({}));

    it('an attempt that will be retried throws and leaves the round pending', async () => {
      const err = await failure(naira.provision(round1(id), { attempt: 1, finalAttempt: false }));

      expect(err).toBeInstanceOf(ProviderError);
      expect((await m.business(id)).naira_collection_status).toBe('pending');
      expect(await account(id)).toMatchObject({ attempts: 1, failed_at: null, last_error: null, provider_reference: null });
    });

    it('the final attempt throws and marks the round failed, with when and why', async () => {
      const before = Date.now();
      const err = await failure(naira.provision(round1(id), { attempt: 5, finalAttempt: true }));

      expect(err).toBeInstanceOf(ProviderError);
      expect((await m.business(id)).naira_collection_status).toBe('failed');
      const row = await account(id);
      expect(row).toMatchObject({ attempts: 1, last_error: (err as Error).message, provider_reference: null });
      expect(row.last_error).toMatch(/^bank rail: /);
      expect(row.failed_at!.getTime()).toBeGreaterThanOrEqual(before - 1_000);
      expect((await m.history(id)).slice(-1)).toEqual([{ field: 'naira_collection', from_status: 'pending', to_status: 'failed', cause: 'bank_rail_failed' }]);
    });

    it('resumeProvisioning waits 12 intervals after a failure, then opens a new round with its job', async () => {
      const queue = m.app.get(JobQueues).queue(NAIRA_JOBS.provision);
      const backdate = (seconds: number) =>
        m.sql(`UPDATE naira_accounts SET failed_at = now() - make_interval(secs => $2) WHERE business_id = $1`, [id, seconds]);

      await naira.resumeProvisioning();
      await backdate((INTERVAL_MS * 12) / 1000 - 1);
      await naira.resumeProvisioning();
      expect((await m.business(id)).naira_collection_status).toBe('failed');
      expect(await account(id)).toMatchObject({ attempts: 1 });
      expect(await roundsOf(id)).toEqual(['1']);

      await backdate((INTERVAL_MS * 12) / 1000 + 1);
      await naira.resumeProvisioning();

      expect((await m.business(id)).naira_collection_status).toBe('pending');
      expect(await account(id)).toMatchObject({ attempts: 2, failed_at: null });
      expect((await m.history(id)).slice(-1)).toEqual([{ field: 'naira_collection', from_status: 'failed', to_status: 'pending', cause: 'naira_retry' }]);
      expect(await roundsOf(id)).toEqual(['1', '2']);
      // The open round also has a live job now, whether or not the relay has run.
      const job = await queue.getJob(`naira.provision.${id}.2`);
      expect(job).toMatchObject({ name: 'naira.provision', data: { businessId: id, round: '2' } });
    });
  });
});
