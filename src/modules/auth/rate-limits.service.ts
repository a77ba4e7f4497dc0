import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { BurstyRateLimiter, RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, RLWrapperTimeouts } from 'rate-limiter-flexible';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { REDIS } from '../../redis/redis.module';
import { RateLimitedError } from './auth.errors';
import { LimitState } from './rate-limit-state';

/** The burst allowance (RATE_LIMIT_BURST − RATE_LIMIT_PER_SECOND) refills over this window. */
const BURST_WINDOW_SECONDS = 10;
/** Failed dashboard logins and reset requests are counted over this window: a locked account unlocks by time alone. */
const LOGIN_WINDOW_SECONDS = 15 * 60;

/**
 * The request limits of the contract, counted in Redis so that every API process shares them.
 *
 * When Redis is down or slow, each limiter falls back to an in-process counter with the same
 * limits (rate-limiter-flexible's insurance limiter): the API stays up, and a merchant is limited
 * per process instead of across processes until Redis is back. That holds for every limit:
 * authenticated merchant routes, failed authentications and public routes per IP. None fails
 * closed, because refusing every request while Redis is down would turn a cache outage into an
 * API outage; none fails open, because the failed-auth limit is what keeps a key-guessing
 * flood off the database, and the public limit a page flood off PostgreSQL and Redis.
 */
@Injectable()
export class RateLimitsService {
  private readonly perKey: BurstyRateLimiter;
  private readonly authFailures: RateLimiterAbstract;
  private readonly publicByIp: BurstyRateLimiter;
  private readonly loginFailuresByAccount: RateLimiterAbstract;
  private readonly loginFailuresByIp: RateLimiterAbstract;
  private readonly loginLimits: { perAccount: number; perIp: number };
  private readonly publicPerSecond: number;
  private readonly perSecond: number;
  private readonly authFailuresPerSecond: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(REDIS) redis: Redis) {
    // A hung Redis must not hang requests: past `redisTimeoutMs` the call falls back to the
    // in-process limiter, like a Redis that is down.
    const { perSecond, burst, authFailuresPerSecond, publicPerSecond, publicBurst, redisTimeoutMs } = config.rateLimit;
    this.publicPerSecond = publicPerSecond;
    this.perSecond = perSecond;
    this.authFailuresPerSecond = authFailuresPerSecond;
    const limiter = (name: string, points: number, duration: number) => {
      const keyPrefix = `${config.queuePrefix}:rate-limit:${name}`;
      return new RLWrapperTimeouts({
        limiter: new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration }),
        timeoutMs: redisTimeoutMs,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
      });
    };
    this.perKey = new BurstyRateLimiter(limiter('key', perSecond, 1), limiter('key-burst', Math.max(burst - perSecond, 0), BURST_WINDOW_SECONDS));
    this.authFailures = limiter('auth-failure', authFailuresPerSecond, 1);
    this.loginLimits = { perAccount: config.rateLimit.loginFailuresPerAccount, perIp: config.rateLimit.loginFailuresPerIp };
    this.loginFailuresByAccount = limiter('login-account', this.loginLimits.perAccount, LOGIN_WINDOW_SECONDS);
    this.loginFailuresByIp = limiter('login-ip', this.loginLimits.perIp, LOGIN_WINDOW_SECONDS);
    this.publicByIp = new BurstyRateLimiter(
      limiter('public-ip', publicPerSecond, 1),
      limiter('public-ip-burst', Math.max(publicBurst - publicPerSecond, 0), BURST_WINDOW_SECONDS),
    );
  }

  /** Counts one request of a client IP to a public route; throws `rate_limited` past the limit. */
  async consumeForPublicRoute(ip: string): Promise<LimitState> {
    try {
      return this.state(this.publicPerSecond, await this.publicByIp.consume(ip));
    } catch (rejection) {
      throw this.refusal(this.publicPerSecond, rejection);
    }
  }

  /** Counts one request of an API key; throws `rate_limited` past the limit. */
  async consumeForKey(apiKeyId: string): Promise<LimitState> {
    try {
      return this.state(this.perSecond, await this.perKey.consume(apiKeyId));
    } catch (rejection) {
      throw this.refusal(this.perSecond, rejection);
    }
  }

  /** Throws `rate_limited` when the client IP has used up its failed authentications. */
  async assertAuthAttemptsLeft(ip: string): Promise<void> {
    const used = await this.authFailures.get(ip);
    if (used && used.consumedPoints >= this.authFailuresPerSecond) {
      throw this.refusal(this.authFailuresPerSecond, used);
    }
  }

  /** Counts a failed authentication of the client IP; the state goes on the 401 (or 429). */
  async recordAuthFailure(ip: string): Promise<LimitState> {
    try {
      return this.state(this.authFailuresPerSecond, await this.authFailures.consume(ip));
    } catch (rejection) {
      throw this.refusal(this.authFailuresPerSecond, rejection);
    }
  }

  /**
   * Throws `rate_limited` when the e-mail (registered or not: the answer must not tell) or the
   * client IP has used up its attempts (failed logins and password-reset requests). Checked before
   * the password, so a locked account costs no hashing.
   */
  async assertAccountAttemptsLeft(email: string, ip: string): Promise<void> {
    for (const [limiter, key, limit] of [
      [this.loginFailuresByAccount, email, this.loginLimits.perAccount],
      [this.loginFailuresByIp, ip, this.loginLimits.perIp],
    ] as const) {
      const used = await limiter.get(key);
      if (used && used.consumedPoints >= limit) throw this.refusal(limit, used);
    }
  }

  /** Counts an attempt (a failed login, a reset request) on the e-mail and from the client IP. */
  async recordAccountAttempt(email: string, ip: string): Promise<void> {
    await Promise.all([this.loginFailuresByAccount.consume(email).catch(() => undefined), this.loginFailuresByIp.consume(ip).catch(() => undefined)]);
  }

  private state(limit: number, res: RateLimiterRes): LimitState {
    return { limit, remaining: Math.max(res.remainingPoints, 0), resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
  }

  private refusal(limit: number, rejection: unknown): Error {
    if (!(rejection instanceof RateLimiterRes)) return rejection as Error;
    return new RateLimitedError(this.state(limit, rejection));
  }
}
