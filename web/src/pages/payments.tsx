import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Account, answer, dashboard, isNotFound, PaymentIntent } from '../api';
import { toneOf } from '../components/status';
import { PagedTable } from '../components/table';
import { EmptyState, ErrorNotice, Field, formValues, IdDetail, NotFound, PageHeader, Status, Time } from '../components/ui';
import { money, subtractMoney } from '../format';
import { useOnce, useOperationKey } from '../once';
import { canWrite } from '../session';

const PAYMENT_INTENT_STATUSES = ['awaiting_payment', 'funds_received', 'succeeded', 'expired'];
/** The instant a day picked in the viewer's time zone starts, `days` later (what the API's window takes). */
function dayStart(day: string, days = 0): string {
  const start = new Date(`${day}T00:00:00`);
  start.setDate(start.getDate() + days);
  return start.toISOString();
}

/** The viewer's local day of an instant, for a date input; `endOfWindow`: the window ends at the next day's start, so its day is the one before. */
function localDay(iso: string | null, endOfWindow = false): string {
  if (!iso) return '';
  const date = new Date(new Date(iso).getTime() - (endOfWindow ? 1 : 0));
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

export function PaymentIntents() {
  const [params, setParams] = useSearchParams();
  const applyFilters = (form: HTMLFormElement) => {
    const values = formValues(form);
    const next = new URLSearchParams();
    if (values.status) next.set('status', values.status);
    if (values.merchantReference) next.set('merchantReference', values.merchantReference.trim());
    if (values.from) next.set('createdAfter', dayStart(values.from));
    // The whole last day: up to the next day's start.
    if (values.to) next.set('createdBefore', dayStart(values.to, 1));
    setParams(next);
  };
  return (
    <>
      <PageHeader title="Payment intents" />
      <form
        className="inline-form"
        aria-label="Filter payment intents"
        onSubmit={(event) => {
          event.preventDefault();
          applyFilters(event.currentTarget);
        }}
      >
        <div className="field">
          <label htmlFor="filter-status">Status</label>
          <select id="filter-status" name="status" defaultValue={params.get('status') ?? ''}>
            <option value="">Any</option>
            {PAYMENT_INTENT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </div>
        <Field label="Reference" name="merchantReference" defaultValue={params.get('merchantReference') ?? ''} />
        <Field label="Created from" name="from" type="date" defaultValue={localDay(params.get('createdAfter'))} />
        <Field label="Created to" name="to" type="date" defaultValue={localDay(params.get('createdBefore'), true)} />
        <button type="submit" className="secondary">
          Filter
        </button>
      </form>
      <PagedTable<PaymentIntent>
        path="/api/dashboard/payment-intents"
        caption="Payment intents"
        rowKey={(row) => row.paymentIntentId}
        empty={<EmptyState title="No payment intents yet">Your server creates them through the Merchant API.</EmptyState>}
        columns={[
          { header: 'Reference', cell: (row) => <Link to={`/payment-intents/${row.paymentIntentId}`}>{row.merchantReference}</Link> },
          { header: 'Amount', className: 'amount', cell: (row) => money(row.amount, row.currency) },
          { header: 'Status', cell: (row) => <Status value={row.status} tone={toneOf(row.status)} /> },
          { header: 'Created', cell: (row) => <Time iso={row.createdAt} /> },
        ]}
      />
    </>
  );
}

export function PaymentIntentPage({ account }: { account: Account }) {
  const { paymentIntentId = '' } = useParams();
  const client = useQueryClient();
  // One key for this page's confirmation: clicked twice, it confirms once.
  const [confirmKey] = useOperationKey();
  const once = useOnce();
  // After a test transfer: how many payments the intent had, so the page polls until the next one shows.
  const [watchFrom, setWatchFrom] = useState<number | null>(null);
  const intent = useQuery({
    queryKey: ['payment-intent', paymentIntentId],
    queryFn: () => answer(dashboard.GET('/api/dashboard/payment-intents/{paymentIntentId}', { params: { path: { paymentIntentId } } })),
    retry: false,
    refetchInterval: (query) => (watchFrom !== null && (query.state.data?.payments.length ?? 0) <= watchFrom ? 1000 : false),
  });
  const confirm = useMutation({
    mutationFn: () =>
      answer(
        dashboard.POST('/api/dashboard/payment-intents/{paymentIntentId}/confirm', {
          params: { path: { paymentIntentId }, header: { 'Idempotency-Key': confirmKey } },
          body: {},
        }),
      ),
    onSuccess: (confirmed) => client.setQueryData(['payment-intent', paymentIntentId], confirmed),
  });
  if (isNotFound(intent.error)) return <NotFound />;
  const data = intent.data;
  return (
    <>
      <PageHeader title={data ? `Payment intent ${data.merchantReference}` : 'Payment intent'} />
      <ErrorNotice error={intent.error} />
      {data && (
        <>
          <p>
            {money(data.amount, data.currency)} <Status value={data.status} tone={toneOf(data.status)} /> · received {money(data.amountReceived, data.currency)}
          </p>
          {data.status === 'funds_received' && canWrite(account, 'owner') && (
            <p>
              <button type="button" onClick={() => once(() => confirm.mutateAsync())} disabled={confirm.isPending}>
                Confirm the payment
              </button>{' '}
              <span className="muted">Credits your balance with {money(data.amount, data.currency)}.</span>
            </p>
          )}
          <ErrorNotice error={confirm.error} />
          <dl className="details">
            <IdDetail id={data.paymentIntentId} />
            <dt>Your reference</dt>
            <dd>{data.merchantReference}</dd>
            <dt>Pay into</dt>
            <dd>
              {data.virtualAccount.bankName} {data.virtualAccount.accountNumber} ({data.virtualAccount.accountName})
            </dd>
            <dt>Expires</dt>
            <dd>
              <Time iso={data.expiresAt} />
            </dd>
          </dl>
          {account.merchant.mode === 'test' && data.status === 'awaiting_payment' && canWrite(account, 'owner', 'developer') && (
            <TestHelpersPanel intent={data} onSent={() => setWatchFrom(data.payments.length)} />
          )}
          <h2>Timeline</h2>
          <ol className="timeline">
            <li>
              Created <Time iso={data.createdAt} />
            </li>
            {data.payments.map((payment) => (
              <li key={payment.paymentId}>
                Transfer of {money(payment.amount, data.currency)} from {payment.senderBankName} {payment.senderAccountNumber}{' '}
                <Status value={payment.status} tone={toneOf(payment.status)} /> <Time iso={payment.receivedAt} />
                {payment.returnReason && <span className="muted"> ({payment.returnReason})</span>}
              </li>
            ))}
            {data.fundedAt && (
              <li>
                Funds received <Time iso={data.fundedAt} />
              </li>
            )}
            {data.confirmedAt && (
              <li>
                Confirmed <Time iso={data.confirmedAt} />
              </li>
            )}
            {data.status === 'expired' && (
              <li>
                Expired <Time iso={data.expiresAt} />
              </li>
            )}
          </ol>
        </>
      )}
    </>
  );
}

/**
 * Test mode only: sends a transfer into the intent's account through the sandbox bank rail, which
 * notifies the service by its signed callback as a real bank does; the timeline shows it then.
 */
function TestHelpersPanel({ intent, onSent }: { intent: PaymentIntent; onSent: () => void }) {
  const [key, nextKey] = useOperationKey();
  const once = useOnce();
  const fund = useMutation({
    mutationFn: (amount: number) =>
      answer(
        dashboard.POST('/api/dashboard/test-helpers/payment-intents/{paymentIntentId}/fund', {
          params: { path: { paymentIntentId: intent.paymentIntentId }, header: { 'Idempotency-Key': key } },
          body: { amount },
        }),
      ),
    onSuccess: () => {
      nextKey();
      onSent();
    },
  });
  return (
    <section className="panel test-helpers" aria-labelledby="test-helpers-title">
      <h2 id="test-helpers-title">Test helpers</h2>
      <p className="muted">Test mode: sandbox money only. The transfer arrives as a bank's would, by the rail's signed callback.</p>
      <form
        className="inline-form"
        aria-label="Send a test transfer"
        onSubmit={(event) => {
          event.preventDefault();
          const amount = Number(formValues(event.currentTarget).amount);
          once(() => fund.mutateAsync(amount));
        }}
      >
        <Field
          label={`Amount (${intent.currency})`}
          name="amount"
          inputMode="decimal"
          required
          defaultValue={subtractMoney(intent.amount, intent.amountReceived, intent.currency)}
        />
        <button type="submit">Send a test transfer</button>
      </form>
      {fund.isSuccess && <p role="status">Test transfer of {money(fund.data.amount, intent.currency)} sent: waiting for the bank&apos;s callback.</p>}
      <ErrorNotice error={fund.error} />
    </section>
  );
}
