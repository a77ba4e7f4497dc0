import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Account, answer, BalanceTransaction, dashboard, formBody, isNotFound, Withdrawal } from '../api';
import { IdLink } from '../components/id-link';
import { toneOf } from '../components/status';
import { Column, PagedTable } from '../components/table';
import { EmptyState, ErrorNotice, Field, FilterSelect, formValues, IdDetail, NotFound, PageHeader, Status, Time } from '../components/ui';
import { money } from '../format';
import { useOnce, useOperationKey } from '../once';
import { canWrite } from '../session';

/** The balance, available and reserved (held for withdrawals and international payments under way). */
export function BalanceFigures() {
  const balance = useQuery({ queryKey: ['/balance'], queryFn: () => answer(dashboard.GET('/api/dashboard/balance')) });
  return (
    <>
      <ErrorNotice error={balance.error} />
      <dl className="figures">
        {balance.data?.map((entry) => (
          <div key={entry.currency}>
            <dt>Available</dt>
            <dd>{money(entry.available, entry.currency)}</dd>
            <dt>Reserved</dt>
            <dd>{money(entry.reserved, entry.currency)}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

export const BALANCE_TRANSACTION_COLUMNS: Column<BalanceTransaction>[] = [
  { header: 'When', cell: (row) => <Time iso={row.createdAt} /> },
  { header: 'Type', cell: (row) => row.type.replace(/_/g, ' ') },
  { header: 'Amount', className: 'amount', cell: (row) => money(row.amount, row.currency) },
  { header: 'Source', cell: (row) => <IdLink id={row.sourceId} /> },
];

export const NO_MONEY_MOVED = <EmptyState title="No money has moved yet">Collect a payment: a confirmed payment intent credits the balance.</EmptyState>;

export function BalancePage() {
  return (
    <>
      <PageHeader title="Balance">
        <a href="/api/dashboard/balance-transactions/export.csv" download>
          Export transactions (CSV)
        </a>
      </PageHeader>
      <BalanceFigures />
      <h2>Balance transactions</h2>
      <PagedTable<BalanceTransaction>
        path="/api/dashboard/balance-transactions"
        caption="Balance transactions"
        rowKey={(row) => row.balanceTransactionId}
        empty={NO_MONEY_MOVED}
        columns={BALANCE_TRANSACTION_COLUMNS}
      />
    </>
  );
}

const WITHDRAWAL_STATUSES = ['pending', 'processing', 'succeeded', 'failed'];

export function Withdrawals({ account }: { account: Account }) {
  const client = useQueryClient();
  const [key, nextKey] = useOperationKey();
  const once = useOnce();
  const create = useMutation({
    mutationFn: (body: Record<string, string>) =>
      answer(
        dashboard.POST('/api/dashboard/withdrawals', {
          params: { header: { 'Idempotency-Key': key } },
          body: { ...formBody<'CreateWithdrawalDto'>(body), amount: Number(body.amount) },
        }),
      ),
    onSuccess: () => {
      nextKey();
      void client.invalidateQueries({
        predicate: (query) => ['/api/dashboard/withdrawals', '/balance', '/api/dashboard/balance-transactions'].includes(String(query.queryKey[0])),
      });
    },
  });
  return (
    <>
      <PageHeader title="Withdrawals" />
      {canWrite(account, 'owner') && (
        <form
          className="inline-form"
          aria-label="Withdraw to a bank account"
          onSubmit={(event) => {
            event.preventDefault();
            const values = formValues(event.currentTarget);
            once(() => create.mutateAsync(values));
          }}
        >
          <Field label="Amount (NGN)" name="amount" inputMode="decimal" required />
          <Field label="Bank code" name="bankCode" required hint="e.g. 058" />
          <Field label="Account number" name="accountNumber" inputMode="numeric" required />
          <Field label="Account name" name="accountName" required />
          <Field label="Your reference" name="merchantReference" required />
          <button type="submit">Withdraw</button>
        </form>
      )}
      {create.isSuccess && (
        <p role="status">
          Withdrawal {create.data.merchantReference} created: {create.data.status.replace(/_/g, ' ')}.
        </p>
      )}
      <ErrorNotice error={create.error} />
      <FilterSelect label="Status" name="status" options={WITHDRAWAL_STATUSES} />
      <PagedTable<Withdrawal>
        path="/api/dashboard/withdrawals"
        caption="Withdrawals"
        rowKey={(row) => row.withdrawalId}
        empty={<EmptyState title="No withdrawals yet">Withdrawals pay your available balance out to a Nigerian bank account.</EmptyState>}
        columns={[
          { header: 'Reference', cell: (row) => <Link to={`/withdrawals/${row.withdrawalId}`}>{row.merchantReference}</Link> },
          { header: 'Amount', className: 'amount', cell: (row) => money(row.amount, row.currency) },
          { header: 'To', cell: (row) => `${row.accountName} · ${row.accountNumber}` },
          {
            header: 'Status',
            cell: (row) => (
              <>
                <Status value={row.status} tone={toneOf(row.status)} />
                {row.failureMessage && <span className="muted"> {row.failureMessage}</span>}
              </>
            ),
          },
          { header: 'Created', cell: (row) => <Time iso={row.createdAt} /> },
        ]}
      />
    </>
  );
}

/** One withdrawal: where the money went, its state, and why it failed. */
export function WithdrawalPage() {
  const { withdrawalId = '' } = useParams();
  const withdrawal = useQuery({
    queryKey: ['withdrawal', withdrawalId],
    queryFn: () => answer(dashboard.GET('/api/dashboard/withdrawals/{withdrawalId}', { params: { path: { withdrawalId } } })),
    retry: false,
    // Followed until the payout ends.
    refetchInterval: (query) => (query.state.data && ['pending', 'processing'].includes(query.state.data.status) ? 2000 : false),
  });
  if (isNotFound(withdrawal.error)) return <NotFound />;
  const data = withdrawal.data;
  return (
    <>
      <PageHeader title={data ? `Withdrawal ${data.merchantReference}` : 'Withdrawal'} />
      <ErrorNotice error={withdrawal.error} />
      {data && (
        <dl className="details">
          <IdDetail id={data.withdrawalId} />
          <dt>Status</dt>
          <dd>
            <Status value={data.status} tone={toneOf(data.status)} />
            {data.failureMessage && (
              <span className="muted">
                {' '}
                {data.failureMessage} ({data.failureCode})
              </span>
            )}
          </dd>
          <dt>Amount</dt>
          <dd>{money(data.amount, data.currency)}</dd>
          <dt>Fee</dt>
          <dd>{money(data.fee, data.currency)}</dd>
          <dt>To</dt>
          <dd>
            {data.accountName} · {data.accountNumber} (bank {data.bankCode})
          </dd>
          <dt>Narration</dt>
          <dd>{data.narration ?? <span className="muted">—</span>}</dd>
          <dt>Created</dt>
          <dd>
            <Time iso={data.createdAt} />
          </dd>
          <dt>Completed</dt>
          <dd>
            <Time iso={data.completedAt} />
          </dd>
        </dl>
      )}
      <p>
        <Link to="/withdrawals">Every withdrawal</Link>
      </p>
    </>
  );
}
