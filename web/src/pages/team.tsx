import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Account, answer, dashboard, Invitation, Member, page, Role, Body, formBody } from '../api';
import { Column, DataTable } from '../components/table';
import { EmptyState, ErrorNotice, Field, formValues, PageHeader, Status, Time } from '../components/ui';
import { canWrite } from '../session';

const ROLES = ['owner', 'developer', 'viewer'] as const;
const INVITATION_TONE = { pending: 'warn', accepted: 'good', revoked: 'bad', expired: 'neutral' } as const;

/** The team: members and their roles, invitations, and the second-factor rule. Owners change it. */
export function Team({ account }: { account: Account }) {
  const client = useQueryClient();
  const owner = canWrite(account, 'owner');
  const members = useQuery({ queryKey: ['members'], queryFn: () => page('/api/dashboard/members', new URLSearchParams()) });
  const invitations = useQuery({ queryKey: ['invitations'], queryFn: () => page('/api/dashboard/invitations', new URLSearchParams()) });
  const settings = useQuery({ queryKey: ['team-settings'], queryFn: () => answer(dashboard.GET('/api/dashboard/team-settings')) });
  const refresh = () =>
    void client.invalidateQueries({ predicate: (query) => ['members', 'invitations', 'team-settings'].includes(String(query.queryKey[0])) });
  const invite = useMutation({ mutationFn: (body: Body<'InviteMemberDto'>) => answer(dashboard.POST('/api/dashboard/members', { body })), onSuccess: refresh });
  const changeRole = useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      answer(dashboard.PATCH('/api/dashboard/members/{userId}', { params: { path: { userId } }, body: { role } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (userId: string) => answer(dashboard.DELETE('/api/dashboard/members/{userId}', { params: { path: { userId } } })),
    onSuccess: refresh,
  });
  const revoke = useMutation({
    mutationFn: (invitationId: string) => answer(dashboard.DELETE('/api/dashboard/invitations/{invitationId}', { params: { path: { invitationId } } })),
    onSuccess: refresh,
  });
  const requireTwoFactor = useMutation({
    mutationFn: (value: boolean) => answer(dashboard.PUT('/api/dashboard/team-settings', { body: { requireTwoFactor: value } })),
    onSuccess: refresh,
  });
  const memberColumns: Column<Member>[] = [
    {
      header: 'E-mail',
      cell: (member) => (
        <>
          {member.email} {member.userId === account.user.userId && <span className="muted">(you)</span>}
        </>
      ),
    },
    {
      header: 'Role',
      cell: (member) =>
        owner ? (
          <select
            aria-label={`Role of ${member.email}`}
            value={member.role}
            onChange={(event) => changeRole.mutate({ userId: member.userId, role: event.target.value as Role })}
          >
            {ROLES.map((role) => (
              <option key={role}>{role}</option>
            ))}
          </select>
        ) : (
          member.role
        ),
    },
    { header: 'Second factor', cell: (member) => (member.twoFactorEnabled ? <Status value="on" tone="good" /> : <Status value="off" tone="neutral" />) },
    { header: 'Joined', cell: (member) => <Time iso={member.createdAt} /> },
  ];
  const invitationColumns: Column<Invitation>[] = [
    { header: 'E-mail', cell: (invitation) => invitation.email },
    { header: 'Role', cell: (invitation) => invitation.role },
    { header: 'Status', cell: (invitation) => <Status value={invitation.status} tone={INVITATION_TONE[invitation.status]} /> },
    {
      header: 'Sent',
      cell: (invitation) => (
        <>
          <Time iso={invitation.createdAt} /> by {invitation.invitedBy}
        </>
      ),
    },
  ];
  if (owner) {
    memberColumns.push({
      header: 'Actions',
      className: 'actions',
      cell: (member) => (
        <button type="button" className="danger" onClick={() => remove.mutate(member.userId)}>
          Remove
        </button>
      ),
    });
    invitationColumns.push({
      header: 'Actions',
      className: 'actions',
      cell: (invitation) =>
        invitation.status === 'pending' && (
          <button type="button" className="secondary" onClick={() => revoke.mutate(invitation.invitationId)}>
            Revoke
          </button>
        ),
    });
  }

  return (
    <>
      <PageHeader title="Team" />
      <p>Owners can do everything; developers manage API keys and read everything; viewers read only and never see a secret.</p>
      <ErrorNotice error={members.error ?? invite.error ?? changeRole.error ?? remove.error ?? revoke.error ?? requireTwoFactor.error} />
      {owner && (
        <form
          className="inline-form"
          aria-label="Invite a member"
          onSubmit={(event) => {
            event.preventDefault();
            invite.mutate(formBody<'InviteMemberDto'>(formValues(event.currentTarget)));
            event.currentTarget.reset();
          }}
        >
          <Field label="E-mail to invite" name="email" type="email" required />
          <div className="field">
            <label htmlFor="invite-role">Role</label>
            <select id="invite-role" name="role" defaultValue="developer">
              {ROLES.map((role) => (
                <option key={role}>{role}</option>
              ))}
            </select>
          </div>
          <button type="submit" disabled={invite.isPending}>
            Send invitation
          </button>
        </form>
      )}
      {invite.isSuccess && <p role="status">Invitation sent to {invite.data.email}: the link in it works once, for 7 days.</p>}
      <h2>Members</h2>
      <DataTable<Member> caption="Members" rows={members.data?.items ?? []} rowKey={(member) => member.userId} columns={memberColumns} />
      <h2>Invitations</h2>
      {invitations.data && invitations.data.items.length === 0 ? (
        <EmptyState title="No invitations">{owner && <p>Invite a colleague above: they get a link by e-mail.</p>}</EmptyState>
      ) : (
        <DataTable<Invitation>
          caption="Invitations"
          rows={invitations.data?.items ?? []}
          rowKey={(invitation) => invitation.invitationId}
          columns={invitationColumns}
        />
      )}
      <h2>Second factor</h2>
      {settings.data && (
        <p>
          {settings.data.requireTwoFactor ? 'Every member must sign in with a second factor.' : 'A second factor is up to each member.'}{' '}
          {owner && (
            <button type="button" className="secondary" onClick={() => requireTwoFactor.mutate(!settings.data.requireTwoFactor)}>
              {settings.data.requireTwoFactor ? 'Stop requiring it' : 'Require it for everyone'}
            </button>
          )}
        </p>
      )}
    </>
  );
}
