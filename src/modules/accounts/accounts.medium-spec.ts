import { totpCode } from '../../../test/support/dashboard';
import { Medium, startMedium } from '../../../test/support/medium';
import { Inbox, startInbox } from '../../../test/support/mail-sandbox';
import type { DashboardRole } from '../../common/dashboard-roles';
import type { DashboardPrincipal } from '../auth';
import { AccountLinks } from './account-links.service';
import { AccountsModule } from './accounts.module';
import { AccountsService } from './accounts.service';
import { InvalidLinkError } from './accounts.errors';
import type { SignedIn } from './dashboard-sessions.service';
import { TeamService } from './team.service';
import { TwoFactor } from './two-factor.service';

const CLIENT = { ip: '203.0.113.9', userAgent: 'medium-spec' };
const PASSWORD = 'correct horse battery staple';

/** The accounts module's services (sign-up, sessions, single-use links, second factor, team) against a migrated PostgreSQL, Redis and a real SMTP server. */
describe('accounts (medium)', () => {
  let m: Medium;
  let inbox: Inbox;
  let accounts: AccountsService;
  let links: AccountLinks;
  let twoFactor: TwoFactor;
  let team: TeamService;
  let n = 0;
  const email = () => `medium-${Date.now()}-${n++}@example.com`;

  beforeAll(async () => {
    inbox = await startInbox();
    m = await startMedium({ name: 'accounts', imports: [AccountsModule], env: inbox.env });
    accounts = m.app.get(AccountsService);
    links = m.app.get(AccountLinks);
    twoFactor = m.app.get(TwoFactor);
    team = m.app.get(TeamService);
  });

  afterAll(async () => {
    await m?.close();
    await inbox?.close();
  });

  /** The token id of the newest link the outbox holds for `address`, sent now as the worker would. */
  async function sendLink(address: string): Promise<string> {
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
    const tokenId = await sendLink(address);
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

  const principalOf = (signedIn: SignedIn, address: string): DashboardPrincipal => ({
    userId: signedIn.account.user.userId,
    email: address,
    merchantId: signedIn.account.merchant.merchantId,
    role: signedIn.account.user.role as DashboardRole,
    sessionId: signedIn.session.sessionId,
    twoFactorMissing: false,
  });

  it('turns the second factor on with a code, accepts each time step once and each recovery code once at login', async () => {
    const address = email();
    const owner = principalOf(await accounts.signUp({ email: address, password: PASSWORD, merchantName: 'Medium 2FA' }, CLIENT), address);
    const { secret } = await twoFactor.enrol(owner);
    await expect(twoFactor.confirm(owner, '000000', CLIENT)).rejects.toMatchObject({ code: 'invalid_two_factor_code' });
    const confirmCode = await totpCode(secret);
    const confirmed = await twoFactor.confirm(owner, confirmCode, CLIENT);
    expect(confirmed.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.recoveryCodes).size).toBe(10);

    await expect(accounts.login({ email: address, password: PASSWORD }, CLIENT)).rejects.toMatchObject({ code: 'two_factor_required' });
    // The code that confirmed the enrolment was used: its time step does not open a session.
    await expect(accounts.login({ email: address, password: PASSWORD, code: confirmCode }, CLIENT)).rejects.toMatchObject({
      code: 'invalid_two_factor_code',
    });
    const nextCode = await totpCode(secret, 1);
    await expect(accounts.login({ email: address, password: PASSWORD, code: nextCode }, CLIENT)).resolves.toMatchObject({
      account: { user: { email: address } },
    });
    await expect(accounts.login({ email: address, password: PASSWORD, code: nextCode }, CLIENT)).rejects.toMatchObject({ code: 'invalid_two_factor_code' });

    const [recovery] = confirmed.recoveryCodes;
    await expect(accounts.login({ email: address, password: PASSWORD, code: recovery.toUpperCase() }, CLIENT)).resolves.toBeDefined();
    await expect(accounts.login({ email: address, password: PASSWORD, code: recovery }, CLIENT)).rejects.toMatchObject({ code: 'invalid_two_factor_code' });
    const used = await m.sql<{ used: number }>(`SELECT count(*)::int AS used FROM recovery_codes WHERE user_id = $1 AND used_at IS NOT NULL`, [owner.userId]);
    expect(used).toEqual([{ used: 1 }]);
    // Stored only as keyed hashes and ciphertext: neither the secret nor a recovery code is in the row.
    const [user] = await m.sql<{ totp_secret: string }>(`SELECT totp_secret FROM users WHERE id = $1`, [owner.userId]);
    expect(user.totp_secret).not.toContain(secret);
    expect(JSON.stringify(await m.sql(`SELECT * FROM recovery_codes WHERE user_id = $1`, [owner.userId]))).not.toContain(recovery);
  });

  it('invites a member who joins with the e-mailed link once; a role change ends their sessions; the last owner stays', async () => {
    const ownerEmail = email();
    const owner = principalOf(await accounts.signUp({ email: ownerEmail, password: PASSWORD, merchantName: 'Medium Team' }, CLIENT), ownerEmail);
    const memberEmail = email();
    const invitation = await team.invite(owner, { email: memberEmail, role: 'developer' }, CLIENT);
    await expect(team.invite(owner, { email: ownerEmail, role: 'viewer' }, CLIENT)).rejects.toMatchObject({ code: 'already_member' });

    const [row] = await m.sql<{ token_id: string }>(
      `SELECT o.payload->>'tokenId' AS token_id FROM outbox o JOIN account_tokens t ON t.id = o.payload->>'tokenId' WHERE t.invitation_id = $1`,
      [invitation.invitationId],
    );
    await links.send({ tokenId: row.token_id });
    const { token } = await inbox.linkIn(memberEmail, /You are invited to Medium Team/);
    const joined = await accounts.acceptInvitation({ token, password: PASSWORD }, CLIENT);
    expect(joined.account.user).toMatchObject({ email: memberEmail, role: 'developer' });
    expect(joined.account.merchant.merchantId).toBe(owner.merchantId);
    await expect(accounts.acceptInvitation({ token, password: PASSWORD }, CLIENT)).rejects.toBeInstanceOf(InvalidLinkError);

    const member = principalOf(joined, memberEmail);
    expect(await accounts.listSessions(member)).toHaveLength(1);
    await expect(team.changeRole(owner, member.userId, 'viewer', CLIENT)).resolves.toMatchObject({ userId: member.userId, role: 'viewer' });
    expect(await accounts.listSessions(member)).toHaveLength(0);

    await expect(team.changeRole(owner, owner.userId, 'developer', CLIENT)).rejects.toMatchObject({ code: 'last_owner' });
    await expect(team.remove(owner, owner.userId, CLIENT)).rejects.toMatchObject({ code: 'last_owner' });
    await expect(team.remove(owner, member.userId, CLIENT)).resolves.toEqual({ userId: member.userId, removed: true });
    expect((await team.members(owner.merchantId, { limit: 10 })).items.map((u) => u.email)).toEqual([ownerEmail]);
    const audit = await m.sql<{ action: string }>(`SELECT action FROM audit_log WHERE merchant_id = $1 ORDER BY created_at, id`, [owner.merchantId]);
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['invitation.created', 'invitation.accepted', 'member.role_changed', 'member.removed']));
  });
});
