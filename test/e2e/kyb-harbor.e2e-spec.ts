import { request as httpRequest } from 'node:http';
import { Client } from 'pg';
import { expectErrorBody } from '../support/contract';
import { acceptAgreementDirectly, documentOfSize, harborApplication, kybApplication, kybPerson, SAMPLE_PDF } from '../support/kyb-fixtures';
import { eventually } from '../support/poll';
import { KybStack, startKybStack } from '../support/kyb-stack';
import { Sandbox } from '../support/sandboxes';
import { createBusiness, http, TestApp } from '../support/test-app';

const MiB = 1024 * 1024;

interface ProviderApplication {
  reference: string;
  registration_number: string;
  company: Record<string, unknown>;
  associated_persons: Record<string, unknown>[];
  documents: { id: string; path: string; file_type: string; sha256: string; size: number }[];
}

/**
 * KYB applications in OwlPay Harbor's fuller format, enumerations in any case, and the
 * correction of an application (`PATCH …/onboarding`), with the worker and the sandbox provider.
 * Retention is zero, so the documents a correction keeps have lost their bytes by then: they are
 * carried over by reference, never uploaded again.
 */
describe('KYB: the Harbor format and corrections (PATCH …/onboarding)', () => {
  let stack: KybStack;
  let t: TestApp;
  let verification: Sandbox;
  let pg: Client;
  let apiKey: string;
  let otherKey: string;

  beforeAll(async () => {
    stack = await startKybStack({
      name: 'kyb-harbor',
      reviewDelayMs: 300,
      worker: true,
      env: { PERIODIC_JOB_INTERVAL_MS: '400', PROVIDER_TIMEOUT_MS: '1000', DOCUMENT_RETENTION_HOURS: '0' },
    });
    ({ t, verification, pg } = stack);
    apiKey = (await t.createMerchant('Harbor merchant')).apiKey;
    otherKey = (await t.createMerchant('Other merchant')).apiKey;
  });

  afterAll(() => stack?.close());

  async function acceptedBusiness(): Promise<string> {
    const { poboUserId } = await createBusiness(t, apiKey);
    await acceptAgreementDirectly(pg, poboUserId);
    return poboUserId;
  }

  const path = (id: string) => `/api/merchant/pobo/users/${id}/onboarding`;
  const submit = (id: string, body: unknown, key = apiKey) => http(t.baseUrl, 'POST', path(id), { apiKey: key, body });
  const correct = (id: string, body: unknown, key = apiKey) => http(t.baseUrl, 'PATCH', path(id), { apiKey: key, body });
  const onboarding = (id: string) => http(t.baseUrl, 'GET', path(id), { apiKey });
  const pollUntil = async (id: string, status: string) => {
    const result = await eventually(
      () => onboarding(id),
      (r) => r.body?.response?.kyb?.status === status,
      30_000,
    );
    expect(result.body.response.kyb.status).toBe(status);
    return result;
  };
  const applicationsFor = async (id: string) => (await pg.query('SELECT * FROM kyb_applications WHERE business_id = $1 ORDER BY created_at', [id])).rows;
  const documentsOf = async (applicationId: string) =>
    (await pg.query('SELECT id, path, file_type, sha256, size_bytes, deleted_at FROM kyb_documents WHERE application_id = $1 ORDER BY path', [applicationId]))
      .rows;
  const history = async (id: string) =>
    (await pg.query('SELECT field, from_status, to_status, cause FROM business_status_history WHERE business_id = $1 ORDER BY id', [id])).rows;
  const providerApplication = async (reference: string) => {
    const { applications } = await verification.state<{ applications: ProviderApplication[] }>('/_sandbox/applications');
    const found = applications.filter((a) => a.reference === reference);
    expect(found).toHaveLength(1);
    return found[0];
  };
  const uploads = async () => (await verification.state<{ uploads: number }>('/_sandbox/documents')).uploads;
  /** What a refused request must leave as it was (the provider's reviews advance lastSyncedAt meanwhile). */
  const snapshot = async (id: string) => {
    const { agreement, kyb } = (await http(t.baseUrl, 'GET', `/api/merchant/pobo/users/${id}`, { apiKey })).body.response;
    const applications = await applicationsFor(id);
    const documents = (
      await pg.query('SELECT d.id FROM kyb_documents d JOIN kyb_applications a ON a.id = d.application_id WHERE a.business_id = $1 ORDER BY d.id', [id])
    ).rows;
    return {
      agreement: agreement.status,
      kyb: kyb.status,
      requirements: kyb.pendingRequirements,
      applications: applications.map((a) => a.id),
      documents,
      history: await history(id),
    };
  };
  /** A business whose first application the provider sent back (`-ACTION`). */
  async function actionRequired(body: ReturnType<typeof kybApplication> = kybApplication(`RC-${Math.random().toString(36).slice(2, 10)}-ACTION`)) {
    const id = await acceptedBusiness();
    expect((await submit(id, body)).status).toBe(202);
    await pollUntil(id, 'action_required');
    const [first] = await applicationsFor(id);
    return { id, first };
  }
  const withoutFiles = ({ identity_files: _files, ...person }: Record<string, unknown>) => person;

  it("accepts Harbor's full format with every optional field, forwards every field and reaches verified", async () => {
    const id = await acceptedBusiness();
    const body = harborApplication('REG-FULL-1');
    const submitted = await submit(id, body);
    expect(submitted.status).toBe(202);
    expect(submitted.body.response.kyb).toEqual({ status: 'processing', pendingRequirements: [], lastSyncedAt: null });
    await pollUntil(id, 'verified');

    const [application] = await applicationsFor(id);
    const normalised = body.associated_persons.map((person) => ({
      ...person,
      id_type: person.id_type.toLowerCase(),
      identity_files: person.identity_files.map((file) => ({ ...file, file_type: file.file_type.toLowerCase() })),
    }));
    expect(application.payload.company).toEqual(body.company);
    const provider = await providerApplication(application.id);
    expect(provider.company).toEqual(body.company);
    // Enumerations in their listed case; the files are checked below (as document ids).
    expect(provider.associated_persons.map(withoutFiles)).toEqual(normalised.map(withoutFiles));
    expect(provider.associated_persons.map((p) => (p.identity_files as { file_type: string; part: string }[]).map((f) => [f.file_type, f.part]))).toEqual([
      [
        ['passport', 'FRONT'],
        ['driver_licence', 'BACK'],
      ],
      [
        ['passport', 'FRONT'],
        ['driver_licence', 'BACK'],
      ],
      [['residence_permit', 'FRONT']],
      [],
    ]);
    // Every company-file group (six required, eleven optional) and every identity file.
    expect(provider.documents).toHaveLength(body.company_files.length + 5);
    expect(new Set(provider.documents.map((d) => d.file_type))).toEqual(
      new Set([...body.company_files.map((g) => g.file_type), 'passport', 'driver_licence', 'residence_permit']),
    );
  });

  it('matches enumerations in any case, stores and forwards them in their listed case, and counts them so', async () => {
    const id = await acceptedBusiness();
    const body = kybApplication('RC-CASE-1');
    Object.assign(body.company, {
      country: 'ng',
      purpose_of_registration: 'RECEIPTANDPAYMENT',
      source_of_funds: 'business_income',
      country_of_operation: ['ng'],
    });
    Object.assign(body.associated_persons[0], {
      type: 'REPRESENTATIVE',
      id_type: 'PASSPORT',
      nationality: 'ng',
      gender: 'm',
      identity_files: [{ file_type: 'PASSPORT', part: 'front', country: 'ng', file: SAMPLE_PDF }],
    });
    Object.assign(body.associated_persons[1], { type: 'Applicant', id_type: 'Driver_Licence' });
    body.company_files = body.company_files.map((group) => ({ ...group, file_type: group.file_type.toUpperCase() as never }));

    // Two representatives spelt differently are two representatives.
    const twice = {
      ...body,
      associated_persons: [body.associated_persons[0], { ...body.associated_persons[0], type: 'representative' }, body.associated_persons[1]],
    };
    const refused = await submit(id, twice);
    expectErrorBody(refused, 400, 'validation_failed');
    expect(refused.body.error.details).toContainEqual({ field: 'associated_persons', message: 'exactly one representative is required, found 2' });

    expect((await submit(id, body)).status).toBe(202);
    const [application] = await applicationsFor(id);
    expect(application.payload.company).toMatchObject({
      country: 'NG',
      purpose_of_registration: 'receiptAndPayment',
      source_of_funds: 'BUSINESS_INCOME',
      country_of_operation: ['NG'],
    });
    expect(application.payload.associated_persons.map((p: Record<string, unknown>) => [p.type, p.id_type, p.nationality])).toEqual([
      ['representative', 'passport', 'NG'],
      ['applicant', 'driver_licence', 'NG'],
    ]);
    expect(application.payload.associated_persons[0].gender).toBe('M');
    expect(application.payload.associated_persons[0].identity_files[0]).toMatchObject({ file_type: 'passport', part: 'FRONT', country: 'NG' });
    expect(application.payload.company_files.map((g: { file_type: string }) => g.file_type)).toEqual(kybApplication().company_files.map((g) => g.file_type));
    const stored = await documentsOf(application.id);
    expect(stored.map((d) => d.file_type).sort()).toEqual([...kybApplication().company_files.map((g) => g.file_type), 'passport', 'passport'].sort());

    await pollUntil(id, 'verified');
    const provider = await providerApplication(application.id);
    expect(provider.company).toMatchObject({ country: 'NG', purpose_of_registration: 'receiptAndPayment' });
    expect(provider.associated_persons.map((p) => p.type)).toEqual(['representative', 'applicant']);
  });

  it('PATCH replacing only company resubmits with the kept documents, which the provider already has: 202, then verified', async () => {
    const { id, first } = await actionRequired(kybApplication('RC-FIX-ACTION'));
    const firstDocuments = await documentsOf(first.id);
    expect(firstDocuments).toHaveLength(8);
    // Retention is zero: the kept documents' bytes are gone before the correction.
    await eventually(
      async () => (await documentsOf(first.id)).every((d) => d.deleted_at !== null),
      (done) => done,
    );
    const uploadsBefore = await uploads();

    const company = { ...harborApplication().company, registration_number: 'RC-FIX-1' };
    const corrected = await correct(id, { company });
    expect(corrected.status).toBe(202);
    expect(corrected.body.message).toMatch(/resubmitted/);
    expect(corrected.body.response.kyb).toMatchObject({ status: 'processing', pendingRequirements: [] });
    await pollUntil(id, 'verified');

    const [, second] = await applicationsFor(id);
    expect(second.payload.company).toEqual(company);
    expect(second.payload.associated_persons).toEqual(first.payload.associated_persons);
    expect(second.payload.company_files).toEqual(first.payload.company_files);
    expect(await documentsOf(second.id)).toEqual([]);

    const provider = await providerApplication(second.id);
    expect(provider.registration_number).toBe('RC-FIX-1');
    expect(provider.company).toEqual(company);
    expect(provider.documents.map((d) => [d.id, d.sha256, d.size]).sort()).toEqual(firstDocuments.map((d) => [d.id, d.sha256, d.size_bytes]).sort());
    expect(await uploads()).toBe(uploadsBefore);
    expect(await history(id)).toEqual([
      { field: 'kyb', from_status: 'not_started', to_status: 'processing', cause: 'kyb_submitted' },
      { field: 'kyb', from_status: 'processing', to_status: 'action_required', cause: 'provider_action_required' },
      { field: 'kyb', from_status: 'action_required', to_status: 'processing', cause: 'kyb_submitted' },
      { field: 'kyb', from_status: 'processing', to_status: 'verified', cause: 'provider_verified' },
    ]);
  });

  it('PATCH replacing company_files uploads the new ones and keeps the identity files', async () => {
    const { id, first } = await actionRequired();
    const identity = (await documentsOf(first.id)).filter((d) => d.path.startsWith('associated_persons'));
    expect(identity).toHaveLength(2);
    const newFile = Buffer.from('%PDF-1.4 corrected chart').toString('base64');
    const company_files = kybApplication().company_files.map((group) => ({ file_type: group.file_type.toUpperCase(), files: [newFile, newFile] }));

    expect((await correct(id, { company_files })).status).toBe(202);
    await pollUntil(id, 'verified');
    const [, second] = await applicationsFor(id);
    const added = await documentsOf(second.id);
    expect(added).toHaveLength(12);
    expect(added.every((d) => d.path.startsWith('company_files') && d.size_bytes === Buffer.from(newFile, 'base64').length)).toBe(true);
    expect(second.payload.company_files.map((g: { file_type: string }) => g.file_type)).toEqual(kybApplication().company_files.map((g) => g.file_type));
    expect(second.payload.associated_persons).toEqual(first.payload.associated_persons);

    const provider = await providerApplication(second.id);
    expect(provider.documents.map((d) => d.id).sort()).toEqual([...added, ...identity].map((d) => d.id).sort());
  });

  it('PATCH replacing associated_persons keeps the company files, and normalises the new persons', async () => {
    const { id, first } = await actionRequired();
    const companyFiles = (await documentsOf(first.id)).filter((d) => d.path.startsWith('company_files'));
    const persons = [
      {
        ...kybPerson('REPRESENTATIVE'),
        id_type: 'DRIVER_LICENCE',
        identity_files: [{ file_type: 'DRIVER_LICENCE', part: 'back', country: 'gh', file: SAMPLE_PDF }],
      },
      kybPerson('applicant', { identity_files: [] }),
      kybPerson('Equity_Holder', {
        equity: 60,
        has_control: true,
        is_signer: false,
        relationship_established_at: '2021-05-01',
        tax_jurisdiction_country: 'gh',
      }),
    ];

    expect((await correct(id, { associated_persons: persons })).status).toBe(202);
    await pollUntil(id, 'verified');
    const [, second] = await applicationsFor(id);
    expect(second.payload.company).toEqual(first.payload.company);
    expect(second.payload.company_files).toEqual(first.payload.company_files);
    expect(second.payload.associated_persons.map((p: Record<string, unknown>) => [p.type, p.id_type])).toEqual([
      ['representative', 'driver_licence'],
      ['applicant', 'passport'],
      ['equity_holder', 'passport'],
    ]);
    const added = await documentsOf(second.id);
    expect(added.map((d) => [d.path, d.file_type])).toEqual([
      ['associated_persons[0].identity_files[0].file', 'driver_licence'],
      ['associated_persons[2].identity_files[0].file', 'passport'],
    ]);
    const provider = await providerApplication(second.id);
    expect(provider.associated_persons[2]).toMatchObject({ type: 'equity_holder', equity: 60, tax_jurisdiction_country: 'GH' });
    expect(provider.documents.map((d) => d.id).sort()).toEqual([...added, ...companyFiles].map((d) => d.id).sort());
  });

  describe('refusals change nothing', () => {
    it('409 in every state but action_required', async () => {
      const { poboUserId: pending } = await createBusiness(t, apiKey);
      const notStarted = await acceptedBusiness();
      const processing = await acceptedBusiness();
      const verified = await acceptedBusiness();
      const declined = await acceptedBusiness();
      await Promise.all([
        submit(processing, kybApplication('RC-STATE-HOLD')),
        submit(verified, kybApplication('RC-STATE-OK')),
        submit(declined, kybApplication('RC-STATE-DECLINE')),
      ]);
      await Promise.all([pollUntil(verified, 'verified'), pollUntil(declined, 'declined')]);

      const { company } = kybApplication('RC-STATE-NEW');
      for (const [id, code] of [
        [pending, 'agreement_not_accepted'],
        [notStarted, 'kyb_state_conflict'],
        [processing, 'kyb_state_conflict'],
        [verified, 'kyb_state_conflict'],
        [declined, 'kyb_state_conflict'],
      ]) {
        const before = await snapshot(id);
        expectErrorBody(await correct(id, { company }), 409, code);
        // Admission runs before the body is read, so an empty body is refused for the state too.
        expectErrorBody(await correct(id, {}), 409, code);
        expect(await snapshot(id)).toEqual(before);
      }
    });

    describe('in action_required', () => {
      let id: string;
      let before: Awaited<ReturnType<typeof snapshot>>;

      beforeAll(async () => {
        ({ id } = await actionRequired());
        before = await snapshot(id);
      });

      afterEach(async () => {
        expect(await snapshot(id)).toEqual(before);
      });

      it.each([
        ['an empty body', {}, 'must hold at least one of company, associated_persons, company_files'],
        ['a null body', null, 'must hold at least one of company, associated_persons, company_files'],
        ['an array', [], 'Validation failed (object is expected)'],
      ])('400 for %s, naming the body', async (_name, body, message) => {
        const result = await correct(id, JSON.stringify(body));
        expectErrorBody(result, 400, 'validation_failed');
        expect(result.body.error.details).toEqual([{ field: 'body', message }]);
      });

      const { company, associated_persons, company_files } = kybApplication('RC-PATCH-1');
      it.each([
        ['persons without a representative', { associated_persons: associated_persons.slice(1) }, 'associated_persons'],
        ['persons without an applicant', { associated_persons: [associated_persons[0], kybPerson('controller')] }, 'associated_persons'],
        ['a missing required file group', { company_files: company_files.slice(1) }, 'company_files'],
        ['an incomplete company', { company: { ...company, tax_id: undefined } }, 'company.tax_id'],
        ['null as a section', { company: null }, 'company'],
        ['an unknown section', { company, kyb_status: 'verified' }, 'kyb_status'],
        ['invalid base64', { company_files: [{ ...company_files[0], files: ['not base64!'] }, ...company_files.slice(1)] }, 'company_files[0].files[0]'],
        [
          'an empty identity document',
          {
            associated_persons: [
              { ...associated_persons[0], identity_files: [{ file_type: 'passport', part: 'FRONT', country: 'NG', file: '' }] },
              associated_persons[1],
            ],
          },
          'associated_persons[0].identity_files[0].file',
        ],
      ])('400 for %s', async (_name, body, field) => {
        const result = await correct(id, body);
        expectErrorBody(result, 400, 'validation_failed');
        expect(result.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      });

      it('404 for another merchant and for an unknown business', async () => {
        expectErrorBody(await correct(id, { company }, otherKey), 404, 'resource_not_found');
        expectErrorBody(await correct('pobo_000000000000000000000000', { company }), 404, 'resource_not_found');
      });

      it('409 for a PATCH that is not admitted, answered from the headers before any body byte is read', async () => {
        const notStarted = await acceptedBusiness();
        const url = new URL(`${t.baseUrl}${path(notStarted)}`);
        const status = await new Promise<number>((resolve, reject) => {
          const req = httpRequest(
            {
              host: url.hostname,
              port: url.port,
              path: url.pathname,
              method: 'PATCH',
              headers: { 'content-type': 'application/json', 'content-length': 5 * MiB, 'x-api-key': apiKey },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode!);
            },
          );
          req.on('error', reject);
          req.write('{"company":'); // 5 MB announced, a few bytes sent
        });
        expect(status).toBe(409);
      });
    });

    it('of two concurrent corrections, one is resubmitted and the other is 409', async () => {
      const { id } = await actionRequired();
      const { company } = kybApplication('RC-RACE-1');
      const results = await Promise.all([correct(id, { company }), correct(id, { company })]);
      expect(results.map((r) => r.status).sort()).toEqual([202, 409]);
      expectErrorBody(
        results.find((r) => r.status === 409)!,
        409,
        'kyb_state_conflict',
      );
      expect(await applicationsFor(id)).toHaveLength(2);
    });

    it('413 when the new documents and the kept ones together pass 50 MB, though the correction alone does not', async () => {
      // 6 × 8 MiB of identity files kept, 3 MiB of company files sent: 51 MiB in all.
      const big = { file_type: 'passport', part: 'FRONT', country: 'NG' };
      const first = kybApplication('RC-SIZE-ACTION', {
        associated_persons: [
          kybPerson('representative', { identity_files: Array.from({ length: 3 }, () => ({ ...big, file: documentOfSize(8 * MiB) })) }),
          kybPerson('applicant', { identity_files: Array.from({ length: 3 }, () => ({ ...big, file: documentOfSize(8 * MiB) })) }),
        ],
      });
      const { id } = await actionRequired(first);
      const before = await snapshot(id);
      const [group, ...rest] = kybApplication().company_files;
      const result = await correct(id, { company_files: [{ ...group, files: [documentOfSize(3 * MiB)] }, ...rest] });
      expectErrorBody(result, 413, 'payload_too_large');
      expect(result.body.message).toBe('Documents are larger than 50 MB in total');
      expect(await snapshot(id)).toEqual(before);
    });
  });
});
