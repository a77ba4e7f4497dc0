import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, isolated } from '../../common/html/html';
import { PAGE_CSP } from '../../common/html/pages';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { LinkGoneReason, TERMS, TERMS_TITLE, TERMS_VERSION } from '../agreements';
import { PoboBusinessAgreementService } from '../pobo-businesses';
import { CSRF_COOKIE, csrfCookie, CsrfCookie, csrfFieldMatches, csrfFieldValue, isCsrfCookieValue, newCsrfCookieValue } from './agreement-page.csrf';
import { MessageView, renderAgreementPage, renderConfirmationPage, renderMessagePage } from './agreement-page.html';

/** A rendered page and its status; `sendPage` adds the headers every agreement page carries. */
export interface PageResult {
  status: number;
  html: string;
  setCookie?: CsrfCookie;
}

/** What the page needs from the HTTP request. */
export interface PageClient {
  /** The page's CSRF cookie, as `@fastify/cookie` parsed it. */
  csrfCookie?: string;
  origin?: string;
  fetchSite?: string;
  /** `request.ip`: the socket peer, or the client named by trusted proxies when `trustProxy` is set. */
  ip: string;
  userAgent?: string;
}

export function pageClient(request: FastifyRequest): PageClient {
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return {
    csrfCookie: request.server.parseCookie(header('cookie') ?? '')[CSRF_COOKIE],
    origin: header('origin'),
    fetchSite: header('sec-fetch-site'),
    ip: request.ip,
    userAgent: header('user-agent'),
  };
}

/**
 * Headers of every agreement page: no script, no framing, nothing loaded from elsewhere, forms
 * only to this origin, never cached. `same-origin` keeps the token-bearing URL out of every
 * cross-origin Referer while letting the browser send a real `Origin` on the page's own POST
 * (under `no-referrer` browsers send `Origin: null`, which would defeat the Origin check).
 */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': PAGE_CSP,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

export function sendPage(reply: FastifyReply, page: PageResult): void {
  void reply.status(page.status).headers(PAGE_HEADERS);
  if (page.setCookie) void reply.header('Set-Cookie', reply.server.serializeCookie(page.setCookie.name, page.setCookie.value, page.setCookie.options));
  void reply.send(page.html);
}

const GONE: Record<LinkGoneReason, (businessName: string) => MessageView> = {
  expired: (name) => ({
    title: 'This link has expired',
    message: html`The agreement link for ${isolated(name)} has expired. Ask the company that sent it for a new link.`,
  }),
  used: (name) => ({
    title: 'This link has already been used',
    message: html`The agreement for ${isolated(name)} has already been accepted with this link. There is nothing more to do here.`,
  }),
  voided: (name) => ({
    title: 'This link has been replaced',
    message: html`This link has been replaced by a newer link for ${isolated(name)}. Please use the most recent link you received.`,
  }),
};

const NOT_FOUND: MessageView = {
  title: 'Link not found',
  message: 'This agreement link is not valid. Check that you opened the complete link from your message.',
};

const FORBIDDEN: MessageView = {
  title: 'We could not verify this request',
  message:
    'For your security the acceptance was not recorded. Open the agreement page again and select Accept there; ' +
    'your browser must allow cookies for this site.',
  reloadLabel: 'Open the agreement page again',
};

const STALE_TERMS = (name: string): MessageView => ({
  title: 'The terms have changed',
  message: html`The terms were updated after this page was loaded, so the acceptance for ${isolated(name)} was not recorded. Reload the page to review the current terms.`,
  reloadLabel: 'Reload the current terms',
});

/** The HTML side of agreement links: renders the page, checks the form, maps outcomes to statuses. */
@Injectable()
export class AgreementPageService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly agreements: PoboBusinessAgreementService,
  ) {}

  async view(token: string, client: Pick<PageClient, 'csrfCookie'>): Promise<PageResult> {
    const link = await this.agreements.inspect(token);
    if (link.kind === 'not_found') return message(404, NOT_FOUND);
    if (link.kind === 'gone') return message(410, GONE[link.reason](link.businessName));

    // Keep an existing cookie, so a second tab does not invalidate the first one's form.
    const existing = client.csrfCookie;
    const cookieValue = isCsrfCookieValue(existing) ? existing : newCsrfCookieValue();
    return {
      status: 200,
      html: renderAgreementPage({
        businessName: link.businessName,
        termsTitle: TERMS_TITLE,
        termsVersion: TERMS_VERSION,
        terms: TERMS,
        csrfToken: csrfFieldValue(this.config.linkSigningSecret, cookieValue, token),
        expiresAt: link.expiresAt,
      }),
      setCookie: cookieValue === existing ? undefined : csrfCookie(cookieValue, this.config.secureCookies),
    };
  }

  async accept(token: string, form: unknown, client: PageClient): Promise<PageResult> {
    const fields = (typeof form === 'object' && form !== null ? form : {}) as Record<string, unknown>;
    if (!this.sameOrigin(client) || !csrfFieldMatches(this.config.linkSigningSecret, client.csrfCookie, token, fields.csrf_token)) {
      return message(403, FORBIDDEN);
    }
    const outcome = await this.agreements.accept(token, fields.terms_version, { ip: client.ip, userAgent: client.userAgent });
    switch (outcome.kind) {
      case 'not_found':
        return message(404, NOT_FOUND);
      case 'gone':
        return message(410, GONE[outcome.reason](outcome.businessName));
      case 'stale_terms':
        return message(409, STALE_TERMS(outcome.businessName));
      case 'accepted':
        return { status: 200, html: renderConfirmationPage(outcome) };
    }
  }

  /** A browser names the page's origin on a form POST; anything else is a cross-site post. */
  private sameOrigin(client: PageClient): boolean {
    if (client.origin !== undefined && client.origin !== this.config.publicOrigin) return false;
    return client.fetchSite === undefined || client.fetchSite === 'same-origin';
  }
}

function message(status: number, view: MessageView): PageResult {
  return { status, html: renderMessagePage(view) };
}
