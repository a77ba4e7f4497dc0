import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { VERIFICATION_PROVIDER, VerificationProvider } from '../../src/modules/kyb/verification-provider';
import { expectErrorBody, expectPoboBusiness } from '../support/contract';
import { acceptAgreementDirectly, documentOfSize, kybApplication, kybPerson, SAMPLE_PDF } from '../support/kyb-fixtures';
import { eventually, sleep } from '../support/poll';
import { KybStack, startKybStack } from '../support/kyb-stack';
import { Sandbox } from '../support/sandboxes';
import { createBusiness, http, TestApp } from '../support/test-app';

const MiB = 1024 * 1024;
const REFRESH_TIMEOUT_MS = 600;

describe('KYB onboarding (endpoints 4–5) with the worker and the sandbox provider', () => {
  let stack: KybStack;
  let t: TestApp;
  let verification: Sandbox;
  let bankRail: Sandbox;
  let pg: Client;
  let apiKey: string;
  let otherKey: string;

  beforeAll(async () => {
    stack = await startKybStack({
      name: 'kyb',
      reviewDelayMs: 300,
      worker: true,
      env: {
        PERIODIC_JOB_INTERVAL_MS: '400',
        KYB_REFRESH_TIMEOUT_MS: String(REFRESH_TIMEOUT_MS),
        PROVIDER_TIMEOUT_MS: '1000',
        DOCUMENT_RETENTION_HOURS: '0',
      },
    });
    ({ t, verification, bankRail, pg } = stack);
    apiKey = (await t.createMerchant('KYB merchant')).apiKey;
    otherKey = (await t.createMerchant('Other merchant')).apiKey;
  });

  afterEach(async () => {
    await verification.faults({});
    await bankRail.faults({});
  });

  afterAll(() => stack?.close());

  async function acceptedBusiness(allowNairaCollection = false): Promise<string> {
    const { poboUserId } = await createBusiness(t, apiKey, { allowNairaCollection });
    await acceptAgreementDirectly(pg, poboUserId);
    return poboUserId;
  }

  const submit = (id: string, body: unknown, key = apiKey) => http(t.baseUrl, 'POST', `/api/merchant/pobo/users/${id}/onboarding`, { apiKey: key, body });
  const onboarding = (id: string, key = apiKey) => http(t.baseUrl, 'GET', `/api/merchant/pobo/users/${id}/onboarding`, { apiKey: key });
  const pollUntil = (id: string, statuses: string[], timeoutMs = 20_000) =>
    eventually(
      () => onboarding(id),
      (r) => statuses.includes(r.body?.response?.kyb?.status),
      timeoutMs,
    );
  const applicationsFor = async (id: string) => (await pg.query('SELECT * FROM kyb_applications WHERE business_id = $1 ORDER BY created_at', [id])).rows;
  const history = async (id: string) =>
    (await pg.query('SELECT field, from_status, to_status, cause FROM business_status_history WHERE business_id = $1 ORDER BY id', [id])).rows;
  const providerApplications = async (reference: string) =>
    (await verification.state<{ applications: { reference: string }[] }>('/_sandbox/applications')).applications.filter((a) => a.reference === reference);

  it('submits (202, processing), reaches the provider, and polls to verified; Naira collection is provisioned', async () => {
    const id = await acceptedBusiness(true);
    const submitted = await submit(id, kybApplication('RC-VERIFY-1'));
    expect(submitted.status).toBe(202);
    expectPoboBusiness(submitted.body.response, { withAgreementUrl: false });
    expect(submitted.body.response.kyb).toEqual({ status: 'processing', pendingRequirements: [], lastSyncedAt: null });

    const done = await pollUntil(id, ['verified']);
    expect(done.status).toBe(200);
    expect(done.body.response.kyb.status).toBe('verified');
    expect(Date.parse(done.body.response.kyb.lastSyncedAt)).toBeGreaterThan(Date.parse(submitted.body.response.updatedAt) - 1000);

    const [application] = await applicationsFor(id);
    expect(await providerApplications(application.id)).toHaveLength(1);
    const documents = (await pg.query('SELECT sha256, size_bytes FROM kyb_documents WHERE application_id = $1', [application.id])).rows;
    expect(documents).toHaveLength(8); // six company groups and two identity files
    // Every file of the fixture is SAMPLE_PDF (the identity files as data: URLs): stored byte for byte.
    const pdf = Buffer.from(SAMPLE_PDF, 'base64');
    expect(documents.map((d) => [d.sha256, d.size_bytes])).toEqual(documents.map(() => [createHash('sha256').update(pdf).digest('hex'), pdf.length]));

    const naira = await eventually(
      () => http(t.baseUrl, 'GET', `/api/merchant/pobo/users/${id}`, { apiKey }),
      (r) => r.body.response.nairaCollectionStatus === 'active',
    );
    expect(naira.body.response.nairaCollectionStatus).toBe('active');
    const accounts = (await bankRail.state<{ accounts: { reference: string }[] }>('/_sandbox/accounts')).accounts.filter((a) => a.reference === id);
    expect(accounts).toHaveLength(1);

    expect(await history(id)).toEqual(
      expect.arrayContaining([
        { field: 'kyb', from_status: 'not_started', to_status: 'processing', cause: 'kyb_submitted' },
        { field: 'kyb', from_status: 'processing', to_status: 'verified', cause: 'provider_verified' },
        { field: 'naira_collection', from_status: 'not_requested', to_status: 'pending', cause: 'kyb_verified' },
        { field: 'naira_collection', from_status: 'pending', to_status: 'active', cause: 'bank_rail_account_opened' },
      ]),
    );
  });

  it('stores text written as JSON escapes as sent, surrogate pairs included (the document extraction passes them on intact)', async () => {
    const id = await acceptedBusiness();
    const body = JSON.stringify(kybApplication('RC-ESCAPES-HOLD')).replace('"Acme Trading Limited"', '"Acme \\ud83d\\ude00 \\u00e9 Limited"');
    expect((await submit(id, body)).status).toBe(202);
    const [application] = await applicationsFor(id);
    expect(application.payload.company.name).toBe('Acme \u{1F600} \u00e9 Limited');
  });

  it('deletes stored documents once the provider has them and the retention period has passed', async () => {
    const id = await acceptedBusiness();
    expect((await submit(id, kybApplication('RC-RETAIN-1'))).status).toBe(202);
    await pollUntil(id, ['verified']);
    const [application] = await applicationsFor(id);
    const deleted = await eventually(
      async () => (await pg.query('SELECT count(*)::int AS n FROM kyb_documents WHERE application_id = $1 AND deleted_at IS NULL', [application.id])).rows[0].n,
      (n: number) => n === 0,
    );
    expect(deleted).toBe(0);
    const chunks = await pg.query('SELECT 1 FROM kyb_document_chunks c JOIN kyb_documents d ON d.id = c.document_id WHERE d.application_id = $1', [
      application.id,
    ]);
    expect(chunks.rows).toEqual([]);
  });

  it('asks for action, clears the requirements on resubmission, then verifies', async () => {
    const id = await acceptedBusiness();
    expect((await submit(id, kybApplication('RC-200-ACTION'))).status).toBe(202);
    const action = await pollUntil(id, ['action_required']);
    expect(action.body.response.kyb.pendingRequirements.length).toBeGreaterThan(0);
    for (const item of action.body.response.kyb.pendingRequirements) {
      expect(Object.keys(item).sort()).toEqual(['code', 'field', 'message']);
    }
    expect(action.body.response.kyb.pendingRequirements[0].field).toBe('company_files.organization_chart');

    const resubmitted = await submit(id, kybApplication('RC-200-ACTION'));
    expect(resubmitted.status).toBe(202);
    expect(resubmitted.body.response.kyb).toMatchObject({ status: 'processing', pendingRequirements: [] });
    expect((await pollUntil(id, ['verified'])).body.response.kyb).toMatchObject({ status: 'verified', pendingRequirements: [] });
  });

  it('reports a declined business', async () => {
    const id = await acceptedBusiness();
    await submit(id, kybApplication('RC-300-DECLINE'));
    expect((await pollUntil(id, ['declined', 'verified'])).body.response.kyb.status).toBe('declined');
    expectErrorBody(await submit(id, kybApplication('RC-300-DECLINE')), 409, 'kyb_state_conflict');
  });

  it('keeps a held review processing while lastSyncedAt advances', async () => {
    const id = await acceptedBusiness();
    await submit(id, kybApplication('RC-400-HOLD'));
    const first = await eventually(
      () => onboarding(id),
      (r) => r.body.response.kyb.lastSyncedAt !== null,
    );
    const later = await eventually(
      () => onboarding(id),
      (r) => Date.parse(r.body.response.kyb.lastSyncedAt) > Date.parse(first.body.response.kyb.lastSyncedAt),
    );
    expect(later.body.response.kyb.status).toBe('processing');
    expect(Date.parse(later.body.response.kyb.lastSyncedAt)).toBeGreaterThan(Date.parse(first.body.response.kyb.lastSyncedAt));
  });

  describe('rejections leave the business unchanged', () => {
    let id: string;
    let before: unknown;

    beforeAll(async () => {
      id = await acceptedBusiness();
      before = (await http(t.baseUrl, 'GET', `/api/merchant/pobo/users/${id}`, { apiKey })).body.response;
    });

    afterEach(async () => {
      expect((await http(t.baseUrl, 'GET', `/api/merchant/pobo/users/${id}`, { apiKey })).body.response).toEqual(before);
      expect(await applicationsFor(id)).toEqual([]);
      expect(await history(id)).toEqual([]);
    });

    const app = kybApplication;
    const persons = (...types: string[]) => types.map((type) => kybPerson(type));
    const files = (types: string[]) => types.map((file_type) => ({ file_type, files: [SAMPLE_PDF] }));
    const required = app().company_files.map((f) => f.file_type);

    it.each([
      ['no representative', app('RC-1', { associated_persons: persons('applicant') }), 'associated_persons'],
      ['two representatives', app('RC-1', { associated_persons: persons('representative', 'representative', 'applicant') }), 'associated_persons'],
      ['no applicant', app('RC-1', { associated_persons: persons('representative', 'controller') }), 'associated_persons'],
      ['a missing file group', app('RC-1', { company_files: files(required.slice(1)) }), 'company_files'],
      ['a repeated file group', app('RC-1', { company_files: files([...required, required[0]]) }), 'company_files[6].file_type'],
      ['an unknown file group', app('RC-1', { company_files: files([...required, 'selfie_of_ceo']) }), 'company_files[6].file_type'],
      [
        'invalid base64',
        app('RC-1', { company_files: [{ file_type: required[0], files: ['not base64!'] }, ...files(required.slice(1))] }),
        'company_files[0].files[0]',
      ],
      [
        'unpadded base64',
        app('RC-1', { company_files: [{ file_type: required[0], files: ['YWJj ZA'] }, ...files(required.slice(1))] }),
        'company_files[0].files[0]',
      ],
      [
        'an empty document',
        app('RC-1', { company_files: [{ file_type: required[0], files: [''] }, ...files(required.slice(1))] }),
        'company_files[0].files[0]',
      ],
      ['a bad company country', app('RC-1', { company: { ...app().company, country: 'Nigeria' } }), 'company.country'],
      ['a bad incorporation date', app('RC-1', { company: { ...app().company, incorporation_date: '01/04/2019' } }), 'company.incorporation_date'],
      ['a missing company field', app('RC-1', { company: { ...app().company, tax_id: undefined } }), 'company.tax_id'],
      ['an unknown field', app('RC-1', { kyb_status: 'verified' }), 'kyb_status'],
      ['a bad person type', app('RC-1', { associated_persons: [kybPerson('representative'), kybPerson('ceo')] }), 'associated_persons[1].type'],
    ])('400 for %s', async (_name, body, field) => {
      const result = await submit(id, body);
      expectErrorBody(result, 400, 'validation_failed');
      expect(result.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    const company = (overrides: Record<string, unknown>) => app('RC-1', { company: { ...app().company, ...overrides } });
    const withPerson = (i: number, overrides: Record<string, unknown>) => {
      const body = app('RC-1');
      body.associated_persons[i] = { ...body.associated_persons[i], ...overrides };
      return body;
    };
    /** JSON text of an application whose first document is `value` (raw JSON string content). */
    const withRawDocument = (value: string) => JSON.stringify(app('RC-1')).replace(`"files":["${SAMPLE_PDF}"]`, `"files":["${value}"]`);

    // Each of these answered 500 (or, for dates and names, 202) before it was refused.
    it.each([
      ['a NUL in company.name', company({ name: 'Acme\u0000' }), 'company.name'],
      ['a NUL in a person name', withPerson(0, { first_name: 'Ada\u0000' }), 'associated_persons[0].first_name'],
      ['a lone surrogate in company.name', company({ name: 'Acme \ud800' }), 'company.name'],
      ['a lone surrogate in an email', withPerson(1, { email: '\udfff@acme.example' }), 'associated_persons[1].email'],
      ['an array as a company file group', app('RC-1', { company_files: [...app().company_files.slice(0, 5), []] }), 'company_files'],
      ['an array of arrays as company_files', app('RC-1', { company_files: [[]] }), 'company_files'],
      ['null as a company file group', app('RC-1', { company_files: [...app().company_files, null] }), 'company_files'],
      ['an array as a person', app('RC-1', { associated_persons: [kybPerson('representative'), []] }), 'associated_persons'],
      ['a string as an identity file', withPerson(0, { identity_files: ['x'] }), 'associated_persons[0].identity_files'],
      ['a future incorporation date', company({ incorporation_date: '2999-01-01' }), 'company.incorporation_date'],
      ['a future birthday', withPerson(1, { birthday: '2999-12-31' }), 'associated_persons[1].birthday'],
      ['a company name of zero-width characters', company({ name: '\u200b\u200d' }), 'company.name'],
      ['a right-to-left override in the business name', company({ business_name: 'Acme\u202eLtd' }), 'company.business_name'],
      ['JSON nested 2,000 levels deep', JSON.stringify(app('RC-1')).replace('"RC-1"', `${'['.repeat(2000)}${']'.repeat(2000)}`), 'company.registration_number'],
      ['a NUL in a document', withRawDocument('JVBE\\u0000Ri0x'), 'company_files[0].files[0]'],
      ['a lone surrogate in a document', withRawDocument('JVBE\\ud800Ri0x'), 'company_files[0].files[0]'],
    ])('400 for %s, naming the field', async (_name, body, field) => {
      const result = await submit(id, body);
      expectErrorBody(result, 400, 'validation_failed');
      // Nesting too deep is named where it passes the limit, inside the field.
      expect(result.body.error.details.map((d: { field: string }) => (d.field.startsWith(`${field}[0]`) ? field : d.field))).toContain(field);
    });

    /** Every field and object an application requires, as the path the 400 names when it is left out. */
    const REQUIRED_PATHS = [
      'company',
      'associated_persons',
      'company_files',
      ...[
        'name',
        'business_name',
        'registration_number',
        'country',
        'incorporation_date',
        'type',
        'description',
        'industry',
        'register_address',
        'business_address',
        'email',
        'url',
        'tax_id',
      ].map((f) => `company.${f}`),
      ...['street', 'city', 'postal_code'].map((f) => `company.register_address.${f}`),
      ...['street', 'city', 'country', 'postal_code'].map((f) => `company.business_address.${f}`),
      ...['type', 'first_name', 'last_name', 'birthday', 'nationality', 'email', 'id_type', 'id_number', 'residential_address', 'identity_files'].map(
        (f) => `associated_persons[0].${f}`,
      ),
      ...['street', 'city', 'country', 'postal_code'].map((f) => `associated_persons[0].residential_address.${f}`),
      ...['file_type', 'part', 'country', 'file'].map((f) => `associated_persons[0].identity_files[0].${f}`),
      'company_files[0].file_type',
      'company_files[0].files',
    ];

    /** The application with the value at `path` (dots and [index]) removed. */
    const without = (path: string) => {
      const body = JSON.parse(JSON.stringify(app('RC-1')));
      const keys = path.replace(/\[(\d+)\]/g, '.$1').split('.');
      const parent = keys.slice(0, -1).reduce((node, key) => node[key], body);
      delete parent[keys[keys.length - 1]];
      return body;
    };

    it.each(REQUIRED_PATHS)('400 naming %s when the application leaves it out', async (path) => {
      const result = await submit(id, without(path));
      expectErrorBody(result, 400, 'validation_failed');
      expect(result.body.error.details.map((d: { field: string }) => d.field)).toContain(path);
    });

    it('400 for malformed JSON', async () => {
      expectErrorBody(await submit(id, '{"company":'), 400, 'invalid_json');
    });

    it('413 for a document of 8 MB + 1 byte', async () => {
      const big = app('RC-1', { company_files: [{ file_type: required[0], files: [documentOfSize(8 * MiB + 1)] }, ...files(required.slice(1))] });
      const result = await submit(id, big);
      expectErrorBody(result, 413, 'payload_too_large');
      expect(result.body.error.details[0].field).toBe('company_files[0].files[0]');
    });

    it('accepts exactly 8 MB per document as far as size goes (the limit is inclusive)', async () => {
      const exact = app('RC-1', {
        associated_persons: persons('applicant'),
        company_files: [{ file_type: required[0], files: [documentOfSize(8 * MiB)] }, ...files(required.slice(1))],
      });
      const result = await submit(id, exact);
      // Refused for the missing representative, not for the size.
      expectErrorBody(result, 400, 'validation_failed');
    });

    it('413 for 51 MB of documents in total', async () => {
      const seven = Array.from({ length: 7 }, () => documentOfSize(Math.ceil((51 * MiB) / 7)));
      const result = await submit(id, app('RC-1', { company_files: [{ file_type: required[0], files: seven }, ...files(required.slice(1))] }));
      expectErrorBody(result, 413, 'payload_too_large');
    });

    it('413 from Content-Length alone, before the body is read', async () => {
      const { request } = await import('node:http');
      const url = new URL(`${t.baseUrl}/api/merchant/pobo/users/${id}/onboarding`);
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': 200 * MiB, 'x-api-key': apiKey },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        );
        req.on('error', reject);
        req.write('{"company":'); // 200 MB announced, a few bytes sent
      });
      expect(status).toBe(413);
    });

    it('413 for a body sent without Content-Length once it passes the limit, while it streams', async () => {
      const { request } = await import('node:http');
      const url = new URL(`${t.baseUrl}/api/merchant/pobo/users/${id}/onboarding`);
      const chunk = Buffer.alloc(MiB, 'A');
      const result = await new Promise<{ status: number; body: { error: { code: string } } }>((resolve, reject) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'x-api-key': apiKey },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as { error: { code: string } } }));
          },
        );
        // Once the server has answered and closed, the rest of the upload fails to send: expected.
        req.on('error', (err: NodeJS.ErrnoException) => (['EPIPE', 'ECONNRESET'].includes(err.code ?? '') ? undefined : reject(err)));
        req.write('{"company_files":[{"file_type":"organization_chart","files":["');
        // 73 MiB, past the 72 MiB limit, and then nothing more: the body is never finished, so
        // only the server's limit can end this exchange.
        const send = (left: number): void => {
          if (left === 0) return;
          if (req.write(chunk)) setImmediate(() => send(left - 1));
          else req.once('drain', () => send(left - 1));
        };
        send(73);
      });
      expect(result.status).toBe(413);
      expect(result.body.error.code).toBe('payload_too_large');
    });

    it('400 for a "__proto__" key anywhere in the application', async () => {
      const body = JSON.stringify(app()).replace('"company":{', '"company":{"__proto__":{"kyb_status":"verified"},');
      expectErrorBody(await submit(id, body), 400, 'invalid_json');
    });

    it('404 for another merchant, on both endpoints', async () => {
      expectErrorBody(await submit(id, app(), otherKey), 404, 'resource_not_found');
      expectErrorBody(await onboarding(id, otherKey), 404, 'resource_not_found');
      expectErrorBody(await onboarding('pobo_000000000000000000000000'), 404, 'resource_not_found');
    });
  });

  it('409 before the agreement is accepted, and nothing is stored', async () => {
    const { poboUserId: id } = await createBusiness(t, apiKey);
    const result = await submit(id, kybApplication());
    expectErrorBody(result, 409, 'agreement_not_accepted');
    expect(await applicationsFor(id)).toEqual([]);
    expect((await onboarding(id)).body.response.kyb.status).toBe('agreement_pending');
  });

  it('409 on a second submission, also when both race', async () => {
    const id = await acceptedBusiness();
    const results = await Promise.all([submit(id, kybApplication('RC-500-HOLD')), submit(id, kybApplication('RC-500-HOLD'))]);
    expect(results.map((r) => r.status).sort()).toEqual([202, 409]);
    expectErrorBody(
      results.find((r) => r.status === 409)!,
      409,
      'kyb_state_conflict',
    );
    expectErrorBody(await submit(id, kybApplication('RC-500-HOLD')), 409, 'kyb_state_conflict');
    expect(await applicationsFor(id)).toHaveLength(1);
  });

  it('answers 202 while the provider is down, and the application reaches it once it is back', async () => {
    await verification.faults({ down: true });
    const id = await acceptedBusiness();
    expect((await submit(id, kybApplication('RC-600'))).status).toBe(202);
    // The worker tried the provider, found it down, and kept the application queued.
    const [queued] = await eventually(
      () => applicationsFor(id),
      ([application]) => application?.last_error != null,
    );
    expect(queued.status).toBe('queued');
    expect(queued.last_error).toMatch(/503|circuit/);
    const started = Date.now();
    const whileDown = await onboarding(id);
    expect(Date.now() - started).toBeLessThan(REFRESH_TIMEOUT_MS + 1_000);
    expect(whileDown.body.response.kyb.status).toBe('processing');

    await verification.faults({});
    expect((await pollUntil(id, ['verified'], 40_000)).body.response.kyb.status).toBe('verified');
    expect(await providerApplications(queued.id)).toHaveLength(1);
  });

  it('answers GET onboarding from the last known state within its timeout when the provider hangs', async () => {
    const id = await acceptedBusiness();
    await submit(id, kybApplication('RC-700-HOLD'));
    const synced = await eventually(
      () => onboarding(id),
      (r) => r.body.response.kyb.lastSyncedAt !== null,
    );
    await verification.faults({ hang: true });
    const started = Date.now();
    const result = await onboarding(id);
    const elapsed = Date.now() - started;
    expect(result.status).toBe(200);
    expect(elapsed).toBeLessThan(REFRESH_TIMEOUT_MS + 800);
    expect(result.body.response.kyb.status).toBe('processing');
    expect(Date.parse(result.body.response.kyb.lastSyncedAt)).toBeGreaterThanOrEqual(Date.parse(synced.body.response.kyb.lastSyncedAt));
  });

  it('lets concurrent polls of one business cause at most one provider call at a time', async () => {
    const id = await acceptedBusiness();
    await submit(id, kybApplication('RC-800-HOLD'));
    await eventually(
      () => onboarding(id),
      (r) => r.body.response.kyb.lastSyncedAt !== null,
    );
    await verification.faults({ latencyMs: 300 });
    const provider = t.app.get<VerificationProvider>(VERIFICATION_PROVIDER);
    const original = provider.fetchApplication.bind(provider);
    let inFlight = 0;
    let maxInFlight = 0;
    let calls = 0;
    const spy = jest.spyOn(provider, 'fetchApplication').mockImplementation(async (...args) => {
      calls++;
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        return await original(...args);
      } finally {
        inFlight--;
      }
    });
    try {
      // The worker's refresh may hold the lock during a round (on a loaded machine, round after
      // round), so rounds go on until the API has made calls of its own: at least 5, at most 20.
      let rounds = 0;
      while (rounds < 5 || (calls === 0 && rounds < 20)) {
        const results = await Promise.all(Array.from({ length: 10 }, () => onboarding(id)));
        expect(results.every((r) => r.status === 200 && r.body.response.kyb.status === 'processing')).toBe(true);
        rounds++;
        await sleep(100);
      }
      expect(calls).toBeGreaterThanOrEqual(1);
      // Ten polls a round, but never more than one call at a time: far fewer calls than polls.
      expect(calls).toBeLessThan(rounds * 10);
      expect(maxInFlight).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('sheds load: extra large uploads get 503 with Retry-After instead of being read', async () => {
    const id = await acceptedBusiness();
    const body = JSON.stringify(
      kybApplication('RC-900-HOLD', { company_files: [{ file_type: 'corporate_registration_documents', files: [documentOfSize(6 * MiB)] }] }),
    );
    const results = await Promise.all(Array.from({ length: 6 }, () => submit(id, body)));
    const shed = results.filter((r) => r.status === 503);
    expect(shed.length).toBeGreaterThan(0);
    for (const result of shed) {
      expectErrorBody(result, 503, 'service_unavailable');
      expect(result.headers.get('retry-after')).toMatch(/^\d+$/);
    }
  });
});
