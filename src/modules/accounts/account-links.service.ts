import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { newId } from '../../common/ids/ids';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobHandler, Outbox } from '../../jobs';
import { MerchantsService } from '../auth';
import { MAILER, Mailer, MailMessage } from '../mail';
import { AccountTokenEntity, TokenPurpose } from './account-token.entity';
import { InvalidLinkError } from './accounts.errors';
import { ACCOUNTS_JOBS } from './accounts.jobs';
import { AccountsRepository } from './accounts.repository';
import { hashSecretToken, isSecretToken, newSecretToken } from './secret-token';

/** How long each kind of link works. */
export const LINK_TTL_MS: Record<TokenPurpose, number> = {
  verify_email: 7 * 24 * 3_600_000,
  reset_password: 3_600_000,
  invitation: 7 * 24 * 3_600_000,
};
/** Where each link opens, under the dashboard; the token rides in the fragment, which no server or log sees. */
const LINK_PAGES: Record<TokenPurpose, string> = {
  verify_email: 'verify-email',
  reset_password: 'reset-password',
  invitation: 'accept-invitation',
};

/** What a link is for: its user, or its invitation, and where it goes. */
export type LinkRequest = Pick<AccountTokenEntity, 'purpose' | 'userId' | 'invitationId' | 'email'>;

/**
 * Single-use links sent by e-mail. `issue` records one in the caller's transaction and puts its
 * mailing in the outbox; the worker draws the token, stores its SHA-256 and mails the link. A
 * request never waits on SMTP, and the token is in the message alone.
 */
@Injectable()
export class AccountLinks {
  private readonly logger = new Logger(AccountLinks.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MAILER) private readonly mailer: Mailer,
    private readonly repository: AccountsRepository,
    private readonly outbox: Outbox,
    private readonly merchants: MerchantsService,
  ) {}

  async issue(manager: EntityManager, link: LinkRequest): Promise<void> {
    const id = newId('tok');
    await this.repository.insertToken(manager, { id, ...link, expiresAt: new Date(Date.now() + LINK_TTL_MS[link.purpose]) });
    await this.outbox.enqueue(manager, ACCOUNTS_JOBS.sendLink, { tokenId: id });
  }

  /** Uses a link in the caller's transaction; 400 `invalid_link` when it is unknown, used or expired. */
  async consume(manager: EntityManager, purpose: TokenPurpose, token: string): Promise<AccountTokenEntity> {
    const row = isSecretToken(token) ? await this.repository.consumeToken(manager, purpose, hashSecretToken(token)) : undefined;
    if (!row) throw new InvalidLinkError();
    return row;
  }

  /**
   * A retried job draws a new token: the link of a message that went out before a crash stops
   * working, and the one sent now works. A link already used or expired is not sent.
   */
  @JobHandler(ACCOUNTS_JOBS.sendLink)
  async send({ tokenId }: { tokenId: string }): Promise<void> {
    const row = await this.repository.tokenToMail(tokenId);
    if (!row || row.expiresAt.getTime() <= Date.now()) return;
    // A reset asked for an e-mail that has no account: recorded like any other, mailed to no one.
    if (row.purpose === 'reset_password' && row.userId === null) return;
    const message = await this.compose(row);
    if (!message) return;
    const token = newSecretToken();
    await this.repository.setTokenHash(row.id, hashSecretToken(token));
    await this.mailer.send(message(`${this.config.publicBaseUrl}/dashboard/${LINK_PAGES[row.purpose]}#token=${token}`));
    this.logger.log(`${row.purpose} link ${row.id} mailed`);
  }

  private async compose(row: AccountTokenEntity): Promise<((link: string) => MailMessage) | undefined> {
    const to = row.email;
    if (row.purpose === 'verify_email') {
      return (link) => ({
        to,
        subject: 'Confirm your e-mail address',
        text: `Confirm that this address is yours by opening this link (it works once, for 7 days):\n\n${link}\n\nIf you did not sign up, ignore this message.`,
      });
    }
    if (row.purpose === 'reset_password') {
      return (link) => ({
        to,
        subject: 'Reset your password',
        text:
          `Someone (you, we hope) asked to reset the password of your Merchant Dashboard account. Choose a new one here (the link works once, for 1 hour):\n\n${link}\n\n` +
          'If it was not you, ignore this message: your password stays as it is.',
      });
    }
    const invitation = row.invitationId ? await this.repository.findInvitation(row.invitationId) : null;
    if (!invitation || invitation.acceptedAt || invitation.revokedAt) return undefined;
    const merchant = await this.merchants.find(invitation.merchantId);
    return (link) => ({
      to,
      subject: `You are invited to ${merchant?.name ?? 'a team'} on the Merchant Dashboard`,
      text:
        `${invitation.invitedByEmail} invites you to join ${merchant?.name ?? 'their team'} as ${invitation.role}. ` +
        `Accept here (the link works once, for 7 days):\n\n${link}\n\nIf you did not expect this, ignore this message.`,
    });
  }
}
