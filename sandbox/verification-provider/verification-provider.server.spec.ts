import { setTimeout as sleep } from 'node:timers/promises';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import {
  CONTENT_BASE64_REFUSED,
  createVerificationProviderServer,
  DOCUMENT_BODY_LIMIT_BYTES,
  JSON_BODY_LIMIT_BYTES,
  ORGANIZATION_CHART_UNREADABLE,
} from './verification-provider.server';

const API_KEY = 'test-verification-key';
const AUTH = { authorization: `Bearer ${API_KEY}` };
const REVIEW_DELAY_MS = 50;
const AFTER_REVIEW_MS = 120;

const toBuffer = (content: Buffer | string) => (Buffer.isBuffer(content) ? content : Buffer.from(content));
const sha256Of = (content: Buffer | string) => createHash('sha256').update(toBuffer(content)).digest('hex');

/** The two documents `application()` references; every test starts with them uploaded. */
const CHART = '%PDF-1.7 organization chart';
const CERTIFICATE = '%PDF-1.7 certificate';

/** A document reference as the application carries it: metadata only, the bytes were uploaded. */
function document(content: Buffer | string, overrides: Record<string, unknown> = {}) {
  const bytes = toBuffer(content);
  return {
    id: 'doc_1',
    path: 'company_files/organization_chart/chart.pdf',
    file_type: 'organization_chart',
    sha256: sha256Of(bytes),
    size: bytes.length,
    ...overrides,
  };
}

function application(registrationNumber = 'RC-1001', overrides: Record<string, unknown> = {}) {
  return {
    reference: 'kyb_app_1',
    company: { legal_name: 'Acme Ltd', registration_number: registrationNumber, country: 'NG' },
    associated_persons: [{ type: 'representative', first_name: 'Ada', last_name: 'Obi' }],
    documents: [document(CHART), document(CERTIFICATE, { id: 'doc_2', file_type: 'certificate_of_incumbency' })],
    ...overrides,
  };
}

describe('verification provider sandbox', () => {
  let app: FastifyInstance;

  const submit = (body: unknown, idempotencyKey: string | null = 'idem-1', headers: Record<string, string> = AUTH) =>
    app.inject({
      method: 'POST',
      url: '/v1/business-applications',
      headers: { ...headers, ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }) },
      payload: body as Record<string, unknown>,
    });
  const fetchApplication = (id: string, headers: Record<string, string> = AUTH) =>
    app.inject({ method: 'GET', url: `/v1/business-applications/${id}`, headers });
  /** `PUT /v1/documents/:id` with the right SHA-256 unless `headers` says otherwise. */
  const upload = (id: string, content: Buffer | string, headers: Record<string, string> = {}, auth: Record<string, string> = AUTH) =>
    app.inject({
      method: 'PUT',
      url: `/v1/documents/${id}`,
      headers: { ...auth, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256Of(content), ...headers },
      payload: toBuffer(content),
    });
  const uploadDefaults = async () => {
    expect((await upload('doc_1', CHART)).statusCode).toBe(201);
    expect((await upload('doc_2', CERTIFICATE)).statusCode).toBe(201);
  };
  const sandboxState = async () => (await app.inject({ method: 'GET', url: '/_sandbox/applications' })).json();
  const documentsState = async () => (await app.inject({ method: 'GET', url: '/_sandbox/documents' })).json();
  const setFaults = (faults: Record<string, unknown>) => app.inject({ method: 'POST', url: '/_sandbox/faults', payload: faults });

  beforeEach(async () => {
    app = createVerificationProviderServer({ apiKey: API_KEY, reviewDelayMs: REVIEW_DELAY_MS });
    await app.ready();
    await uploadDefaults();
  });

  afterEach(async () => {
    await app.close();
  });

  it('answers /health without auth', async () => {
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  describe('auth', () => {
    it.each([
      ['no Authorization header', {}],
      ['a wrong key', { authorization: 'Bearer not-the-key' }],
      ['a wrong scheme', { authorization: `Basic ${API_KEY}` }],
      ['an empty bearer', { authorization: 'Bearer ' }],
    ])('refuses %s with 401', async (_name, headers: Record<string, string>) => {
      const post = await submit(application(), 'idem-1', headers);
      expect(post.statusCode).toBe(401);
      expect(post.json()).toEqual({ error: 'unauthorized' });
      const get = await fetchApplication('pva_000000000000000000000000', headers);
      expect(get.statusCode).toBe(401);
      expect(get.json()).toEqual({ error: 'unauthorized' });
      const put = await upload('doc_3', 'bytes', {}, headers);
      expect(put.statusCode).toBe(401);
      expect(put.json()).toEqual({ error: 'unauthorized' });
      expect((await sandboxState()).submissions).toBe(0);
      expect((await documentsState()).uploads).toBe(2);
    });

    it('accepts the bearer scheme in any case', async () => {
      const res = await submit(application(), 'idem-1', { authorization: `bearer ${API_KEY}` });
      expect(res.statusCode).toBe(201);
    });

    it('checks auth before routing: unknown /v1 routes answer 401, then 404', async () => {
      expect((await app.inject({ method: 'GET', url: '/v1/nope' })).statusCode).toBe(401);
      const res = await app.inject({ method: 'GET', url: '/v1/nope', headers: AUTH });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found' });
    });
  });

  describe('POST /v1/business-applications', () => {
    it('creates an application: 201, processing, no requirements', async () => {
      const res = await submit(application());
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toEqual({
        id: expect.stringMatching(/^pva_[0-9a-f]{24}$/),
        reference: 'kyb_app_1',
        status: 'processing',
        requirements: [],
        created_at: expect.any(String),
        updated_at: body.created_at,
      });
      expect(new Date(body.created_at).toISOString()).toBe(body.created_at);

      const get = await fetchApplication(body.id);
      expect(get.statusCode).toBe(200);
      expect(get.json()).toEqual(body);
    });

    it('keeps only document metadata', async () => {
      await submit(application());
      const state = await sandboxState();
      expect(state.submissions).toBe(1);
      expect(state.applications).toHaveLength(1);
      const [stored] = state.applications;
      expect(stored).toEqual({
        id: expect.stringMatching(/^pva_/),
        reference: 'kyb_app_1',
        idempotency_key: 'idem-1',
        registration_number: 'RC-1001',
        status: 'processing',
        company: application().company,
        associated_persons: application().associated_persons,
        documents: [
          { id: 'doc_1', path: expect.any(String), file_type: 'organization_chart', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), size: 27 },
          { id: 'doc_2', path: expect.any(String), file_type: 'certificate_of_incumbency', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), size: 20 },
        ],
        created_at: expect.any(String),
      });
      expect(JSON.stringify(state)).not.toContain('content_base64');
    });

    it('accepts and keeps every company and person field as sent (the Harbor format and anything else)', async () => {
      const company = {
        ...application().company,
        phone_country_code: 'US',
        has_bearer_shares: false,
        country_of_operation: ['US', 'CA'],
        estimated_amount_of_transactions: 50000,
        source_of_funds_other: null,
        nested: { anything: [1, 'two'] },
      };
      const persons = [{ type: 'representative', phone: { country: 'US', number: '4155550101' }, equity: 25.5, is_signer: true }];
      expect((await submit(application('RC-1001', { company, associated_persons: persons }))).statusCode).toBe(201);
      const [stored] = (await sandboxState()).applications;
      expect(stored.company).toEqual(company);
      expect(stored.associated_persons).toEqual(persons);
    });

    it('answers 404 for an unknown application', async () => {
      const res = await fetchApplication('pva_000000000000000000000000');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found' });
    });

    it.each([
      ['missing', null],
      ['empty', ''],
      ['longer than 255 characters', 'k'.repeat(256)],
    ])('refuses an Idempotency-Key that is %s with 400', async (_name, key) => {
      const res = await submit(application(), key);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_idempotency_key' });
      expect((await sandboxState()).submissions).toBe(0);
    });

    it('accepts a 255-character Idempotency-Key', async () => {
      expect((await submit(application(), 'k'.repeat(255))).statusCode).toBe(201);
    });

    it('replays a retry with the same Idempotency-Key: 200, same application, never a second one', async () => {
      const first = await submit(application());
      const retry = await submit(application());
      expect(first.statusCode).toBe(201);
      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json()).toEqual(first.json());
      const state = await sandboxState();
      expect(state.submissions).toBe(2);
      expect(state.applications).toHaveLength(1);
    });

    it('creates exactly one application for 5 concurrent identical requests', async () => {
      const responses = await Promise.all(Array.from({ length: 5 }, () => submit(application(), 'idem-concurrent')));
      const statuses = responses.map((res) => res.statusCode).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 201]);
      expect(new Set(responses.map((res) => res.json().id)).size).toBe(1);
      const state = await sandboxState();
      expect(state.submissions).toBe(5);
      expect(state.applications).toHaveLength(1);
    });

    it('creates a second application for a different Idempotency-Key', async () => {
      const a = await submit(application(), 'idem-a');
      const b = await submit(application(), 'idem-b');
      expect(b.statusCode).toBe(201);
      expect(b.json().id).not.toBe(a.json().id);
      expect((await sandboxState()).applications).toHaveLength(2);
    });

    it.each([
      ['reference is missing', { reference: undefined }, 'reference'],
      ['company is missing', { company: undefined }, 'company'],
      ['company has no registration_number', { company: { legal_name: 'Acme' } }, 'company.registration_number'],
      ['registration_number is not a string', { company: { registration_number: 42 } }, 'company.registration_number'],
      ['associated_persons is missing', { associated_persons: undefined }, 'associated_persons'],
      ['associated_persons is not an array', { associated_persons: {} }, 'associated_persons'],
      ['documents is missing', { documents: undefined }, 'documents'],
    ])('refuses an application whose %s with 422', async (_name, overrides, field) => {
      const res = await submit(application('RC-1001', overrides));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: 'invalid_application', details: expect.arrayContaining([{ field, message: expect.any(String) }]) });
      expect(await sandboxState()).toEqual({ submissions: 0, applications: [] });
    });

    it('refuses a body that is not an object with 422', async () => {
      const res = await submit([1, 2]);
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toBe('invalid_application');
    });

    it('answers 400 for malformed JSON', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/business-applications',
        headers: { ...AUTH, 'idempotency-key': 'idem-1', 'content-type': 'application/json' },
        payload: '{"reference":',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('bad_request');
    });

    it('accepts an empty documents array', async () => {
      const res = await submit(application('RC-1001', { documents: [] }));
      expect(res.statusCode).toBe(201);
      expect((await sandboxState()).applications[0].documents).toEqual([]);
    });

    it(`answers 413 for a JSON body over ${JSON_BODY_LIMIT_BYTES} bytes`, async () => {
      const res = await submit(application('RC-1001', { padding: 'x'.repeat(JSON_BODY_LIMIT_BYTES) }));
      expect(res.statusCode).toBe(413);
      expect(res.json().error).toBe('payload_too_large');
      expect((await sandboxState()).submissions).toBe(0);
    });

    describe('document references', () => {
      it.each([
        ['carries content_base64', { content_base64: Buffer.from(CHART).toString('base64') }, 'documents[0].content_base64'],
        ['sha256 does not match the upload', { sha256: sha256Of('something else') }, 'documents[0].sha256'],
        ['sha256 is not 64 hex characters', { sha256: 'abc123' }, 'documents[0].sha256'],
        ['size does not match the upload', { size: Buffer.byteLength(CHART) + 1 }, 'documents[0].size'],
        ['size is not an integer', { size: '27' }, 'documents[0].size'],
        ['id is missing', { id: undefined }, 'documents[0].id'],
        ['id is not a valid document id', { id: 'doc 1' }, 'documents[0].id'],
        ['id was never uploaded', { id: 'doc_never_uploaded' }, 'documents[0].id'],
      ])('refuses a document that %s with 422', async (_name, overrides, field) => {
        const res = await submit(application('RC-1001', { documents: [document(CHART, overrides)] }));
        expect(res.statusCode).toBe(422);
        expect(res.json()).toEqual({ error: 'invalid_application', details: [{ field, message: expect.any(String) }] });
        expect(await sandboxState()).toEqual({ submissions: 0, applications: [] });
      });

      it('says why: content_base64 is refused, a missing upload is named', async () => {
        const res = await submit(
          application('RC-1001', {
            documents: [document(CHART, { content_base64: 'QUJD' }), document(CERTIFICATE, { id: 'doc_9' })],
          }),
        );
        expect(res.json().details).toEqual([
          { field: 'documents[0].content_base64', message: CONTENT_BASE64_REFUSED },
          { field: 'documents[1].id', message: 'was not uploaded' },
        ]);
      });

      it('reports a sha256 and a size that both differ from the upload', async () => {
        const res = await submit(application('RC-1001', { documents: [document('other content', { id: 'doc_1' })] }));
        expect(res.statusCode).toBe(422);
        expect(res.json().details.map((detail: { field: string }) => detail.field)).toEqual(['documents[0].sha256', 'documents[0].size']);
      });

      it('refuses duplicate document ids', async () => {
        const res = await submit(application('RC-1001', { documents: [document(CHART), document(CHART)] }));
        expect(res.statusCode).toBe(422);
        expect(res.json().details).toEqual([{ field: 'documents[1].id', message: expect.any(String) }]);
      });

      it('accepts an upper-case sha256 and an empty document', async () => {
        expect((await upload('empty', '')).statusCode).toBe(201);
        const upper = document(CHART);
        upper.sha256 = upper.sha256.toUpperCase();
        const res = await submit(application('RC-1001', { documents: [upper, document('', { id: 'empty' })] }));
        expect(res.statusCode).toBe(201);
        const [stored] = (await sandboxState()).applications;
        expect(stored.documents[0].sha256).toBe(upper.sha256.toLowerCase());
        expect(stored.documents[1]).toMatchObject({ id: 'empty', size: 0, sha256: sha256Of('') });
      });

      it('upload then reference: 201, then the application 201 with the document metadata', async () => {
        const content = Buffer.alloc(300_000, 'z');
        const put = await upload('doc_new', content);
        expect(put.statusCode).toBe(201);
        const reference = document(content, { id: 'doc_new', path: 'company_files/certificate/cert.pdf', file_type: 'certificate' });
        const res = await submit(application('RC-1001', { documents: [reference] }));
        expect(res.statusCode).toBe(201);
        expect((await sandboxState()).applications[0].documents).toEqual([reference]);
      });
    });
  });

  describe('PUT /v1/documents/:id', () => {
    const content = Buffer.from('%PDF-1.7 articles of association');

    it('stores the metadata only: 201 { id, sha256, size }, listed by /_sandbox/documents', async () => {
      const res = await upload('doc_3', content);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ id: 'doc_3', sha256: sha256Of(content), size: content.length });
      const state = await documentsState();
      expect(state.uploads).toBe(3);
      expect(state.documents).toHaveLength(3);
      const stored = state.documents.find((d: { id: string }) => d.id === 'doc_3');
      expect(stored).toEqual({ id: 'doc_3', sha256: sha256Of(content), size: content.length, uploaded_at: expect.any(String) });
      expect(new Date(stored.uploaded_at).toISOString()).toBe(stored.uploaded_at);
    });

    it('replays a repeated upload of the same bytes: 200, same body, counted', async () => {
      const first = await upload('doc_3', content);
      const again = await upload('doc_3', content);
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      const state = await documentsState();
      expect(state.uploads).toBe(4);
      expect(state.documents).toHaveLength(3);
    });

    it('refuses other bytes under an uploaded id with 409, keeping the first upload', async () => {
      await upload('doc_3', content);
      const res = await upload('doc_3', 'different bytes');
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: 'document_conflict' });
      const state = await documentsState();
      expect(state.uploads).toBe(3);
      expect(state.documents.find((d: { id: string }) => d.id === 'doc_3')).toMatchObject({ sha256: sha256Of(content), size: content.length });
    });

    it('refuses bytes whose SHA-256 is not x-content-sha256 with 422', async () => {
      const res = await upload('doc_3', content, { 'x-content-sha256': sha256Of('something else') });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: 'invalid_document', details: [{ field: 'x-content-sha256', message: expect.any(String) }] });
      expect((await documentsState()).uploads).toBe(2);
      expect((await upload('doc_3', content)).statusCode).toBe(201);
    });

    it.each([
      ['missing', undefined],
      ['empty', ''],
      ['upper-case', 'A'.repeat(64)],
      ['too short', 'a'.repeat(63)],
      ['not hex', 'g'.repeat(64)],
    ])('refuses an x-content-sha256 header that is %s with 422', async (_name, header) => {
      const res = await app.inject({
        method: 'PUT',
        url: '/v1/documents/doc_3',
        headers: { ...AUTH, 'content-type': 'application/octet-stream', ...(header === undefined ? {} : { 'x-content-sha256': header }) },
        payload: content,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: 'invalid_document', details: [{ field: 'x-content-sha256', message: expect.any(String) }] });
      expect((await documentsState()).uploads).toBe(2);
    });

    it.each([
      ['has a space', 'doc%203'],
      ['has a dot', 'doc.3'],
      ['is longer than 100 characters', 'd'.repeat(101)],
    ])('refuses an id that %s with 422', async (_name, id) => {
      const res = await upload(id, content);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: 'invalid_document', details: [{ field: 'id', message: expect.any(String) }] });
    });

    it('accepts a 100-character id of letters, digits, _ and -', async () => {
      const id = `A-z_09${'x'.repeat(94)}`;
      expect((await upload(id, content)).json()).toMatchObject({ id });
    });

    it('accepts an empty document', async () => {
      const res = await upload('doc_empty', '');
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ id: 'doc_empty', sha256: sha256Of(''), size: 0 });
    });

    it('answers 415 for a body that is not application/octet-stream', async () => {
      const res = await upload('doc_3', '{}', { 'content-type': 'application/json' });
      expect(res.statusCode).toBe(415);
      expect(res.json().error).toBe('unsupported_media_type');
    });

    it(`answers 413 past ${DOCUMENT_BODY_LIMIT_BYTES} bytes`, async () => {
      const res = await upload('doc_big', Buffer.alloc(DOCUMENT_BODY_LIMIT_BYTES + 1));
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ error: 'payload_too_large', message: expect.any(String) });
      expect(res.headers.connection).toBe('close');
      expect((await documentsState()).uploads).toBe(2);
    });

    it('runs auth and faults first: 401 without a bearer, 503 when down, failNext consumed', async () => {
      const unauthorized = await upload('doc_3', content, {}, {});
      expect(unauthorized.statusCode).toBe(401);
      expect(unauthorized.json()).toEqual({ error: 'unauthorized' });

      await setFaults({ down: true });
      const down = await upload('doc_3', content);
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ error: 'sandbox_fault' });

      await setFaults({ down: false, failNext: 1, failStatus: 500 });
      expect((await upload('doc_3', content)).statusCode).toBe(500);
      expect((await upload('doc_3', content)).statusCode).toBe(201);
      expect((await documentsState()).uploads).toBe(3);
    });

    it('/_sandbox/documents needs no auth and is never faulted', async () => {
      await setFaults({ down: true });
      const res = await app.inject({ method: 'GET', url: '/_sandbox/documents' });
      expect(res.statusCode).toBe(200);
      expect(res.json().uploads).toBe(2);
    });
  });

  describe('review', () => {
    const statusAfterReview = async (registrationNumber: string, idempotencyKey: string) => {
      const created = await submit(application(registrationNumber), idempotencyKey);
      expect(created.statusCode).toBe(201);
      expect(created.json().status).toBe('processing');
      return created.json().id as string;
    };

    it('stays processing until reviewDelayMs has passed, then shows the outcome', async () => {
      const id = await statusAfterReview('RC-1001', 'idem-1');
      expect((await fetchApplication(id)).json().status).toBe('processing');
      await sleep(AFTER_REVIEW_MS);
      const body = (await fetchApplication(id)).json();
      expect(body).toMatchObject({ id, status: 'verified', requirements: [] });
      expect(Date.parse(body.updated_at) - Date.parse(body.created_at)).toBe(REVIEW_DELAY_MS);
    });

    it('declines registration numbers ending in -DECLINE', async () => {
      const id = await statusAfterReview('RC-2002-DECLINE', 'idem-1');
      await sleep(AFTER_REVIEW_MS);
      expect((await fetchApplication(id)).json()).toMatchObject({ status: 'declined', requirements: [] });
    });

    it('keeps registration numbers ending in -HOLD processing', async () => {
      const id = await statusAfterReview('RC-3003-HOLD', 'idem-1');
      await sleep(AFTER_REVIEW_MS);
      const body = (await fetchApplication(id)).json();
      expect(body).toMatchObject({ status: 'processing', requirements: [] });
      expect(body.updated_at).toBe(body.created_at);
    });

    it('asks for action on the first -ACTION application, and verifies a resubmission', async () => {
      const first = await statusAfterReview('RC-4004-ACTION', 'idem-first');
      await sleep(AFTER_REVIEW_MS);
      const firstBody = (await fetchApplication(first)).json();
      expect(firstBody).toMatchObject({ status: 'action_required', requirements: [ORGANIZATION_CHART_UNREADABLE] });
      expect(firstBody.requirements[0]).toEqual({
        code: 'document_unreadable',
        field: 'company_files.organization_chart',
        message: 'The organization chart could not be read; upload a clearer copy',
      });

      // A retry of the first submission is the same application, still action_required.
      const replay = await submit(application('RC-4004-ACTION'), 'idem-first');
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toMatchObject({ id: first, status: 'action_required' });

      const second = await statusAfterReview('RC-4004-ACTION', 'idem-second');
      expect(second).not.toBe(first);
      await sleep(AFTER_REVIEW_MS);
      expect((await fetchApplication(second)).json()).toMatchObject({ status: 'verified', requirements: [] });
      expect((await fetchApplication(first)).json().status).toBe('action_required');

      const state = await sandboxState();
      expect(state.applications.map((a: { status: string }) => a.status)).toEqual(['action_required', 'verified']);
    });

    it('reports the current status on a replay after review', async () => {
      const id = await statusAfterReview('RC-5005', 'idem-1');
      await sleep(AFTER_REVIEW_MS);
      const replay = await submit(application('RC-5005'), 'idem-1');
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toMatchObject({ id, status: 'verified' });
    });
  });

  describe('faults', () => {
    it('failNext: the next N /v1 requests answer failStatus, then normal service resumes', async () => {
      const set = await setFaults({ failNext: 2 });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toEqual({ latencyMs: 0, failNext: 2, failStatus: 503, down: false, hang: false, answerDelayMs: 0 });

      // /health and /_sandbox are never affected and do not consume failNext.
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      expect((await sandboxState()).submissions).toBe(0);

      const a = await submit(application());
      expect(a.statusCode).toBe(503);
      expect(a.json()).toEqual({ error: 'sandbox_fault' });
      expect((await fetchApplication('pva_x')).statusCode).toBe(503);
      expect((await submit(application())).statusCode).toBe(201);
      expect((await sandboxState()).submissions).toBe(1);
    });

    it('failNext with a custom failStatus, checked before auth', async () => {
      await setFaults({ failNext: 1, failStatus: 500 });
      const res = await fetchApplication('pva_x', {});
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: 'sandbox_fault' });
      expect((await fetchApplication('pva_x', {})).statusCode).toBe(401);
    });

    it('down: every /v1 request answers 503 until cleared', async () => {
      await setFaults({ down: true, failNext: 1 });
      for (let i = 0; i < 3; i++) {
        const res = await submit(application());
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ error: 'sandbox_fault' });
      }
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      // down does not consume failNext
      expect((await app.inject({ method: 'GET', url: '/_sandbox/faults' })).json().failNext).toBe(1);

      const cleared = await app.inject({ method: 'DELETE', url: '/_sandbox/faults' });
      expect(cleared.json()).toEqual({ latencyMs: 0, failNext: 0, failStatus: 503, down: false, hang: false, answerDelayMs: 0 });
      expect((await submit(application())).statusCode).toBe(201);
    });

    it('latencyMs delays /v1 answers but not /health', async () => {
      await setFaults({ latencyMs: 150 });
      let started = Date.now();
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(100);
      started = Date.now();
      expect((await submit(application())).statusCode).toBe(201);
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    });

    it('merges partial updates and refuses invalid faults with 400', async () => {
      await setFaults({ latencyMs: 10 });
      expect((await setFaults({ failNext: 3 })).json()).toMatchObject({ latencyMs: 10, failNext: 3 });
      for (const bad of [{ latencyMs: -1 }, { failNext: 1.5 }, { failStatus: 200 }, { down: 'yes' }, { hang: 1 }, { failnext: 1 }]) {
        const res = await setFaults(bad);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe('invalid_faults');
      }
      expect((await app.inject({ method: 'GET', url: '/_sandbox/faults' })).json()).toMatchObject({ latencyMs: 10, failNext: 3 });
    });

    it('reset clears faults and all stored data', async () => {
      const created = (await submit(application('RC-6006-ACTION'))).json();
      await setFaults({ failNext: 5, latencyMs: 20 });
      // An empty body labelled application/json is fine on control routes.
      const reset = await app.inject({ method: 'POST', url: '/_sandbox/reset', headers: { 'content-type': 'application/json' } });
      expect(reset.statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/_sandbox/faults' })).json()).toEqual({
        latencyMs: 0,
        failNext: 0,
        failStatus: 503,
        down: false,
        hang: false,
        answerDelayMs: 0,
      });
      expect(await sandboxState()).toEqual({ submissions: 0, applications: [] });
      expect(await documentsState()).toEqual({ uploads: 0, documents: [] });
      expect((await fetchApplication(created.id)).statusCode).toBe(404);

      // Uploaded documents are gone: an application can no longer reference them.
      const withoutUploads = await submit(application('RC-6006-ACTION'));
      expect(withoutUploads.statusCode).toBe(422);
      expect(withoutUploads.json().details.map((detail: { field: string }) => detail.field)).toEqual(['documents[0].id', 'documents[1].id']);

      // The idempotency key and the "first -ACTION application" memory are gone too.
      await uploadDefaults();
      const again = await submit(application('RC-6006-ACTION'));
      expect(again.statusCode).toBe(201);
      expect(again.json().id).not.toBe(created.id);
      await sleep(AFTER_REVIEW_MS);
      expect((await fetchApplication(again.json().id)).json().status).toBe('action_required');
    });
  });

  describe('streamed uploads over a real socket', () => {
    const CHUNK_BYTES = 64 * 1024;
    let base: string;

    beforeEach(async () => {
      await app.listen({ host: '127.0.0.1', port: 0 });
      base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    });

    /** `count` distinct 64 KiB chunks, produced one at a time: the body is never whole anywhere. */
    async function* chunks(count: number): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < count; i++) {
        yield Buffer.alloc(CHUNK_BYTES, i % 251);
        if (i % 16 === 0) await sleep(1);
      }
    }
    const expectedDigest = (count: number) => {
      const hash = createHash('sha256');
      for (let i = 0; i < count; i++) hash.update(Buffer.alloc(CHUNK_BYTES, i % 251));
      return hash.digest('hex');
    };
    // `duplex: 'half'` is what Node's fetch requires for a streamed (chunked) request body.
    const streamUpload = (id: string, count: number, sha256: string) =>
      fetch(`${base}/v1/documents/${id}`, {
        method: 'PUT',
        headers: { ...AUTH, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256 },
        body: chunks(count),
        duplex: 'half',
      });

    it('hashes and counts an 8 MiB body sent in 128 chunks, which an application can then reference', async () => {
      const count = (8 * 1024 * 1024) / CHUNK_BYTES;
      const sha256 = expectedDigest(count);
      const res = await streamUpload('doc_streamed', count, sha256);
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ id: 'doc_streamed', sha256, size: 8 * 1024 * 1024 });

      const replay = await streamUpload('doc_streamed', count, sha256);
      expect(replay.status).toBe(200);
      expect(await replay.json()).toEqual({ id: 'doc_streamed', sha256, size: 8 * 1024 * 1024 });

      const created = await fetch(`${base}/v1/business-applications`, {
        method: 'POST',
        headers: { ...AUTH, 'idempotency-key': 'idem-streamed', 'content-type': 'application/json' },
        body: JSON.stringify(application('RC-1001', { documents: [document(Buffer.alloc(0), { id: 'doc_streamed', sha256, size: 8 * 1024 * 1024 })] })),
      });
      expect(created.status).toBe(201);
      await created.json();
    });

    it('refuses a streamed body whose SHA-256 differs from the header with 422', async () => {
      const res = await streamUpload('doc_streamed', 32, sha256Of('not this'));
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ error: 'invalid_document', details: [{ field: 'x-content-sha256' }] });
    });

    it(`answers 413 to a streamed body past ${DOCUMENT_BODY_LIMIT_BYTES} bytes, and keeps nothing`, async () => {
      const count = DOCUMENT_BODY_LIMIT_BYTES / CHUNK_BYTES + 64;
      const res = await streamUpload('doc_too_big', count, expectedDigest(count));
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ error: 'payload_too_large' });
      const state = (await (await fetch(`${base}/_sandbox/documents`)).json()) as { uploads: number; documents: { id: string }[] };
      expect(state.uploads).toBe(2);
      expect(state.documents.map((d) => d.id)).toEqual(['doc_1', 'doc_2']);
    });
  });

  it('over a real socket: hang never answers until the client gives up, latencyMs delays, close() leaks nothing', async () => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    const control = (method: string, path: string, body?: unknown) =>
      fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const post = (signal: AbortSignal) =>
      fetch(`${base}/v1/business-applications`, {
        method: 'POST',
        headers: { ...AUTH, 'idempotency-key': 'idem-socket', 'content-type': 'application/json' },
        body: JSON.stringify(application()),
        signal,
      });

    // hang: the client's own timeout is what ends the request.
    expect((await control('POST', '/_sandbox/faults', { hang: true })).status).toBe(200);
    let started = Date.now();
    await expect(post(AbortSignal.timeout(300))).rejects.toMatchObject({ name: 'TimeoutError' });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(280);
    expect(waited).toBeLessThan(2000);
    expect((await control('GET', '/health')).status).toBe(200);
    expect(((await (await control('GET', '/_sandbox/applications')).json()) as { submissions: number }).submissions).toBe(0);

    // latency: answered, but only after the delay.
    await control('POST', '/_sandbox/faults', { hang: false, latencyMs: 250 });
    started = Date.now();
    const delayed = await post(AbortSignal.timeout(5000));
    expect(delayed.status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    await delayed.json();

    // A request still hung when the server closes is cut off, and close() does not wait for it.
    await control('POST', '/_sandbox/faults', { latencyMs: 0, hang: true });
    const stuck = post(AbortSignal.timeout(10_000));
    const stuckOutcome = stuck.then(
      () => 'answered',
      (err: Error) => err.name,
    );
    await sleep(100);
    started = Date.now();
    await app.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await stuckOutcome).toBe('TypeError'); // fetch failed: socket closed by the server
  });
});
