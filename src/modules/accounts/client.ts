import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientOf, SessionCookie, SignedIn } from './dashboard-sessions.service';
import type { AccountDto } from './dto/account.dto';

/** Where a request came from, as sessions and the audit log record it. */
export function clientOf(request: FastifyRequest): ClientOf {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' };
}

/** The account of a new session; its cookie goes on the answer. */
export function signedIn(reply: FastifyReply, result: SignedIn): AccountDto {
  setCookies(reply, result.session.cookies);
  return result.account;
}

export function setCookies(reply: FastifyReply, cookies: SessionCookie[]): void {
  void reply.header(
    'Set-Cookie',
    cookies.map((cookie) => reply.server.serializeCookie(cookie.name, cookie.value, cookie.options)),
  );
}

export const SET_COOKIE = {
  'Set-Cookie': {
    description:
      'The session cookie (`HttpOnly`, `SameSite=Lax`; `Secure` and `__Host-` over HTTPS), and `dashboard_signed_in=1` beside it, readable by scripts and holding no secret',
    schema: { type: 'string' },
  },
};
