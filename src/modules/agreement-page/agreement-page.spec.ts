import type { ArgumentsHost } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { TERMS, TERMS_TITLE, TERMS_VERSION } from '../agreements';
import { csrfCookie, csrfFieldMatches, csrfFieldValue, newCsrfCookieValue } from './agreement-page.csrf';
import { AgreementPageExceptionFilter } from './agreement-page.filter';
import { escapeHtml, html, isolated } from '../../common/html/html';
import { renderAgreementPage, renderConfirmationPage, renderMessagePage } from './agreement-page.html';

describe('agreement page HTML', () => {
  it('renders the agreement page with the name escaped, the hidden fields and no script', () => {
    const page = renderAgreementPage({
      businessName: '<img src=x onerror=alert(1)>',
      termsTitle: TERMS_TITLE,
      termsVersion: TERMS_VERSION,
      terms: TERMS,
      csrfToken: 'tok"en',
      expiresAt: new Date('2026-11-29T10:00:00Z'),
    });
    expect(page).not.toContain('<img');
    expect(page).toContain('<h1><bdi>&lt;img src=x onerror=alert(1)&gt;</bdi></h1>');
    expect(page).toContain('<input type="hidden" name="csrf_token" value="tok&quot;en">');
    expect(page).toContain(`<input type="hidden" name="terms_version" value="${TERMS_VERSION}">`);
    expect(page).toContain('29 November 2026 at 10:00 UTC');
    expect(page).not.toMatch(/<script/i);
    for (const section of TERMS) expect(page).toContain(escapeHtml(section.heading));
  });

  it('isolates the business name everywhere it appears, so bidirectional controls in it cannot reorder the page', () => {
    const name = 'Acme\u202Efdp.exe';
    const page = renderAgreementPage({
      businessName: name,
      termsTitle: TERMS_TITLE,
      termsVersion: TERMS_VERSION,
      terms: TERMS,
      csrfToken: 't',
      expiresAt: new Date(),
    });
    expect(page).toContain(`<title>${TERMS_TITLE} – \u2068${name}\u2069</title>`);
    expect(page).toContain(`<h1><bdi>${name}</bdi></h1>`);
    expect(page).toContain(`on behalf of <bdi>${name}</bdi>.`);
    expect(page.split(name)).toHaveLength(4);
    const confirmation = renderConfirmationPage({ businessName: name, termsVersion: TERMS_VERSION, acceptedAt: new Date() });
    expect(confirmation).toContain(`<title>Agreement accepted – \u2068${name}\u2069</title>`);
    expect(confirmation).toContain(`Thank you. <bdi>${name}</bdi> accepted`);
    expect(renderMessagePage({ title: 'T', message: html`The link for ${isolated('<b>')} has expired.` })).toContain(
      'The link for <bdi>&lt;b&gt;</bdi> has expired.',
    );
  });

  it('renders a reload link only when asked', () => {
    expect(renderMessagePage({ title: 'T', message: 'M' })).not.toContain('<a ');
    expect(renderMessagePage({ title: 'T', message: 'M', reloadLabel: 'Reload' })).toContain('<a href="">Reload</a>');
  });
});

describe('agreement CSRF', () => {
  const secret = 'x'.repeat(32);
  const token = 'T'.repeat(43);

  it('pairs the field with the cookie and the link token', () => {
    const cookie = newCsrfCookieValue();
    const field = csrfFieldValue(secret, cookie, token);
    expect(csrfFieldMatches(secret, cookie, token, field)).toBe(true);
    expect(csrfFieldMatches(secret, newCsrfCookieValue(), token, field)).toBe(false);
    expect(csrfFieldMatches(secret, cookie, 'U'.repeat(43), field)).toBe(false);
    expect(csrfFieldMatches('y'.repeat(32), cookie, token, field)).toBe(false);
    expect(csrfFieldMatches(secret, undefined, token, field)).toBe(false);
    expect(csrfFieldMatches(secret, 'short', token, csrfFieldValue(secret, 'short', token))).toBe(false);
    expect(csrfFieldMatches(secret, cookie, token, [field])).toBe(false);
    expect(csrfFieldMatches(secret, cookie, token, `${field}x`)).toBe(false);
  });

  it('sets a strict, script-proof cookie, Secure behind https', () => {
    expect(csrfCookie('v', false)).toEqual({
      name: 'agreement_csrf',
      value: 'v',
      options: { path: '/agreements', httpOnly: true, sameSite: 'strict', secure: false },
    });
    expect(csrfCookie('v', true).options?.secure).toBe(true);
  });
});

describe('AgreementPageExceptionFilter', () => {
  const run = (exception: unknown) => {
    const sent: { status?: number; headers: Record<string, string>; body?: string } = { headers: {} };
    const reply = {
      status: (s: number) => ((sent.status = s), reply),
      headers: (h: Record<string, string>) => (Object.assign(sent.headers, h), reply),
      header: (k: string, v: string) => ((sent.headers[k] = v), reply),
      send: (b: string) => ((sent.body = b), reply),
    };
    const host = { switchToHttp: () => ({ getRequest: () => ({ id: 'req_1' }), getResponse: () => reply }) } as unknown as ArgumentsHost;
    const filter = new AgreementPageExceptionFilter();
    (filter as unknown as { logger: { error: () => void } }).logger = { error: () => undefined };
    filter.catch(exception, host);
    return sent;
  };

  it('answers failures as HTML pages with the API status, never leaking internals', () => {
    const crash = run(new Error('SELECT secret FROM somewhere'));
    expect(crash.status).toBe(500);
    expect(crash.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(crash.body).toContain('Something went wrong');
    expect(crash.body).toContain('req_1');
    expect(crash.body).not.toContain('SELECT');

    const down = run(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    expect(down.status).toBe(503);
    expect(down.headers['Retry-After']).toBe('1');

    const known = run(new AppError('payload_too_large', 'Request body is too large'));
    expect(known.status).toBe(413);
    expect(known.body).toContain('Request body is too large');
  });
});
