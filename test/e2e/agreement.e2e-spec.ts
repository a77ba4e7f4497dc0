import type { Client } from 'pg';
import { csrfFieldValue } from '../../src/modules/agreement-page/agreement-page.csrf';
import { TERMS_VERSION } from '../../src/modules/agreements/agreement.terms';
import { agreementPage, Page } from '../support/agreement-page';
import { startAppAtPublicUrl } from '../support/browser';
import { expectEnvelope, expectErrorBody, expectPoboBusiness } from '../support/contract';
import { createBusiness, http, TestApp } from '../support/test-app';
import { startStack, Stack } from '../support/stack';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const UA = 'Mozilla/5.0 (Linux; Android 14) AgreementE2E/1.0';

/** Agreement page over plain HTTP, as a browser without JavaScript would use it. */
describe('Agreement page and fresh links', () => {
  let stack: Stack;
  let t: TestApp;
  let pg: Client;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    stack = await startStack({ name: 'agreement', startApp: startAppAtPublicUrl, merchants: ['Merchant A', 'Merchant B'] });
    ({ t, pg } = stack);
    [keyA, keyB] = stack.merchants.map((merchant) => merchant.apiKey);
  });

  afterAll(async () => {
    await stack?.close();
  });

  const createNamedBusiness = (businessName = 'Acme Trading Ltd', apiKey = keyA) => createBusiness(t, apiKey, { businessName });

  const getPage = (url: string, cookie?: string) => agreementPage(t.baseUrl, UA).get(url, cookie);
  const postPage = (url: string, form: Record<string, string | undefined>, options?: { cookie?: string; headers?: Record<string, string> }) =>
    agreementPage(t.baseUrl, UA).post(url, form, options);
  const openAndAccept = (url: string) => agreementPage(t.baseUrl, UA).accept(url);

  const snapshot = async (businessId: string) => {
    // One client runs one query at a time.
    const business = await pg.query('SELECT agreement_status, kyb_status, agreement_accepted_at, updated_at FROM pobo_businesses WHERE id = $1', [businessId]);
    const links = await pg.query('SELECT used_at, voided_at FROM agreement_links WHERE business_id = $1 ORDER BY created_at, id', [businessId]);
    const acceptances = await pg.query('SELECT count(*)::int AS n FROM agreement_acceptances WHERE business_id = $1', [businessId]);
    const history = await pg.query('SELECT count(*)::int AS n FROM business_status_history WHERE business_id = $1', [businessId]);
    return { business: business.rows[0], links: links.rows, acceptances: acceptances.rows[0].n, history: history.rows[0].n };
  };

  const apiBusiness = async (businessId: string, apiKey = keyA) =>
    (await http(t.baseUrl, 'GET', `/api/merchant/pobo/users/${businessId}`, { apiKey })).body.response;

  const expectPageHeaders = (page: Page) => {
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CSP);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]+$/);
    expect(page.html).toMatch(/^<!doctype html>/);
    expect(page.html).not.toMatch(/<script/i);
  };

  describe('the page', () => {
    it('shows the business name, terms version, terms and the form with its hidden fields, with security headers', async () => {
      const business = await createNamedBusiness('Adaeze Textiles Ltd');
      const page = await getPage(business.agreement.url);
      expect(page.status).toBe(200);
      expectPageHeaders(page);
      expect(page.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(page.html).toContain('<h1><bdi>Adaeze Textiles Ltd</bdi></h1>');
      expect(page.html).toContain(`Terms version ${TERMS_VERSION}`);
      expect(page.html).toContain('<form method="post">');
      expect(page.html).toContain('<button type="submit">Accept</button>');
      expect(page.termsVersion).toBe(TERMS_VERSION);
      expect(page.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const setCookie = page.headers.getSetCookie();
      expect(setCookie).toHaveLength(1);
      expect(setCookie[0]).toMatch(/^agreement_csrf=[A-Za-z0-9_-]{43}; Path=\/agreements; HttpOnly; SameSite=Strict$/);

      // A second visit with the cookie keeps it (another open tab stays valid).
      const again = await getPage(business.agreement.url, page.cookie);
      expect(again.headers.getSetCookie()).toEqual([]);
      expect(again.csrf).toBe(page.csrf);
    });

    it('answers an unknown or malformed token with a 404 page', async () => {
      for (const token of ['A'.repeat(43), 'short', '%3Cscript%3E']) {
        const page = await getPage(`${t.baseUrl}/agreements/${token}`);
        expect(page.status).toBe(404);
        expectPageHeaders(page);
        expect(page.html).toContain('Link not found');
      }
      // A well-formed POST (cookie and field paired for that token) to an unknown link: 404 too.
      const cookie = `agreement_csrf=${'C'.repeat(43)}`;
      const csrf = csrfFieldValue(t.config.linkSigningSecret, 'C'.repeat(43), 'A'.repeat(43));
      const post = await postPage(`${t.baseUrl}/agreements/${'A'.repeat(43)}`, { csrf_token: csrf, terms_version: TERMS_VERSION }, { cookie });
      expect(post.status).toBe(404);
      expect(post.html).toContain('Link not found');
    });

    it('escapes HTML in the business name everywhere on the page', async () => {
      const business = await createNamedBusiness('<script>alert(1)</script> "><img src=x onerror=alert(2)> & Co');
      const page = await getPage(business.agreement.url);
      expect(page.status).toBe(200);
      expect(page.html).not.toContain('<script>alert(1)</script>');
      expect(page.html).not.toContain('<img');
      expect(page.html).toContain('<h1><bdi>&lt;script&gt;alert(1)&lt;/script&gt; &quot;&gt;&lt;img src=x onerror=alert(2)&gt; &amp; Co</bdi></h1>');
      expect(page.html).toContain('<title>Pay-on-behalf-of services agreement – \u2068&lt;script&gt;');

      const accepted = await postPage(business.agreement.url, { csrf_token: page.csrf, terms_version: page.termsVersion }, { cookie: page.cookie });
      expect(accepted.status).toBe(200);
      expect(accepted.html).not.toContain('<script>alert(1)</script>');
      expect(accepted.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    });

    it('isolates the business name, so a right-to-left override stored before names were checked cannot reorder the page', async () => {
      const business = await createNamedBusiness('Acme Trading Ltd');
      // The API refuses such names now (pobo-businesses suite); older rows may still hold one.
      const name = 'Acme\u202Efdp.exe';
      await pg.query('UPDATE pobo_businesses SET business_name = $1 WHERE id = $2', [name, business.poboUserId]);
      const page = await getPage(business.agreement.url);
      expect(page.status).toBe(200);
      expect(page.html).toContain(`<h1><bdi>${name}</bdi></h1>`);
      expect(page.html).toContain(`on behalf of <bdi>${name}</bdi>.`);
      expect(page.html).toContain(`– \u2068${name}\u2069</title>`);
      // Every occurrence is inside an isolate.
      expect(page.html.split(name).length - 1).toBe(page.html.split(`<bdi>${name}</bdi>`).length - 1 + page.html.split(`\u2068${name}\u2069`).length - 1);
    });
  });

  it('never writes the link token to the logs', async () => {
    const business = await createNamedBusiness('Quiet Logs Ltd');
    const token = new URL(business.agreement.url).pathname.split('/').pop()!;
    const mark = t.logs.length;
    const page = await getPage(business.agreement.url);
    const accepted = await postPage(
      business.agreement.url,
      { csrf_token: page.csrf, terms_version: page.termsVersion },
      {
        cookie: page.cookie,
        headers: { referer: business.agreement.url },
      },
    );
    expect(accepted.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = t.logs.slice(mark).join('\n');
    expect(lines).toContain('/agreements/[Redacted]');
    expect(lines).not.toContain(token);
  });

  describe('cross-site posting protection', () => {
    it.each([
      ['no cookie', { cookie: false }],
      ['a cookie the page did not pair with the field', { cookie: 'agreement_csrf=' + 'B'.repeat(43) }],
      ['a wrong csrf_token', { csrf: 'A'.repeat(43) }],
      ['no csrf_token', { csrf: null }],
      ['a foreign Origin', { headers: { origin: 'https://evil.example' } }],
      ['Origin: null', { headers: { origin: 'null' } }],
      ['a cross-site fetch', { headers: { 'sec-fetch-site': 'cross-site' } }],
    ] as const)('refuses a POST with %s with a 403 page and changes nothing', async (_name, variant: any) => {
      const business = await createNamedBusiness();
      const page = await getPage(business.agreement.url);
      const before = await snapshot(business.poboUserId);
      const cookie = variant.cookie === false ? undefined : (variant.cookie ?? page.cookie);
      const csrf = variant.csrf === null ? undefined : (variant.csrf ?? page.csrf);
      const result = await postPage(business.agreement.url, { csrf_token: csrf, terms_version: TERMS_VERSION }, { cookie, headers: variant.headers });
      expect(result.status).toBe(403);
      expectPageHeaders(result);
      expect(result.html).toContain('We could not verify this request');
      expect(await snapshot(business.poboUserId)).toEqual(before);
      expect(before.links[0].used_at).toBeNull();

      // The genuine form still works afterwards.
      const ok = await postPage(business.agreement.url, { csrf_token: page.csrf, terms_version: TERMS_VERSION }, { cookie: page.cookie });
      expect(ok.status).toBe(200);
    });

    it("refuses a form field taken from another link's page", async () => {
      const mine = await createNamedBusiness();
      const other = await createNamedBusiness();
      const myPage = await getPage(mine.agreement.url);
      const otherPage = await getPage(other.agreement.url, myPage.cookie);
      expect(otherPage.csrf).not.toBe(myPage.csrf);
      const result = await postPage(mine.agreement.url, { csrf_token: otherPage.csrf, terms_version: TERMS_VERSION }, { cookie: myPage.cookie });
      expect(result.status).toBe(403);
    });

    it('accepts a browser POST without Origin or Sec-Fetch-Site (older browsers)', async () => {
      const business = await createNamedBusiness();
      const page = await getPage(business.agreement.url);
      const body = new URLSearchParams({ csrf_token: page.csrf!, terms_version: TERMS_VERSION }).toString();
      const response = await fetch(business.agreement.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie! },
        body,
      });
      expect(response.status).toBe(200);
    });
  });

  describe('acceptance', () => {
    it('records the acceptance once: statuses, history, evidence; the link is then used (410)', async () => {
      const business = await createNamedBusiness('Kano Agro Exports');
      const page = await getPage(business.agreement.url);
      const longUa = `${UA} ${'x'.repeat(1000)}`;
      const result = await postPage(
        business.agreement.url,
        { csrf_token: page.csrf, terms_version: page.termsVersion },
        { cookie: page.cookie, headers: { 'user-agent': longUa } },
      );
      expect(result.status).toBe(200);
      expectPageHeaders(result);
      expect(result.html).toContain('<h1>Agreement accepted</h1>');
      expect(result.html).toContain('<bdi>Kano Agro Exports</bdi> accepted the terms');

      const after = await apiBusiness(business.poboUserId);
      expect(after).toMatchObject({ agreement: { status: 'accepted' }, kyb: { status: 'not_started' } });
      expect(Object.keys(after.agreement)).toEqual(['status']);

      const { rows: evidence } = await pg.query(
        `SELECT a.ip_address, a.user_agent, a.terms_version, a.accepted_at, a.link_id, b.agreement_accepted_at, l.used_at, l.id AS lid
         FROM agreement_acceptances a JOIN pobo_businesses b ON b.id = a.business_id JOIN agreement_links l ON l.business_id = b.id
         WHERE a.business_id = $1`,
        [business.poboUserId],
      );
      expect(evidence).toHaveLength(1);
      expect(evidence[0]).toMatchObject({ ip_address: '127.0.0.1', terms_version: TERMS_VERSION, link_id: evidence[0].lid });
      expect(evidence[0].user_agent).toBe(longUa.slice(0, 512));
      expect(evidence[0].accepted_at).toEqual(evidence[0].agreement_accepted_at);
      expect(evidence[0].used_at).toEqual(evidence[0].accepted_at);
      expect(Math.abs(evidence[0].accepted_at.getTime() - Date.now())).toBeLessThan(60_000);

      const { rows: history } = await pg.query('SELECT field, from_status, to_status, cause FROM business_status_history WHERE business_id = $1 ORDER BY id', [
        business.poboUserId,
      ]);
      expect(history).toEqual([
        { field: 'agreement', from_status: 'pending', to_status: 'accepted', cause: 'agreement_accepted' },
        { field: 'kyb', from_status: 'agreement_pending', to_status: 'not_started', cause: 'agreement_accepted' },
      ]);

      const second = await postPage(business.agreement.url, { csrf_token: page.csrf, terms_version: TERMS_VERSION }, { cookie: page.cookie });
      expect(second.status).toBe(410);
      expectPageHeaders(second);
      expect(second.html).toContain('This link has already been used');
      const reopened = await getPage(business.agreement.url, page.cookie);
      expect(reopened.status).toBe(410);
      expect(reopened.html).toContain('This link has already been used');
      expect(reopened.csrf).toBeUndefined();
      expect((await snapshot(business.poboUserId)).acceptances).toBe(1);
    });

    it('refuses a form loaded with older terms with a 409 page asking to reload, and changes nothing', async () => {
      const business = await createNamedBusiness();
      const page = await getPage(business.agreement.url);
      const before = await snapshot(business.poboUserId);
      for (const version of ['2020-01-01', undefined]) {
        const result = await postPage(business.agreement.url, { csrf_token: page.csrf, terms_version: version }, { cookie: page.cookie });
        expect(result.status).toBe(409);
        expectPageHeaders(result);
        expect(result.html).toContain('The terms have changed');
        expect(result.html).toContain('<a href="">Reload the current terms</a>');
      }
      expect(await snapshot(business.poboUserId)).toEqual(before);
      expect((await openAndAccept(business.agreement.url)).status).toBe(200);
    });

    it('answers an expired link with a 410 page, on GET and on POST', async () => {
      const business = await createNamedBusiness('Lagos Fresh Ltd');
      const page = await getPage(business.agreement.url);
      await pg.query("UPDATE agreement_links SET expires_at = now() - interval '1 minute' WHERE business_id = $1", [business.poboUserId]);
      const before = await snapshot(business.poboUserId);

      const view = await getPage(business.agreement.url);
      expect(view.status).toBe(410);
      expectPageHeaders(view);
      expect(view.html).toContain('This link has expired');
      expect(view.html).toContain('Lagos Fresh Ltd');
      const post = await postPage(business.agreement.url, { csrf_token: page.csrf, terms_version: TERMS_VERSION }, { cookie: page.cookie });
      expect(post.status).toBe(410);
      expect(post.html).toContain('This link has expired');
      expect(await snapshot(business.poboUserId)).toEqual(before);
      expect((await apiBusiness(business.poboUserId)).agreement.status).toBe('pending');
    });

    it('lets exactly one of 10 concurrent acceptances through; the others see the link used', async () => {
      const business = await createNamedBusiness();
      const page = await getPage(business.agreement.url);
      const results = await Promise.all(
        Array.from({ length: 10 }, () => postPage(business.agreement.url, { csrf_token: page.csrf, terms_version: TERMS_VERSION }, { cookie: page.cookie })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, ...Array(9).fill(410)]);
      for (const r of results.filter((x) => x.status === 410)) expect(r.html).toContain('This link has already been used');
      const after = await snapshot(business.poboUserId);
      expect(after).toMatchObject({ acceptances: 1, history: 2, business: { agreement_status: 'accepted', kyb_status: 'not_started' } });
    });
  });

  describe('POST /api/merchant/pobo/users/{poboUserId}/agreement-link', () => {
    const reissue = (businessId: string, apiKey = keyA) => http(t.baseUrl, 'POST', `/api/merchant/pobo/users/${businessId}/agreement-link`, { apiKey });

    it('issues a fresh link (201, success envelope) and voids every earlier unused link', async () => {
      const business = await createNamedBusiness('Port Harcourt Marine');
      const oldPage = await getPage(business.agreement.url);
      const first = await reissue(business.poboUserId);
      const second = await reissue(business.poboUserId);
      for (const result of [first, second]) {
        expect(result.status).toBe(201);
        expectEnvelope(result.body, 'object');
        expectPoboBusiness(result.body.response, { withAgreementUrl: true });
        expect(result.body.response).toMatchObject({ poboUserId: business.poboUserId, agreement: { status: 'pending' }, kyb: { status: 'agreement_pending' } });
      }
      const urls = [business.agreement.url, first.body.response.agreement.url, second.body.response.agreement.url];
      expect(new Set(urls).size).toBe(3);
      for (const url of urls) expect(url.startsWith(`${t.baseUrl}/agreements/`)).toBe(true);

      const { links } = await snapshot(business.poboUserId);
      expect(links.map((l) => l.voided_at !== null)).toEqual([true, true, false]);

      for (const url of urls.slice(0, 2)) {
        const view = await getPage(url);
        expect(view.status).toBe(410);
        expect(view.html).toContain('This link has been replaced');
      }
      const oldPost = await postPage(business.agreement.url, { csrf_token: oldPage.csrf, terms_version: TERMS_VERSION }, { cookie: oldPage.cookie });
      expect(oldPost.status).toBe(410);
      expect(oldPost.html).toContain('replaced by a newer link');

      expect((await openAndAccept(urls[2])).status).toBe(200);
      expect(await apiBusiness(business.poboUserId)).toMatchObject({ agreement: { status: 'accepted' }, kyb: { status: 'not_started' } });
    });

    it('answers 409 agreement_already_accepted once accepted, issuing nothing', async () => {
      const business = await createNamedBusiness();
      expect((await openAndAccept(business.agreement.url)).status).toBe(200);
      const before = await snapshot(business.poboUserId);
      expectErrorBody(await reissue(business.poboUserId), 409, 'agreement_already_accepted');
      expect(await snapshot(business.poboUserId)).toEqual(before);
    });

    it("answers another merchant's business, an unknown and a malformed id with the same 404", async () => {
      const business = await createNamedBusiness();
      const foreign = await reissue(business.poboUserId, keyB);
      const unknown = await reissue('pobo_000000000000000000000000', keyB);
      const garbage = await reissue('nope', keyB);
      for (const result of [foreign, unknown, garbage]) expectErrorBody(result, 404, 'resource_not_found');
      expect(foreign.text.replace(foreign.body.requestId, '')).toBe(unknown.text.replace(unknown.body.requestId, ''));
      const { links } = await snapshot(business.poboUserId);
      expect(links).toHaveLength(1);
      expect(links[0].voided_at).toBeNull();
    });

    it('requires the API key', async () => {
      const business = await createNamedBusiness();
      expectErrorBody(await reissue(business.poboUserId, ''), 401, 'unauthorized');
    });

    it('never deadlocks with a concurrent acceptance: one of them wins cleanly', async () => {
      for (let round = 0; round < 5; round++) {
        const business = await createNamedBusiness();
        const page = await getPage(business.agreement.url);
        const [accepted, reissued] = await Promise.all([
          postPage(business.agreement.url, { csrf_token: page.csrf, terms_version: TERMS_VERSION }, { cookie: page.cookie }),
          reissue(business.poboUserId),
        ]);
        const outcome = `${accepted.status}/${reissued.status}`;
        expect(['200/409', '410/201']).toContain(outcome);
        if (outcome === '410/201') expect(accepted.html).toContain('replaced by a newer link');
      }
    });

    it('is in OpenAPI; the HTML page is not', async () => {
      const document = (await http(t.baseUrl, 'GET', '/openapi.json')).body;
      const operation = document.paths['/api/merchant/pobo/users/{poboUserId}/agreement-link']?.post;
      expect(operation).toBeDefined();
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['201', '404', '409']));
      expect(Object.keys(document.paths).filter((p) => p.startsWith('/agreements'))).toEqual([]);
    });
  });
});
