import Redis from 'ioredis';
import { ORGANIZATION_CHART_UNREADABLE } from '../../../sandbox/verification-provider/verification-provider.server';
import { Medium, Sandbox, startMedium, startSandboxes } from '../../../test/support/medium';
import { newId } from '../../common/ids/ids';
import { ProviderError } from '../../common/providers/provider-http-client';
import { DEV_VERIFICATION_PROVIDER_API_KEY } from '../../config/dev-secrets';
import { REDIS } from '../../redis/redis.module';
import { KybRefreshService } from './kyb-refresh.service';
import { KybModule } from './kyb.module';

interface ApplicationRow {
  status: string;
  outcome: string | null;
  requirements: unknown[];
}

/** KybRefreshService with the real sandbox verification provider, PostgreSQL and Redis. */
describe('KybRefreshService (medium)', () => {
  let sandboxes: Awaited<ReturnType<typeof startSandboxes>>;
  let provider: Sandbox;
  let m: Medium;
  let refresher: KybRefreshService;
  const call = { timeoutMs: 1_000, retries: 0 };

  beforeAll(async () => {
    sandboxes = await startSandboxes(0);
    provider = sandboxes.verification;
    m = await startMedium({ name: 'kyb-refresh', imports: [KybModule], env: sandboxes.env });
    refresher = m.app.get(KybRefreshService);
  });

  afterAll(async () => {
    await m?.close();
    await sandboxes?.close();
  });

  afterEach(() => provider.faults({}));

  /** An application created at the sandbox through its API, as the forwarding job does. */
  async function providerApplication(reference: string, registrationNumber: string): Promise<string> {
    const response = await fetch(`${provider.url}/v1/business-applications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_VERIFICATION_PROVIDER_API_KEY}`, 'idempotency-key': reference, 'content-type': 'application/json' },
      body: JSON.stringify({ reference, company: { registration_number: registrationNumber }, associated_persons: [], documents: [] }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  /**
   * A business in KYB processing whose submitted application the provider has. The sandbox
   * decides by the registration number's suffix: none verifies, `-ACTION`, `-DECLINE`, `-HOLD`.
   */
  async function underReview(outcome: '' | '-ACTION' | '-DECLINE' | '-HOLD', allowNairaCollection = false) {
    const businessId = await m.insertBusiness({ agreement_status: 'accepted', kyb_status: 'processing', allow_naira_collection: allowNairaCollection });
    const applicationId = newId('kyba');
    const providerReference = await providerApplication(applicationId, `RC-${applicationId}${outcome}`);
    await m.sql(
      `INSERT INTO kyb_applications (id, business_id, status, payload, provider_reference, submitted_at) VALUES ($1, $2, 'submitted', $3, $4, now())`,
      [applicationId, businessId, JSON.stringify({ company: {}, associated_persons: [], company_files: [] }), providerReference],
    );
    return { businessId, applicationId, providerReference };
  }

  const application = async (id: string) => (await m.sql<ApplicationRow>('SELECT status, outcome, requirements FROM kyb_applications WHERE id = $1', [id]))[0];
  const outboxOf = async (businessId: string) => (await m.outbox()).filter((row) => row.payload.businessId === businessId);
  const fetchesOf = (providerReference: string) =>
    provider.requests.filter((r) => r.method === 'GET' && r.url === `/v1/business-applications/${providerReference}`).length;

  it('moves a verified business to verified, reviews the application and asks nothing of Naira when not allowed', async () => {
    const { businessId, applicationId, providerReference } = await underReview('');
    const started = new Date();

    await expect(refresher.refresh(businessId, call)).resolves.toBe(true);

    expect(fetchesOf(providerReference)).toBe(1);
    const business = await m.business(businessId);
    expect(business).toMatchObject({ kyb_status: 'verified', kyb_pending_requirements: [], naira_collection_status: 'not_requested' });
    expect(business.kyb_last_synced_at!.getTime()).toBeGreaterThanOrEqual(started.getTime() - 1_000);
    expect(await m.history(businessId)).toEqual([{ field: 'kyb', from_status: 'processing', to_status: 'verified', cause: 'provider_verified' }]);
    expect(await application(applicationId)).toEqual({ status: 'reviewed', outcome: 'verified', requirements: [] });
    expect(await m.sql('SELECT 1 FROM naira_accounts WHERE business_id = $1', [businessId])).toEqual([]);
    expect(await outboxOf(businessId)).toEqual([]);
  });

  it('with Naira collection allowed, also requests the account in the same transaction: pending, a round, one outbox job', async () => {
    const { businessId, applicationId } = await underReview('', true);

    await expect(refresher.refresh(businessId, call)).resolves.toBe(true);

    expect(await m.business(businessId)).toMatchObject({ kyb_status: 'verified', naira_collection_status: 'pending' });
    expect(await m.history(businessId)).toEqual([
      { field: 'kyb', from_status: 'processing', to_status: 'verified', cause: 'provider_verified' },
      { field: 'naira_collection', from_status: 'not_requested', to_status: 'pending', cause: 'kyb_verified' },
    ]);
    expect(await m.sql('SELECT attempts, failed_at, provider_reference FROM naira_accounts WHERE business_id = $1', [businessId])).toEqual([
      { attempts: 1, failed_at: null, provider_reference: null },
    ]);
    expect(await outboxOf(businessId)).toEqual([
      { job_name: 'naira.provision', job_id: `naira.provision.${businessId}.1`, payload: { businessId, round: '1' } },
    ]);
    // Every row this refresh wrote carries the id of one transaction.
    const writers = await m.sql<{ xmin: string }>(
      `SELECT xmin::text FROM pobo_businesses WHERE id = $1
       UNION SELECT xmin::text FROM business_status_history WHERE business_id = $1
       UNION SELECT xmin::text FROM kyb_applications WHERE id = $2
       UNION SELECT xmin::text FROM naira_accounts WHERE business_id = $1
       UNION SELECT xmin::text FROM outbox WHERE payload->>'businessId' = $1`,
      [businessId, applicationId],
    );
    expect(writers).toHaveLength(1);
  });

  it('moves an application the provider wants more from to action_required, with its requirements', async () => {
    const { businessId, applicationId } = await underReview('-ACTION', true);

    await expect(refresher.refresh(businessId, call)).resolves.toBe(true);

    expect(await m.business(businessId)).toMatchObject({
      kyb_status: 'action_required',
      kyb_pending_requirements: [ORGANIZATION_CHART_UNREADABLE],
      naira_collection_status: 'not_requested',
    });
    expect(await m.history(businessId)).toEqual([{ field: 'kyb', from_status: 'processing', to_status: 'action_required', cause: 'provider_action_required' }]);
    expect(await application(applicationId)).toEqual({ status: 'reviewed', outcome: 'action_required', requirements: [ORGANIZATION_CHART_UNREADABLE] });
    expect(await outboxOf(businessId)).toEqual([]);
  });

  it('moves a declined application to declined', async () => {
    const { businessId, applicationId } = await underReview('-DECLINE', true);

    await expect(refresher.refresh(businessId, call)).resolves.toBe(true);

    expect(await m.business(businessId)).toMatchObject({ kyb_status: 'declined', naira_collection_status: 'not_requested' });
    expect(await m.history(businessId)).toEqual([{ field: 'kyb', from_status: 'processing', to_status: 'declined', cause: 'provider_declined' }]);
    expect(await application(applicationId)).toMatchObject({ status: 'reviewed', outcome: 'declined' });
  });

  it('keeps a business the provider is still reviewing in processing, recording when it asked', async () => {
    const { businessId, applicationId } = await underReview('-HOLD');
    const before = await m.business(businessId);
    expect(before.kyb_last_synced_at).toBeNull();

    await expect(refresher.refresh(businessId, call)).resolves.toBe(true);

    const after = await m.business(businessId);
    expect(after.kyb_status).toBe('processing');
    expect(after.kyb_last_synced_at).toBeInstanceOf(Date);
    expect(await m.history(businessId)).toEqual([]);
    expect(await application(applicationId)).toEqual({ status: 'submitted', outcome: null, requirements: [] });
  });

  it('returns false without asking the provider when no submitted application is on record', async () => {
    const businessId = await m.insertBusiness({ agreement_status: 'accepted', kyb_status: 'processing' });
    const asked = provider.requests.length;

    await expect(refresher.refresh(businessId, call)).resolves.toBe(false);
    // Once reviewed, an application is not asked about again.
    const reviewed = await underReview('');
    await refresher.refresh(reviewed.businessId, call);
    await expect(refresher.refresh(reviewed.businessId, call)).resolves.toBe(false);

    expect(provider.requests.length - asked).toBe(2); // the application's creation and one fetch
  });

  it('lets one of concurrent refreshes of a business ask the provider; the others return false at once', async () => {
    const { businessId, providerReference } = await underReview('-HOLD');
    await provider.faults({ latencyMs: 300 });

    const results = await Promise.all(Array.from({ length: 5 }, () => refresher.refresh(businessId, call)));

    expect(results.filter(Boolean)).toHaveLength(1);
    expect(fetchesOf(providerReference)).toBe(1);
    // Released when done: the next refresh asks again, and they never overlapped at the provider.
    await expect(refresher.refresh(businessId, call)).resolves.toBe(true);
    expect(fetchesOf(providerReference)).toBe(2);
    expect(provider.maxInFlight((r) => r.url === `/v1/business-applications/${providerReference}`)).toBe(1);
    const redis = m.app.get<Redis>(REDIS);
    expect(await redis.exists(`${m.config.queuePrefix}:kyb-refresh-lock:${businessId}`)).toBe(0);
  });

  it('releases the lock and changes nothing when the provider fails', async () => {
    const { businessId } = await underReview('');
    const before = await m.business(businessId);
    await provider.faults({ down: true });

    await expect(refresher.refresh(businessId, call)).rejects.toBeInstanceOf(ProviderError);

    expect(await m.business(businessId)).toEqual(before);
    await provider.faults({});
    await expect(refresher.refresh(businessId, call)).resolves.toBe(true);
    expect((await m.business(businessId)).kyb_status).toBe('verified');
  });
});
