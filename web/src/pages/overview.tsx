import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Account, api } from '../api';
import { ErrorNotice, PageHeader, Status } from '../components/ui';

/** Where a signed-in user lands: the account's state, and what to do next. */
export function Overview({ account }: { account: Account }) {
  const resend = useMutation({ mutationFn: () => api.post('/verify-email/resend') });
  return (
    <>
      <PageHeader title={account.merchant.name} />
      <p>
        Signed in as {account.user.email}, <Status value={account.user.role} tone="neutral" />.
      </p>
      {!account.user.emailVerified && (
        <div className="notice warn">
          <p>Confirm your e-mail address with the link we sent you.</p>
          {resend.isSuccess ? (
            <p role="status">A new link is on its way.</p>
          ) : (
            <button type="button" className="secondary" onClick={() => resend.mutate()} disabled={resend.isPending}>
              Send the link again
            </button>
          )}
          <ErrorNotice error={resend.error} />
        </div>
      )}
      <ul className="next-steps">
        <li>
          <Link to="/api-keys">API keys</Link>: give your servers a key to call the Merchant API.
        </li>
        <li>
          <Link to="/team">Team</Link>: invite colleagues with the role they need.
        </li>
        <li>
          <Link to="/security">Security</Link>:{' '}
          {account.user.twoFactorEnabled ? 'your second factor is on.' : 'turn on a second factor so a password alone cannot sign in.'}
        </li>
      </ul>
    </>
  );
}

export function NotFound() {
  return (
    <>
      <PageHeader title="Not found" />
      <p>There is nothing here, or it belongs to another merchant.</p>
      <p>
        <Link to="/">Back to the overview</Link>
      </p>
    </>
  );
}
