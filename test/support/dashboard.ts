import { generate } from 'otplib';
import { http, HttpResult, sessionCookieOf } from './test-app';

export const DASHBOARD = '/api/dashboard';
export const PASSWORD = 'correct horse battery staple';

/** A signed-in dashboard user: its cookie and CSRF token, sent on every request it makes. */
export interface DashboardUser {
  email: string;
  cookie: string;
  csrf: string;
  userId: string;
  merchantId: string;
}

/** A TOTP code of the secret for the step `stepsAhead` steps from now (the service accepts one step either side). */
export function totpCode(secret: string, stepsAhead = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });
}

/** Dashboard calls over real HTTP against one app, as a browser on the service's own origin makes them. */
export class DashboardClient {
  private n = 0;

  constructor(private readonly baseUrl: string) {}

  email(tag = 'user'): string {
    return `${tag}${++this.n}-${process.pid}-${Date.now()}@acme.example`;
  }

  post(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult> {
    return http(this.baseUrl, 'POST', `${DASHBOARD}${path}`, { body, headers });
  }

  /** A request of the user: its cookie, and on changes its CSRF token and the service's origin. */
  as(user: Pick<DashboardUser, 'cookie' | 'csrf'>, method: string, path: string, body?: unknown): Promise<HttpResult> {
    const headers: Record<string, string> = { cookie: user.cookie };
    if (method !== 'GET') Object.assign(headers, { 'x-csrf-token': user.csrf, origin: new URL(this.baseUrl).origin });
    return http(this.baseUrl, method, `${DASHBOARD}${path}`, { body, headers });
  }

  async signUp(email = this.email('owner'), merchantName = 'Acme'): Promise<DashboardUser> {
    return this.signedIn(await this.post('/signup', { email, password: PASSWORD, merchantName }), 201);
  }

  async logIn(email: string, extra: Record<string, unknown> = {}, password = PASSWORD): Promise<DashboardUser> {
    return this.signedIn(await this.post('/login', { email, password, ...extra }), 200);
  }

  /** The user of an answer that signed someone in (sign-up, login, invitation accepted, 2FA on). */
  signedIn(result: HttpResult, status: number): DashboardUser {
    if (result.status !== status) throw new Error(`expected ${status}, got ${result.status}: ${result.text}`);
    const account = result.body.response;
    return {
      email: account.user.email,
      cookie: sessionCookieOf(result)!,
      csrf: account.csrfToken,
      userId: account.user.userId,
      merchantId: account.merchant.merchantId,
    };
  }
}
