import { Medium, startMedium } from '../../../test/support/medium';
import { Inbox, startInbox } from '../../../test/support/mail-sandbox';
import type { DashboardPrincipal } from '../auth';
import { AccountLinks } from './account-links.service';
import { AccountsModule } from './accounts.module';
import { AccountsService } from './accounts.service';
import { InvalidLinkError } from './accounts.errors';

const CLIENT = { ip: '203.0.113.9', userAgent: 'medium-spec' };
const PASSWORD = 'correct horse battery staple';

/** The accounts module's services (sign-up, sessions, single-use links) against a migrated PostgreSQL, Redis and a real SMTP server. */
describe('accounts (medium)', () => {
  let m: Medium;
  let inbox: Inbox;
  let accounts: AccountsService;
  let links: AccountLinks;
  let n = 0;
  const email = () => `medium-${Date.now()}-${n++}@example.com`;

  beforeAll(async () => {
    inbox = await startInbox();
    m = await startMedium({ name: 'accounts', imports: [AccountsModule], env: inbox.env });
    accounts = m.app.get(AccountsService);
    links = m.app.get(AccountLinks);
  });

  afterAll(async () => {
    await m?.close();
    await inbox?.close();
  });

  /** The tokens of the e-mail verification links the outbox holds for `address`, sent now as the worker would. */
  async function sendVerification(address: string): Promise<string> {
    const [row] = await m.sql<{ token_id: string }>(
      `SELECT payload->>'tokenId' AS token_id FROM outbox o JOIN account_tokens t ON t.id = o.payload->>'tokenId' WHERE t.email = $1 ORDER BY o.id DESC`,
      [address],
    );
    await links.send({ tokenId: row.token_id });
    return row.token_id;
  }

  it('sends a link that works once; a retried send draws a new token, and the link of the e-mail sent before stops working', async () => {
    const address = email();
    await accounts.signUp({ email: address, password: PASSWORD, merchantName: 'Medium Links' }, CLIENT);
    const tokenId = await sendVerification(address);
    const first = (await inbox.linkIn(address, /Confirm your e-mail/)).token;
    // The job ran again (its first run's answer was lost): a second e-mail, with another token.
    await links.send({ tokenId });
    const second = (await inbox.linkIn(address, /Confirm your e-mail/, 2)).token;
    expect(second).not.toBe(first);

    await expect(m.dataSource.transaction((manager) => links.consume(manager, 'verify_email', first))).rejects.toBeInstanceOf(InvalidLinkError);
    await expect(m.dataSource.transaction((manager) => links.consume(manager, 'verify_email', second))).resolves.toMatchObject({ email: address });
    await expect(m.dataSource.transaction((manager) => links.consume(manager, 'verify_email', second))).rejects.toBeInstanceOf(InvalidLinkError);
    // Nor does a token of one purpose open another.
    await expect(m.dataSource.transaction((manager) => links.consume(manager, 'reset_password', second))).rejects.toBeInstanceOf(InvalidLinkError);
  });

  it('keeps one session per sign-in and ends them all, starting one new, when the password changes; the old password no longer signs in', async () => {
    const address = email();
    const signedUp = await accounts.signUp({ email: address, password: PASSWORD, merchantName: 'Medium Sessions' }, CLIENT);
    const loggedIn = await accounts.login({ email: address, password: PASSWORD }, CLIENT);
    const principal: DashboardPrincipal = {
      userId: signedUp.account.user.userId,
      email: address,
      merchantId: signedUp.account.merchant.merchantId,
      role: 'owner',
      sessionId: loggedIn.session.sessionId,
      twoFactorMissing: false,
    };
    expect((await accounts.listSessions(principal)).map((s) => s.sessionId).sort()).toEqual([signedUp.session.sessionId, loggedIn.session.sessionId].sort());

    const changed = await accounts.changePassword(principal, { currentPassword: PASSWORD, newPassword: `${PASSWORD} again` }, CLIENT);
    const live = await accounts.listSessions({ ...principal, sessionId: changed.session.sessionId });
    expect(live.map((s) => ({ sessionId: s.sessionId, current: s.current }))).toEqual([{ sessionId: changed.session.sessionId, current: true }]);
    await expect(accounts.login({ email: address, password: PASSWORD }, CLIENT)).rejects.toMatchObject({ code: 'invalid_credentials' });
    const audit = await m.sql<{ action: string }>(`SELECT action FROM audit_log WHERE merchant_id = $1 ORDER BY created_at, id`, [principal.merchantId]);
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['user.signed_up', 'user.logged_in', 'user.password_changed']));
  });
});
