import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type Redis from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { EntityManager } from 'typeorm';
import { newId } from '../../common/ids/ids';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { REDIS } from '../../redis/redis.module';
import { CsrfFailedError, DashboardPrincipal, RateLimitsService, rateLimitHeaders, SAFE_METHODS, SessionAuthenticator, SessionRequiredError } from '../auth';
import { AccountsRepository, SessionRow } from './accounts.repository';
import type { AccountDto } from './dto/account.dto';
import { hashSecretToken, isSecretToken, newSecretToken } from './secret-token';

/** A session ends 30 minutes after its last use, and 12 hours after it began whatever its use. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** How stale `last_seen_at` may be before a request moves it on: one write a minute, not one per request. */
const TOUCH_AFTER_MS = 60 * 1000;

/** Bounds the memory of the session cache; a session pushed out is just looked up again. */
const MAX_CACHED_SESSIONS = 10_000;

export interface SessionCookie {
  name: string;
  value: string;
  options: Parameters<FastifyInstance['serializeCookie']>[2];
}

export interface StartedSession {
  sessionId: string;
  csrfToken: string;
  /** The session cookie and its marker (`sessionCookies`). */
  cookies: SessionCookie[];
}

/** Whose cached sessions a change makes stale: one user's (ended, new role, removed), or a whole team's (its settings). */
export type SessionScope = { userId: string } | { merchantId: string };

/** An account answer, and the session cookie that goes with it. */
export interface SignedIn {
  account: AccountDto;
  session: StartedSession;
}

/** Where a request came from: what a session records of it. */
export interface ClientOf {
  ip: string;
  userAgent: string;
}

/**
 * Dashboard sessions: opaque random tokens (256 bits) in an `HttpOnly`, `SameSite=Lax` cookie,
 * `Secure` and `__Host-` prefixed when the service is served over HTTPS; the database keeps only
 * their SHA-256. Every unsafe request also carries the session's CSRF token (an HMAC of the
 * session's token, so nothing more is stored) and no `Origin` but the service's own.
 */
@Injectable()
export class DashboardSessions implements SessionAuthenticator, OnModuleDestroy {
  private readonly logger = new Logger(DashboardSessions.name);
  private readonly cookieName: string;
  private readonly markerName: string;
  private readonly channel: string;
  /** Live sessions this process looked up lately, by token hash; none when the TTL is 0. */
  private readonly cache?: LRUCache<string, SessionRow>;
  private subscriber?: Redis;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly repository: AccountsRepository,
    private readonly limits: RateLimitsService,
  ) {
    this.cookieName = config.secureCookies ? '__Host-dashboard_session' : 'dashboard_session';
    this.markerName = config.secureCookies ? '__Host-dashboard_signed_in' : 'dashboard_signed_in';
    this.channel = `${config.queuePrefix}:dashboard-sessions:stale`;
    if (config.sessionCacheTtlMs > 0) this.cache = new LRUCache({ max: MAX_CACHED_SESSIONS, ttl: config.sessionCacheTtlMs });
  }

  /**
   * After a change that ends sessions or changes what they may do (logout, a password, a role, a
   * removal, a second factor, the team's settings) has committed: this process forgets the cached
   * sessions it made stale at once, and tells the other API processes through Redis. Should the
   * message be lost (Redis down), a cached session lives at most `DASHBOARD_SESSION_CACHE_TTL_MS`.
   */
  async stale(scope: SessionScope): Promise<void> {
    this.forget(scope);
    const message = 'userId' in scope ? `user:${scope.userId}` : `merchant:${scope.merchantId}`;
    await this.redis.publish(this.channel, message).catch((err: Error) => this.logger.warn(`session change not broadcast: ${err.message}`));
  }

  /** Runs a change that makes sessions stale, then `stale(scope)`. */
  async changing<T>(scope: SessionScope, change: () => Promise<T>): Promise<T> {
    const result = await change();
    await this.stale(scope);
    return result;
  }

  onModuleDestroy(): void {
    this.subscriber?.disconnect();
  }

  /** A new session with a new token (never one the client brought: no fixation), in `manager`'s transaction when given. */
  async start(userId: string, client: ClientOf, manager?: EntityManager): Promise<StartedSession> {
    const token = newSecretToken();
    const now = Date.now();
    const sessionId = newId('ses');
    await this.repository.insertSession(
      {
        id: sessionId,
        userId,
        tokenHash: hashSecretToken(token),
        lastSeenAt: new Date(now),
        expiresAt: new Date(now + SESSION_ABSOLUTE_MS),
        ip: client.ip,
        userAgent: client.userAgent.slice(0, 500),
      },
      manager,
    );
    return { sessionId, csrfToken: this.csrfTokenFor(token), cookies: this.cookies(token, SESSION_ABSOLUTE_MS / 1000) };
  }

  /**
   * A privilege change (a second factor turned on or off, a new password): every session of the
   * user ends and a new one begins, in the caller's transaction.
   */
  async restart(manager: EntityManager, userId: string, client: ClientOf): Promise<StartedSession> {
    await this.repository.endAllSessions(manager, userId);
    return this.start(userId, client, manager);
  }

  /** The cookies that remove the session's (and its marker) from the browser. */
  clearedCookies(): SessionCookie[] {
    return this.cookies('', 0);
  }

  /**
   * The dashboard user of a request, from its headers alone: refuses an API key (a dashboard
   * route takes sessions only), a missing, ended or expired session, and an unsafe request
   * without the session's CSRF token or from another origin.
   */
  async authenticate(request: FastifyRequest): Promise<DashboardPrincipal> {
    if (request.headers['x-api-key'] !== undefined || request.headers.authorization !== undefined) throw new SessionRequiredError();
    const { token, row } = await this.sessionOf(request);
    const now = Date.now();
    if (row.expiresAt.getTime() <= now || row.lastSeenAt.getTime() <= now - SESSION_IDLE_MS) throw new SessionRequiredError();
    if (!SAFE_METHODS.has(request.method)) this.assertCsrf(request, token);
    if (now - row.lastSeenAt.getTime() > TOUCH_AFTER_MS) {
      await this.repository.touchSession(row.id);
      row.lastSeenAt = new Date(now);
    }
    return {
      userId: row.userId,
      email: row.email,
      merchantId: row.merchantId,
      role: row.role,
      sessionId: row.id,
      twoFactorMissing: row.twoFactorMissing,
    };
  }

  /**
   * The CSRF token of the request's own session (for `GET /me`, which hands it to the page): from
   * the cookie alone, since `authenticate` has already checked that session.
   */
  csrfTokenOf(request: FastifyRequest): string {
    return this.csrfTokenFor(this.tokenOf(request) ?? '');
  }

  /** Sign-up and login answer with a session: a form on another site must not be able to post them. */
  assertSameOrigin(origin: string | undefined): void {
    if (origin !== undefined && origin !== this.config.publicOrigin) throw new CsrfFailedError();
  }

  private tokenOf(request: FastifyRequest): string | undefined {
    return request.server.parseCookie(request.headers.cookie ?? '')[this.cookieName];
  }

  /**
   * The request's live session. A request without one is a failed authentication of its client
   * IP, limited like a wrong API key (429 past the limit): checked before the database is asked,
   * so a flood of guessed cookies never reaches it.
   */
  private async sessionOf(request: FastifyRequest) {
    const token = this.tokenOf(request);
    const hash = token && isSecretToken(token) ? hashSecretToken(token) : undefined;
    let row = hash === undefined ? undefined : this.cache?.get(hash);
    if (!row) {
      await this.limits.assertAuthAttemptsLeft(request.ip);
      if (hash !== undefined) {
        this.listen();
        row = await this.repository.liveSession(hash);
      }
      if (!row) throw new SessionRequiredError(rateLimitHeaders(await this.limits.recordAuthFailure(request.ip)));
      this.cache?.set(hash!, row);
    }
    return { token: token!, row };
  }

  private forget(scope: SessionScope): void {
    if (!this.cache) return;
    for (const [hash, row] of this.cache.entries()) {
      if ('userId' in scope ? row.userId === scope.userId : row.merchantId === scope.merchantId) this.cache.delete(hash);
    }
  }

  /** The first session looked up subscribes this process to the other processes' changes (the worker never does). */
  private listen(): void {
    if (!this.cache || this.subscriber) return;
    // A subscribed connection can do nothing else; it queues its SUBSCRIBE until connected and
    // subscribes again after every reconnection.
    this.subscriber = this.redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('message', (_channel: string, message: string) => {
      const [kind, id] = message.split(':', 2);
      this.forget(kind === 'user' ? { userId: id } : { merchantId: id });
    });
    this.subscriber.subscribe(this.channel).catch((err: Error) => this.logger.warn(`not subscribed to session changes: ${err.message}`));
  }

  private assertCsrf(request: FastifyRequest, token: string): void {
    this.assertSameOrigin(request.headers.origin);
    const sent = request.headers['x-csrf-token'];
    const expected = Buffer.from(this.csrfTokenFor(token));
    const given = Buffer.from(typeof sent === 'string' ? sent : '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new CsrfFailedError();
  }

  /** Domain-separated from the other uses of the same secret (agreement links and their form). */
  private csrfTokenFor(token: string): string {
    return createHmac('sha256', this.config.linkSigningSecret).update(`dashboard-csrf\0${token}`).digest('base64url');
  }

  /**
   * The session cookie, and beside it a marker the dashboard's script can read (`1` while the
   * session cookie is set, no secret in it, gone with it): a page opened signed out then knows it
   * without asking `/me` for a 401.
   */
  private cookies(token: string, maxAgeSeconds: number): SessionCookie[] {
    const options = { path: '/', sameSite: 'lax', secure: this.config.secureCookies, maxAge: maxAgeSeconds } as const;
    return [
      { name: this.cookieName, value: token, options: { ...options, httpOnly: true } },
      { name: this.markerName, value: token === '' ? '' : '1', options: { ...options, httpOnly: false } },
    ];
  }
}
