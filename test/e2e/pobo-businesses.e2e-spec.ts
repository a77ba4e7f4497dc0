import { createHmac } from 'node:crypto';
import type { Client } from 'pg';
import { expectEnvelope, expectErrorBody, expectPoboBusiness } from '../support/contract';
import { http, TestApp } from '../support/test-app';
import { startStack, Stack } from '../support/stack';

const validBody = (overrides: Record<string, unknown> = {}) => ({
  businessName: 'Acme Trading Ltd',
  email: 'finance@acme.example',
  phoneNumber: '+2348012345678',
  country: 'NG',
  ...overrides,
});

describe('POBO businesses (endpoints 1–3)', () => {
  let stack: Stack;
  let t: TestApp;
  let pg: Client;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    stack = await startStack({ name: 'pobo-businesses', merchants: ['Merchant A', 'Merchant B'] });
    ({ t, pg } = stack);
    [keyA, keyB] = stack.merchants.map((merchant) => merchant.apiKey);
  });

  afterAll(async () => {
    await stack?.close();
  });

  const count = async () => Number((await pg.query('SELECT count(*) FROM pobo_businesses')).rows[0].count);
  const create = (apiKey: string, body: unknown = validBody()) => http(t.baseUrl, 'POST', '/api/merchant/pobo/users', { apiKey, body });

  describe('create', () => {
    it('answers 201 with the documented shape, initial states, wallets and an agreement link', async () => {
      const result = await create(keyA, validBody({ country: 'ng', allowNairaCollection: true }));
      expect(result.status).toBe(201);
      expectEnvelope(result.body, 'object');
      const business = result.body.response;
      expectPoboBusiness(business, { withAgreementUrl: true });
      expect(business).toMatchObject({
        businessName: 'Acme Trading Ltd',
        country: 'NG',
        allowNairaCollection: true,
        nairaCollectionStatus: 'not_requested',
        agreement: { status: 'pending' },
        kyb: { status: 'agreement_pending', pendingRequirements: [], lastSyncedAt: null },
      });
      expect(business.poboUserId).toMatch(/^pobo_[0-9a-f]{24}$/);
      expect(business.createdAt).toBe(business.updatedAt);
    });

    it('defaults allowNairaCollection to false', async () => {
      const result = await create(keyA);
      expect(result.body.response.allowNairaCollection).toBe(false);
    });

    it('issues an unguessable, expiring link under PUBLIC_BASE_URL whose token is stored only as a keyed hash', async () => {
      const { body } = await create(keyA);
      const url = new URL(body.response.agreement.url);
      expect(`${url.protocol}//${url.host}`).toBe(t.config.publicBaseUrl);
      const token = url.pathname.split('/').pop()!;
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      const { rows } = await pg.query('SELECT token_hash, expires_at, created_at FROM agreement_links WHERE business_id = $1', [body.response.poboUserId]);
      expect(rows).toHaveLength(1);
      expect(rows[0].token_hash).toBe(createHmac('sha256', t.config.linkSigningSecret).update(token).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(token);
      const ttl = (rows[0].expires_at.getTime() - rows[0].created_at.getTime()) / 1000;
      expect(Math.abs(ttl - t.config.agreementLinkTtlSeconds)).toBeLessThan(5);
    });

    it('gives every business its own EVM and SVM address, also under concurrent creates', async () => {
      const results = await Promise.all(Array.from({ length: 24 }, () => create(keyA)));
      expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
      const evm = new Set(results.map((r) => r.body.response.wallets.evm.address));
      const svm = new Set(results.map((r) => r.body.response.wallets.svm.address));
      expect(evm.size).toBe(24);
      expect(svm.size).toBe(24);
      const { rows } = await pg.query('SELECT count(DISTINCT wallet_index) AS d, count(*) AS n FROM pobo_businesses');
      expect(rows[0].d).toBe(rows[0].n);
    });

    it.each([
      ['missing businessName', { businessName: undefined }, 'businessName'],
      ['empty businessName', { businessName: '   ' }, 'businessName'],
      ['bad email', { email: 'not-an-email' }, 'email'],
      ['phone not E.164', { phoneNumber: '08012345678' }, 'phoneNumber'],
      ['country not ISO alpha-2', { country: 'Nigeria' }, 'country'],
      ['allowNairaCollection not boolean', { allowNairaCollection: 'yes' }, 'allowNairaCollection'],
      ['unknown field', { nickname: 'x' }, 'nickname'],
      ['state field (mass assignment)', { kybStatus: 'verified' }, 'kybStatus'],
      ['nested state field', { agreement: { status: 'accepted' } }, 'agreement'],
    ])('refuses %s with 400 and creates nothing', async (_name, overrides, field) => {
      const before = await count();
      const result = await create(keyA, validBody(overrides));
      expectErrorBody(result, 400, 'validation_failed');
      expect(result.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect(await count()).toBe(before);
    });

    it.each(['businessName', 'email', 'phoneNumber', 'country'])(
      'refuses a body without the required %s with 400 naming it, and creates nothing',
      async (field) => {
        const before = await count();
        const result = await create(keyA, validBody({ [field]: undefined }));
        expectErrorBody(result, 400, 'validation_failed');
        expect(result.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
        expect(await count()).toBe(before);
      },
    );

    it.each([
      ['malformed JSON', '{"businessName":', 'invalid_json'],
      ['empty JSON body', '', 'invalid_json'],
      ['a JSON array', '[]', 'validation_failed'],
      ['a JSON string', '"hello"', 'validation_failed'],
    ])('refuses %s with 400 and creates nothing', async (_name, raw, code) => {
      const before = await count();
      const result = await http(t.baseUrl, 'POST', '/api/merchant/pobo/users', {
        apiKey: keyA,
        body: raw,
        headers: { 'content-type': 'application/json' },
      });
      expectErrorBody(result, 400, code);
      expect(await count()).toBe(before);
    });

    it.each([
      ['a NUL character in a string', validBody({ businessName: 'Acme\u0000 Ltd' }), 'businessName', /NUL/],
      ['a NUL character in a field name', { ...validBody(), 'x\u0000': 1 }, 'x\u0000', /NUL/],
      ['a lone surrogate in the email', validBody({ email: '\ud800@b.example' }), 'email', /unpaired surrogates/],
      ['a lone low surrogate in the name', validBody({ businessName: 'Acme \udc00' }), 'businessName', /unpaired surrogates/],
      ['a name of zero-width characters only', validBody({ businessName: '\u200b\u200c\u2060\ufeff' }), 'businessName', /visible character/],
      ['a name of combining marks and a Hangul filler only', validBody({ businessName: '\u0301\u3164' }), 'businessName', /visible character/],
      ['a right-to-left override in the name', validBody({ businessName: 'Acme\u202Efdp.exe' }), 'businessName', /bidirectional/],
      ['a first-strong isolate in the name', validBody({ businessName: '\u2068Acme\u2069' }), 'businessName', /bidirectional/],
    ])('refuses %s with 400 naming the field, and creates nothing', async (_name, body, field, message) => {
      const before = await count();
      const result = await create(keyA, body);
      expectErrorBody(result, 400, 'validation_failed');
      expect(result.body.error.details).toContainEqual({ field, message: expect.stringMatching(message) });
      expect(await count()).toBe(before);
    });

    it('accepts names in any script, with emoji and the direction marks LRM/RLM', async () => {
      for (const businessName of ['شركة أكمي', 'Ọ̀yọ́ Foods', 'Acme 😀 Ltd', 'Acme\u200F Ltd']) {
        expect((await create(keyA, validBody({ businessName }))).body.response.businessName).toBe(businessName);
      }
    });

    it.each([2_000, 100_000])('refuses JSON nested %i levels deep with 400 naming where, and creates nothing', async (levels) => {
      const before = await count();
      const raw = JSON.stringify(validBody({ businessName: '@' })).replace('"@"', `${'['.repeat(levels)}${']'.repeat(levels)}`);
      const result = await create(keyA, raw);
      expectErrorBody(result, 400, 'validation_failed');
      expect(result.body.error.details).toEqual([{ field: `businessName${'[0]'.repeat(31)}`, message: 'is nested more than 32 levels deep' }]);
      expect(await count()).toBe(before);
    });

    it('refuses a prototype-poisoning body', async () => {
      const result = await create(keyA, '{"businessName":"x","__proto__":{"admin":true}}');
      expectErrorBody(result, 400, 'invalid_json');
    });

    it('refuses a body over the size limit with 413', async () => {
      const result = await create(keyA, validBody({ businessName: 'x'.repeat(2 * 1024 * 1024) }));
      expectErrorBody(result, 413, 'payload_too_large');
    });
  });

  describe('get', () => {
    it('returns the business without the agreement URL', async () => {
      const created = (await create(keyA)).body.response;
      const result = await http(t.baseUrl, 'GET', `/api/merchant/pobo/users/${created.poboUserId}`, { apiKey: keyA });
      expect(result.status).toBe(200);
      expectEnvelope(result.body, 'object');
      expectPoboBusiness(result.body.response, { withAgreementUrl: false });
      const { url: _url, ...agreement } = created.agreement;
      expect(result.body.response).toEqual({ ...created, agreement });
    });

    it("answers another merchant's business and an unknown id with the same 404", async () => {
      const created = (await create(keyA)).body.response;
      const foreign = await http(t.baseUrl, 'GET', `/api/merchant/pobo/users/${created.poboUserId}`, { apiKey: keyB });
      const unknown = await http(t.baseUrl, 'GET', '/api/merchant/pobo/users/pobo_000000000000000000000000', { apiKey: keyB });
      const garbage = await http(t.baseUrl, 'GET', "/api/merchant/pobo/users/'%20OR%201=1", { apiKey: keyB });
      for (const result of [foreign, unknown, garbage]) expectErrorBody(result, 404, 'resource_not_found');
      expect(foreign.body.message).toBe(unknown.body.message);
      expect(foreign.text.replace(foreign.body.requestId, '')).toBe(unknown.text.replace(unknown.body.requestId, ''));
    });
  });

  describe('list', () => {
    it("returns only the merchant's own businesses, newest first", async () => {
      const mine = (await create(keyB, validBody({ businessName: 'B first' }))).body.response;
      const mine2 = (await create(keyB, validBody({ businessName: 'B second' }))).body.response;
      const result = await http(t.baseUrl, 'GET', '/api/merchant/pobo/users', { apiKey: keyB });
      expect(result.status).toBe(200);
      expectEnvelope(result.body, 'array');
      expect(result.body.response.map((b: { poboUserId: string }) => b.poboUserId)).toEqual([mine2.poboUserId, mine.poboUserId]);
      for (const business of result.body.response) expectPoboBusiness(business, { withAgreementUrl: false });
      expect(result.headers.get('link')).toBeNull();

      const listA = await http(t.baseUrl, 'GET', '/api/merchant/pobo/users', { apiKey: keyA });
      const idsA = listA.body.response.map((b: { poboUserId: string }) => b.poboUserId);
      expect(idsA).not.toContain(mine.poboUserId);
      expect(idsA.length).toBeGreaterThan(0);
    });

    it('pages with limit and the cursor of the Link header, without gaps or repeats', async () => {
      const { apiKey } = await t.createMerchant('Pager');
      const created: string[] = [];
      for (let i = 0; i < 7; i++) created.push((await create(apiKey)).body.response.poboUserId);
      const seen: string[] = [];
      let path: string | undefined = '/api/merchant/pobo/users?limit=3';
      let pages = 0;
      while (path) {
        const result = await http(t.baseUrl, 'GET', path, { apiKey });
        expect(result.status).toBe(200);
        seen.push(...result.body.response.map((b: { poboUserId: string }) => b.poboUserId));
        const link = result.headers.get('link');
        if (link) {
          const match = /^<([^>]+)>; rel="next"$/.exec(link);
          expect(match).not.toBeNull();
          const next = new URL(match![1]);
          expect(`${next.protocol}//${next.host}`).toBe(t.config.publicBaseUrl);
          path = `${next.pathname}${next.search}`;
        } else {
          path = undefined;
        }
        pages++;
      }
      expect(pages).toBe(3);
      expect(seen).toEqual([...created].reverse());
    });

    it('uses the last business of the page as the cursor, which reveals nothing the merchant does not have', async () => {
      const { apiKey } = await t.createMerchant('Cursor');
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await create(apiKey)).body.response.poboUserId);
      const first = await http(t.baseUrl, 'GET', '/api/merchant/pobo/users?limit=2', { apiKey });
      expect(first.headers.get('link')).toBe(`<${t.config.publicBaseUrl}/api/merchant/pobo/users?limit=2&cursor=${ids[1]}>; rel="next"`);
      const second = await http(t.baseUrl, 'GET', `/api/merchant/pobo/users?limit=2&cursor=${ids[1]}`, { apiKey });
      expect(second.body.response.map((b: { poboUserId: string }) => b.poboUserId)).toEqual([ids[0]]);
      expect(second.headers.get('link')).toBeNull();
      // The cursor of the oldest business is a valid, empty last page.
      const past = await http(t.baseUrl, 'GET', `/api/merchant/pobo/users?cursor=${ids[0]}`, { apiKey });
      expect(past.status).toBe(200);
      expect(past.body.response).toEqual([]);
    });

    it("refuses another merchant's business and an unknown id as the cursor with 400 invalid_cursor", async () => {
      const foreign = (await create(keyB)).body.response.poboUserId;
      for (const cursor of [foreign, 'pobo_000000000000000000000000']) {
        const result = await http(t.baseUrl, 'GET', `/api/merchant/pobo/users?cursor=${cursor}`, { apiKey: keyA });
        expectErrorBody(result, 400, 'invalid_cursor');
        expect(result.body.error.details).toEqual([{ field: 'cursor', message: 'invalid cursor' }]);
      }
    });

    it('caps a page at 100 by default', async () => {
      const { apiKey, merchantId } = await t.createMerchant('Big');
      await pg.query(
        `INSERT INTO pobo_businesses (id, merchant_id, business_name, email, phone_number, country, wallet_index, evm_address, svm_address)
         SELECT 'pobo_' || lpad(to_hex(g), 24, 'f'), $1, 'Seeded ' || g, 's@x.example', '+2348012345678', 'NG',
                nextval('pobo_wallet_index_seq'), 'evm-' || g || '-' || $1, 'svm-' || g || '-' || $1
         FROM generate_series(1, 105) g`,
        [merchantId],
      );
      const result = await http(t.baseUrl, 'GET', '/api/merchant/pobo/users', { apiKey });
      expect(result.body.response).toHaveLength(100);
      expect(result.headers.get('link')).toMatch(/limit=100&cursor=/);
    });

    it.each([
      ['limit=0', 'validation_failed'],
      ['limit=101', 'validation_failed'],
      ['limit=abc', 'validation_failed'],
      ['cursor=not-a-cursor', 'invalid_cursor'],
      // The earlier cursor format (base64 of the insertion order) is not a cursor any more.
      [`cursor=${Buffer.from('s1').toString('base64url')}`, 'invalid_cursor'],
      ['cursor=pobo_%00', 'invalid_cursor'],
      ['cursor=%F0%9F%98%80', 'invalid_cursor'],
      ['cursor=', 'invalid_cursor'],
      ['cursor=a&cursor=b', 'validation_failed'],
      ['limit=%00', 'validation_failed'],
      ['limit=1e400', 'validation_failed'],
      ['unknown=1', 'validation_failed'],
    ])('refuses ?%s with 400', async (query, code) => {
      expectErrorBody(await http(t.baseUrl, 'GET', `/api/merchant/pobo/users?${query}`, { apiKey: keyA }), 400, code);
    });
  });
});
