import { useMutation, useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { Account, answer, dashboard, page } from '../api';
import { DataTable } from '../components/table';
import { ErrorNotice, PageHeader, Status } from '../components/ui';
import { BALANCE_TRANSACTION_COLUMNS, BalanceFigures, NO_MONEY_MOVED } from './money';

const RECENT = new URLSearchParams({ limit: '5' });
const CHART_DAYS = 30;
/** The chart library loads with the overview only, in its own chunk. */
const ActivityCharts = lazy(() => import('../components/activity-charts'));

/** The last 30 days in the viewer's time zone, as the service adds them up from the ledger. */
function LastDays() {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const daily = useQuery({
    queryKey: ['/balance/daily', timeZone],
    queryFn: () => answer(dashboard.GET('/api/dashboard/balance/daily', { params: { query: { days: CHART_DAYS, timeZone } } })),
  });
  return (
    <section aria-labelledby="last-days-title">
      <h2 id="last-days-title">Last {CHART_DAYS} days</h2>
      <ErrorNotice error={daily.error} />
      {daily.data && (
        <Suspense fallback={<p className="muted">Drawing the charts…</p>}>
          <ActivityCharts days={daily.data.days} currency={daily.data.currency} />
        </Suspense>
      )}
    </section>
  );
}

/** Where a signed-in user lands: the account's state, and what to do next. */
export function Overview({ account }: { account: Account }) {
  const resend = useMutation({ mutationFn: () => answer(dashboard.POST('/api/dashboard/verify-email/resend')) });
  const recent = useQuery({ queryKey: ['/balance-transactions', 'recent'], queryFn: () => page('/api/dashboard/balance-transactions', RECENT) });
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
      <h2>Balance</h2>
      <BalanceFigures />
      <LastDays />
      <h2>Recent activity</h2>
      <ErrorNotice error={recent.error} />
      {recent.data?.items.length === 0 && NO_MONEY_MOVED}
      {recent.data && recent.data.items.length > 0 && (
        <>
          <DataTable
            caption="Recent balance transactions"
            rows={recent.data.items}
            rowKey={(row) => row.balanceTransactionId}
            columns={BALANCE_TRANSACTION_COLUMNS}
          />
          <p>
            <Link to="/balance">Every balance transaction</Link>
          </p>
        </>
      )}
      <h2>Next steps</h2>
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
