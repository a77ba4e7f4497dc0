import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientOf, SessionCookie, SignedIn } from './dashboard-sessions.service';
import type { AccountDto } from './dto/account.dto';

/** Where a request came from, as sessions and the audit log record it. */
export function clientOf(request: FastifyRequest): ClientOf {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' };
}

/** The account of a new session; its cookie goes on the answer. */
export function signedIn(reply: FastifyReply, result: SignedIn): AccountDto {
  setCookie(reply, result.session.cookie);
  return result.account;
}

const SESSION_COOKIE_NAME = 'dashboard_session';
const SIGNED_IN_COOKIE_NAME = 'dashboard_signed_in';

/**
 * The session cookie, and beside it a marker the dashboard's script can read (`dashboard_signed_in=1`,
 * no secret in it, gone with the session cookie): a page opened signed out then knows it without
 * asking `/me` for a 401.
 */
export function setCookie(reply: FastifyReply, cookie: SessionCookie): void {
  const marker = cookie.name.replace(SESSION_COOKIE_NAME, SIGNED_IN_COOKIE_NAME);
  void reply.header('Set-Cookie', [
    reply.server.serializeCookie(cookie.name, cookie.value, cookie.options),
    reply.server.serializeCookie(marker, cookie.value === '' ? '' : '1', { ...cookie.options, httpOnly: false }),
  ]);
}

export const SET_COOKIE = {
  'Set-Cookie': {
    description:
      'The session cookie (`HttpOnly`, `SameSite=Lax`; `Secure` and `__Host-` over HTTPS), and `dashboard_signed_in=1` beside it, readable by scripts and holding no secret',
    schema: { type: 'string' },
  },
};
