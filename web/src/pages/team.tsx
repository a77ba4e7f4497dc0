import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Account, api, Invitation, Member } from '../api';
import { EmptyState, ErrorNotice, Field, formValues, PageHeader, Status, Time } from '../components/ui';
import { canWrite } from '../session';

const ROLES = ['owner', 'developer', 'viewer'] as const;
const INVITATION_TONE = { pending: 'warn', accepted: 'good', revoked: 'bad', expired: 'neutral' } as const;

/** The team: members and their roles, invitations, and the second-factor rule. Owners change it. */
export function Team({ account }: { account: Account }) {
  const client = useQueryClient();
  const owner = canWrite(account, 'owner');
  const members = useQuery({ queryKey: ['members'], queryFn: () => api.page<Member>('/members', new URLSearchParams()) });
  const invitations = useQuery({ queryKey: ['invitations'], queryFn: () => api.page<Invitation>('/invitations', new URLSearchParams()) });
  const settings = useQuery({ queryKey: ['team-settings'], queryFn: () => api.get<{ requireTwoFactor: boolean }>('/team-settings') });
  const refresh = () =>
    void client.invalidateQueries({ predicate: (query) => ['members', 'invitations', 'team-settings'].includes(String(query.queryKey[0])) });
  const invite = useMutation({ mutationFn: (body: Record<string, string>) => api.post<Invitation>('/members', body), onSuccess: refresh });
  const changeRole = useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: string }) => api.patch(`/members/${userId}`, { role }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (userId: string) => api.delete(`/members/${userId}`), onSuccess: refresh });
  const revoke = useMutation({ mutationFn: (invitationId: string) => api.delete(`/invitations/${invitationId}`), onSuccess: refresh });
  const requireTwoFactor = useMutation({ mutationFn: (value: boolean) => api.put('/team-settings', { requireTwoFactor: value }), onSuccess: refresh });

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
            invite.mutate(formValues(event.currentTarget));
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
      <table>
        <caption className="visually-hidden">Members</caption>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Second factor</th>
            <th scope="col">Joined</th>
            {owner && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {members.data?.items.map((member) => (
            <tr key={member.userId}>
              <td>
                {member.email} {member.userId === account.user.userId && <span className="muted">(you)</span>}
              </td>
              <td>
                {owner ? (
                  <select
                    aria-label={`Role of ${member.email}`}
                    value={member.role}
                    onChange={(event) => changeRole.mutate({ userId: member.userId, role: event.target.value })}
                  >
                    {ROLES.map((role) => (
                      <option key={role}>{role}</option>
                    ))}
                  </select>
                ) : (
                  member.role
                )}
              </td>
              <td>{member.twoFactorEnabled ? <Status value="on" tone="good" /> : <Status value="off" tone="neutral" />}</td>
              <td>
                <Time iso={member.createdAt} />
              </td>
              {owner && (
                <td>
                  <button type="button" className="danger" onClick={() => remove.mutate(member.userId)}>
                    Remove
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Invitations</h2>
      {invitations.data && invitations.data.items.length === 0 ? (
        <EmptyState title="No invitations">{owner && <p>Invite a colleague above: they get a link by e-mail.</p>}</EmptyState>
      ) : (
        <table>
          <caption className="visually-hidden">Invitations</caption>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Sent</th>
              {owner && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {invitations.data?.items.map((invitation) => (
              <tr key={invitation.invitationId}>
                <td>{invitation.email}</td>
                <td>{invitation.role}</td>
                <td>
                  <Status value={invitation.status} tone={INVITATION_TONE[invitation.status]} />
                </td>
                <td>
                  <Time iso={invitation.createdAt} /> by {invitation.invitedBy}
                </td>
                {owner && (
                  <td>
                    {invitation.status === 'pending' && (
                      <button type="button" className="secondary" onClick={() => revoke.mutate(invitation.invitationId)}>
                        Revoke
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
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
