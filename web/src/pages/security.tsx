import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Account, answer, dashboard, formBody, Session } from '../api';
import { DataTable } from '../components/table';
import { CopyButton, ErrorNotice, Field, formValues, PageHeader, Status, Time } from '../components/ui';
import { useSignedIn } from '../session';

/** The signed-in user's own security: password, second factor, and sessions. Open to every role. */
export function Security({ account }: { account: Account }) {
  const client = useQueryClient();
  const signedIn = useSignedIn();
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauthUri: string } | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const sessions = useQuery({ queryKey: ['sessions'], queryFn: () => answer(dashboard.GET('/api/dashboard/sessions')) });
  const refreshSessions = () => void client.invalidateQueries({ queryKey: ['sessions'] });
  const password = useMutation({
    mutationFn: (body: Record<string, string>) => answer(dashboard.POST('/api/dashboard/password', { body: formBody<'ChangePasswordDto'>(body) })),
    onSuccess: (next) => {
      signedIn(next);
      refreshSessions();
    },
  });
  const enrol = useMutation({ mutationFn: () => answer(dashboard.POST('/api/dashboard/two-factor')), onSuccess: setEnrolment });
  const confirm = useMutation({
    mutationFn: (body: Record<string, string>) => answer(dashboard.POST('/api/dashboard/two-factor/confirm', { body: formBody<'TwoFactorCodeDto'>(body) })),
    onSuccess: (next) => {
      signedIn(next);
      setEnrolment(null);
      setRecoveryCodes(next.recoveryCodes);
      refreshSessions();
    },
  });
  const disable = useMutation({
    mutationFn: (body: Record<string, string>) => answer(dashboard.DELETE('/api/dashboard/two-factor', { body: formBody<'TwoFactorCodeDto'>(body) })),
    onSuccess: (next) => {
      signedIn(next);
      refreshSessions();
    },
  });
  const end = useMutation({
    mutationFn: (sessionId: string) => answer(dashboard.DELETE('/api/dashboard/sessions/{sessionId}', { params: { path: { sessionId } } })),
    onSuccess: refreshSessions,
  });

  return (
    <>
      <PageHeader title="Security" />
      <section aria-labelledby="two-factor-title">
        <h2 id="two-factor-title">Second factor</h2>
        <p>
          {account.user.twoFactorEnabled ? <Status value="on" tone="good" /> : <Status value="off" tone="neutral" />}{' '}
          {account.user.twoFactorEnabled
            ? 'Signing in asks for a code from your authenticator app.'
            : 'Add an authenticator app so that a password alone cannot sign in.'}
        </p>
        {recoveryCodes && (
          <div className="notice good" role="status">
            <p>
              <strong>Your recovery codes.</strong> Each one signs you in once if you lose your phone. Keep them somewhere safe: they are shown only now.
            </p>
            <ul className="codes" data-testid="recovery-codes">
              {recoveryCodes.map((code) => (
                <li key={code}>
                  <code>{code}</code>
                </li>
              ))}
            </ul>
            <CopyButton text={recoveryCodes.join('\n')} label="Copy the codes" />
          </div>
        )}
        {!account.user.twoFactorEnabled && !enrolment && (
          <button type="button" onClick={() => enrol.mutate()} disabled={enrol.isPending}>
            Set up a second factor
          </button>
        )}
        {enrolment && (
          <div className="card-inline">
            <p>Add this account to your authenticator app with this key (or its link), then enter the code the app shows.</p>
            <p>
              Key: <code data-testid="totp-secret">{enrolment.secret}</code> <CopyButton text={enrolment.secret} label="Copy key" />
            </p>
            <p>
              <a href={enrolment.otpauthUri}>Open in an authenticator app</a>
            </p>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                confirm.mutate(formValues(event.currentTarget));
              }}
            >
              <Field label="Code from the app" name="code" autoComplete="one-time-code" inputMode="numeric" required />
              <button type="submit" disabled={confirm.isPending}>
                Turn on
              </button>
            </form>
          </div>
        )}
        {account.user.twoFactorEnabled && (
          <form
            className="inline-form"
            aria-label="Turn the second factor off"
            onSubmit={(event) => {
              event.preventDefault();
              disable.mutate(formValues(event.currentTarget));
            }}
          >
            <Field label="A current code or a recovery code" name="code" autoComplete="one-time-code" required />
            <button type="submit" className="secondary" disabled={disable.isPending}>
              Turn off
            </button>
          </form>
        )}
        <ErrorNotice error={enrol.error ?? confirm.error ?? disable.error} />
      </section>

      <section aria-labelledby="password-title">
        <h2 id="password-title">Password</h2>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            password.mutate(formValues(event.currentTarget));
            event.currentTarget.reset();
          }}
        >
          <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" required />
          <Field label="New password" name="newPassword" type="password" autoComplete="new-password" required minLength={12} hint="12 to 256 characters." />
          <ErrorNotice error={password.error} />
          {password.isSuccess && <p role="status">Password changed. Your other sessions have ended.</p>}
          <button type="submit" disabled={password.isPending}>
            Change password
          </button>
        </form>
      </section>

      <section aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <ErrorNotice error={sessions.error ?? end.error} />
        <DataTable<Session>
          caption="Your sessions"
          rows={sessions.data ?? []}
          rowKey={(session) => session.sessionId}
          columns={[
            {
              header: 'Device',
              cell: (session) => (
                <>
                  {session.userAgent || 'Unknown'} {session.current && <Status value="this session" tone="good" />}
                </>
              ),
            },
            { header: 'IP', cell: (session) => session.ip },
            { header: 'Signed in', cell: (session) => <Time iso={session.createdAt} /> },
            { header: 'Last used', cell: (session) => <Time iso={session.lastSeenAt} /> },
            {
              header: 'Actions',
              className: 'actions',
              cell: (session) =>
                !session.current && (
                  <button type="button" className="secondary" onClick={() => end.mutate(session.sessionId)}>
                    Sign out
                  </button>
                ),
            },
          ]}
        />
      </section>
    </>
  );
}
