import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { generateSecret, generateURI, verify } from 'otplib';
import { DataSource } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box';
import { newId } from '../../common/ids/ids';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { AuditLog, auditActor } from '../audit';
import { DashboardPrincipal, MerchantsService, RateLimitsService } from '../auth';
import { mapAccount } from './account.mapper';
import { InvalidTwoFactorCodeError, TwoFactorStateError } from './accounts.errors';
import { AccountsRepository } from './accounts.repository';
import { ClientOf, DashboardSessions, SignedIn } from './dashboard-sessions.service';
import type { TwoFactorEnrolmentDto } from './dto/two-factor.dto';
import type { UserEntity } from './user.entity';

const ISSUER = 'Merchant Payments';
const RECOVERY_CODES = 10;
/** RFC 6238's 30-second steps; a code of the step before or after is accepted too (clock drift). */
const TOLERANCE_SECONDS = 30;
/** 32 characters without look-alikes (no i, l, o, 1), so each byte's low five bits pick one evenly. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz234567890';

/** What a login's `code` turned out to be. */
export type SecondFactor = 'totp' | 'recovery_code';

/**
 * The TOTP second factor (RFC 6238, otplib): enrolment, confirmation with a code, ten single-use
 * recovery codes, and the check at login. Secrets are stored encrypted (AES-256-GCM under a key
 * derived from the link-signing secret), recovery codes as keyed hashes, and a code's time step
 * is accepted once.
 */
@Injectable()
export class TwoFactor {
  private readonly secrets: SecretBox;
  private readonly codeKey: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: AccountsRepository,
    private readonly sessions: DashboardSessions,
    private readonly merchants: MerchantsService,
    private readonly audit: AuditLog,
    private readonly limits: RateLimitsService,
  ) {
    this.secrets = new SecretBox(config.linkSigningSecret, 'dashboard-totp-secret');
    this.codeKey = Buffer.from(hkdfSync('sha256', config.linkSigningSecret, '', 'dashboard-recovery-code', 32));
  }

  /** A new secret to add to an authenticator app; the second factor is on once a code confirms it. */
  async enrol(principal: DashboardPrincipal): Promise<TwoFactorEnrolmentDto> {
    const secret = generateSecret();
    if (!(await this.repository.setPendingTotpSecret(principal.userId, this.secrets.seal(secret)))) {
      throw new TwoFactorStateError('A second factor is already on: turn it off first to enrol another');
    }
    return { secret, otpauthUri: generateURI({ issuer: ISSUER, label: principal.email, secret }) };
  }

  /**
   * The first code confirms the enrolment: the second factor is on, ten recovery codes are made
   * (shown this once) and the user's sessions restart, in one transaction.
   */
  async confirm(principal: DashboardPrincipal, code: string, client: ClientOf): Promise<SignedIn & { recoveryCodes: string[] }> {
    const user = (await this.repository.findUser(principal.userId))!;
    if (user.totpEnabledAt || !user.totpSecret) throw new TwoFactorStateError('Start an enrolment first (POST /api/dashboard/two-factor)');
    const step = await this.counted(user, client, () => this.totpStep(user, code));
    const recoveryCodes = Array.from({ length: RECOVERY_CODES }, () => recoveryCode());
    const merchant = (await this.merchants.find(user.merchantId))!;
    return this.sessions.changing(principal, () =>
      this.dataSource.transaction(async (manager) => {
        if (!(await this.repository.enableTotp(manager, user.id, step))) throw new TwoFactorStateError('The second factor is already on');
        await this.repository.replaceRecoveryCodes(
          manager,
          user.id,
          recoveryCodes.map((c) => ({ id: newId('rc'), codeHash: this.codeHash(c) })),
        );
        await this.audit.record(manager, auditActor(principal, client.ip), { action: 'two_factor.enabled', objectId: user.id });
        const session = await this.sessions.restart(manager, user.id, client);
        const account = mapAccount({ ...user, totpEnabledAt: new Date() }, merchant, session.csrfToken);
        return { account, session, recoveryCodes };
      }),
    );
  }

  /** Off again, proven with a current code (or a recovery code); refused while the team requires it. */
  async disable(principal: DashboardPrincipal, code: string, client: ClientOf): Promise<SignedIn> {
    const user = (await this.repository.findUser(principal.userId))!;
    if (!user.totpEnabledAt) throw new TwoFactorStateError('The second factor is not on');
    if (await this.repository.requiresTwoFactor(principal.merchantId)) throw new TwoFactorStateError('Your team requires a second factor: it stays on');
    await this.counted(user, client, () => this.check(user, code));
    const merchant = (await this.merchants.find(user.merchantId))!;
    return this.sessions.changing(principal, () =>
      this.dataSource.transaction(async (manager) => {
        await this.repository.disableTotp(manager, user.id);
        await this.audit.record(manager, auditActor(principal, client.ip), { action: 'two_factor.disabled', objectId: user.id });
        const session = await this.sessions.restart(manager, user.id, client);
        return { account: mapAccount({ ...user, totpEnabledAt: null }, merchant, session.csrfToken), session };
      }),
    );
  }

  /** Whether `code` is a current TOTP code of the user (each time step accepted once) or one of its unused recovery codes. */
  async check(user: UserEntity, code: string): Promise<SecondFactor | undefined> {
    if (/^\d{6}$/.test(code)) {
      const step = await this.totpStep(user, code);
      return step !== undefined && (await this.repository.acceptTotpStep(user.id, step)) ? 'totp' : undefined;
    }
    const normalized = code.toLowerCase().replace(/[\s-]/g, '');
    if (!/^[a-z0-9]{10}$/.test(normalized)) return undefined;
    return (await this.repository.useRecoveryCode(user.id, this.codeHash(normalized))) ? 'recovery_code' : undefined;
  }

  /**
   * A code checked as login checks one: refused with 429 once the account (or the client IP) has
   * used up its attempts, and a wrong code counted against both, so no route is a cheaper oracle
   * for the second factor than login.
   */
  private async counted<T>(user: UserEntity, client: ClientOf, check: () => Promise<T | undefined>): Promise<T> {
    await this.limits.assertAccountAttemptsLeft(user.email, client.ip);
    const result = await check();
    if (result === undefined) {
      await this.limits.recordAccountAttempt(user.email, client.ip);
      throw new InvalidTwoFactorCodeError();
    }
    return result;
  }

  /** The time step of a valid code for the user's secret, later than the last one accepted. */
  private async totpStep(user: UserEntity, code: string): Promise<number | undefined> {
    if (!user.totpSecret || !/^\d{6}$/.test(code)) return undefined;
    const result = await verify({
      secret: this.secrets.open(user.totpSecret),
      token: code,
      epochTolerance: TOLERANCE_SECONDS,
      ...(user.totpLastStep === null ? {} : { afterTimeStep: Number(user.totpLastStep) }),
    });
    // The generic result type covers HOTP too; a TOTP check's valid result carries its time step.
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  }

  private codeHash(code: string): string {
    return createHmac('sha256', this.codeKey).update(code.replace(/-/g, '')).digest('hex');
  }
}

/** `xxxxx-xxxxx` from an alphabet without look-alikes: 50 bits each. */
function recoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((byte) => RECOVERY_ALPHABET[byte & 31]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}
