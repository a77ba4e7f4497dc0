import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Account, api, ApiError, Balance, BalanceTransaction, InternationalIntent, PaymentIntent, Withdrawal } from '../api';
import { toneOf } from '../components/status';
import { EmptyState, ErrorNotice, Field, formValues, PageHeader, Pager, Status, Time } from '../components/ui';
import { money } from '../format';
import { canWrite } from '../session';
import { NotFound } from './overview';

/**
 * Runs a money-moving action once at a time: a second click while the first is on its way does
 * nothing (and were it sent, its Idempotency-Key would make it the same action).
 */
function useOnce(): (action: () => Promise<unknown>) => void {
  const inFlight = useRef(false);
  return (action) => {
    if (inFlight.current) return;
    inFlight.current = true;
    action()
      .catch(() => undefined)
      .finally(() => {
        inFlight.current = false;
      });
  };
}

export function BalancePage() {
  const [params] = useSearchParams();
  const balance = useQuery({ queryKey: ['balance'], queryFn: () => api.get<Balance[]>('/balance') });
  const transactions = useQuery({
    queryKey: ['balance-transactions', params.toString()],
    queryFn: () => api.page<BalanceTransaction>('/balance-transactions', params),
  });
  return (
    <>
      <PageHeader title="Balance">
        <a href="/api/dashboard/balance-transactions/export.csv" download>
          Export transactions (CSV)
        </a>
      </PageHeader>
      <ErrorNotice error={balance.error ?? transactions.error} />
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
      <h2>Balance transactions</h2>
      {transactions.data?.items.length === 0 && (
        <EmptyState title="No money has moved yet">Collect a payment: a confirmed payment intent credits the balance.</EmptyState>
      )}
      {transactions.data && transactions.data.items.length > 0 && (
        <table>
          <caption className="visually-hidden">Balance transactions</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Type</th>
              <th scope="col">Amount</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {transactions.data.items.map((row) => (
              <tr key={row.balanceTransactionId}>
                <td>
                  <Time iso={row.createdAt} />
                </td>
                <td>{row.type.replace(/_/g, ' ')}</td>
                <td className="amount">{money(row.amount, row.currency)}</td>
                <td>
                  <code>{row.sourceId}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager nextCursor={transactions.data?.nextCursor} />
    </>
  );
}

const PAYMENT_INTENT_STATUSES = ['awaiting_payment', 'funds_received', 'succeeded', 'expired'];

/** A day picked in the viewer's time zone, as the instant its local midnight is (what the API's window takes). */
function dayStart(day: string): string {
  return new Date(`${day}T00:00:00`).toISOString();
}

export function PaymentIntents() {
  const [params, setParams] = useSearchParams();
  const intents = useQuery({ queryKey: ['payment-intents', params.toString()], queryFn: () => api.page<PaymentIntent>('/payment-intents', params) });
  const applyFilters = (form: HTMLFormElement) => {
    const values = formValues(form);
    const next = new URLSearchParams();
    if (values.status) next.set('status', values.status);
    if (values.merchantReference) next.set('merchantReference', values.merchantReference.trim());
    if (values.from) next.set('createdAfter', dayStart(values.from));
    // The whole last day: up to the next day's start.
    if (values.to) next.set('createdBefore', new Date(new Date(`${values.to}T00:00:00`).getTime() + 86_400_000).toISOString());
    setParams(next);
  };
  const localDay = (iso: string | null, shift = 0) => {
    if (!iso) return '';
    const date = new Date(new Date(iso).getTime() - shift);
    return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
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
        <Field label="Created to" name="to" type="date" defaultValue={localDay(params.get('createdBefore'), 86_400_000)} />
        <button type="submit" className="secondary">
          Filter
        </button>
      </form>
      <ErrorNotice error={intents.error} />
      {intents.data?.items.length === 0 &&
        (params.toString() ? (
          <EmptyState title="No payment intents match these filters">Change or clear a filter.</EmptyState>
        ) : (
          <EmptyState title="No payment intents yet">Your server creates them through the Merchant API.</EmptyState>
        ))}
      {intents.data && intents.data.items.length > 0 && (
        <table>
          <caption className="visually-hidden">Payment intents</caption>
          <thead>
            <tr>
              <th scope="col">Reference</th>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {intents.data.items.map((intent) => (
              <tr key={intent.paymentIntentId}>
                <td>
                  <Link to={`/payment-intents/${intent.paymentIntentId}`}>{intent.merchantReference}</Link>
                </td>
                <td className="amount">{money(intent.amount, intent.currency)}</td>
                <td>
                  <Status value={intent.status} tone={toneOf(intent.status)} />
                </td>
                <td>
                  <Time iso={intent.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager nextCursor={intents.data?.nextCursor} />
    </>
  );
}

export function PaymentIntentPage({ account }: { account: Account }) {
  const { paymentIntentId = '' } = useParams();
  const client = useQueryClient();
  // One key for this page's confirmation: clicked twice, it confirms once.
  const [confirmKey] = useState(() => crypto.randomUUID());
  const once = useOnce();
  const intent = useQuery({
    queryKey: ['payment-intent', paymentIntentId],
    queryFn: () => api.get<PaymentIntent>(`/payment-intents/${paymentIntentId}`),
    retry: false,
  });
  const confirm = useMutation({
    mutationFn: () => api.postOnce<PaymentIntent>(`/payment-intents/${paymentIntentId}/confirm`, {}, confirmKey),
    onSuccess: (confirmed) => client.setQueryData(['payment-intent', paymentIntentId], confirmed),
  });
  if (intent.error instanceof ApiError && intent.error.status === 404) return <NotFound />;
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
          <p>
            Pay into {data.virtualAccount.bankName} {data.virtualAccount.accountNumber} ({data.virtualAccount.accountName})
          </p>
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

export function Withdrawals({ account }: { account: Account }) {
  const [params] = useSearchParams();
  const client = useQueryClient();
  // One key per withdrawal the form makes: a double click or a retry sends the same one, so one withdrawal.
  const [key, setKey] = useState(() => crypto.randomUUID());
  const once = useOnce();
  const withdrawals = useQuery({ queryKey: ['withdrawals', params.toString()], queryFn: () => api.page<Withdrawal>('/withdrawals', params) });
  const create = useMutation({
    mutationFn: (body: Record<string, string>) => api.postOnce<Withdrawal>('/withdrawals', { ...body, amount: Number(body.amount) }, key),
    onSuccess: () => {
      setKey(crypto.randomUUID());
      void client.invalidateQueries({ predicate: (query) => ['withdrawals', 'balance', 'balance-transactions'].includes(String(query.queryKey[0])) });
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
          <Field label="Amount (NGN)" name="amount" inputMode="numeric" required />
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
      <ErrorNotice error={withdrawals.error ?? create.error} />
      {withdrawals.data?.items.length === 0 && (
        <EmptyState title="No withdrawals yet">Withdrawals pay your available balance out to a Nigerian bank account.</EmptyState>
      )}
      {withdrawals.data && withdrawals.data.items.length > 0 && (
        <table>
          <caption className="visually-hidden">Withdrawals</caption>
          <thead>
            <tr>
              <th scope="col">Reference</th>
              <th scope="col">Amount</th>
              <th scope="col">To</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {withdrawals.data.items.map((withdrawal) => (
              <tr key={withdrawal.withdrawalId}>
                <td>{withdrawal.merchantReference}</td>
                <td className="amount">{money(withdrawal.amount, withdrawal.currency)}</td>
                <td>
                  {withdrawal.accountName} · {withdrawal.accountNumber}
                </td>
                <td>
                  <Status value={withdrawal.status} tone={toneOf(withdrawal.status)} />
                  {withdrawal.failureMessage && <span className="muted"> {withdrawal.failureMessage}</span>}
                </td>
                <td>
                  <Time iso={withdrawal.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager nextCursor={withdrawals.data?.nextCursor} />
    </>
  );
}

export function InternationalIntents() {
  const [params] = useSearchParams();
  const intents = useQuery({
    queryKey: ['international', params.toString()],
    queryFn: () => api.page<InternationalIntent>('/international-payment-intents', params),
  });
  return (
    <>
      <PageHeader title="International payments" />
      <ErrorNotice error={intents.error} />
      {intents.data?.items.length === 0 && (
        <EmptyState title="No international payments yet">Your server pays abroad with a quote and an international payment intent.</EmptyState>
      )}
      {intents.data && intents.data.items.length > 0 && (
        <table>
          <caption className="visually-hidden">International payment intents</caption>
          <thead>
            <tr>
              <th scope="col">Recipient</th>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Documents</th>
            </tr>
          </thead>
          <tbody>
            {intents.data.items.map((intent) => (
              <tr key={intent.intentId}>
                <td>
                  {intent.recipientFullName} ({intent.destinationCountry})
                </td>
                <td className="amount">
                  {money(intent.amount, intent.currency)} <span className="muted">for {money(intent.sourceAmount, intent.sourceCurrency)}</span>
                </td>
                <td>
                  <Status value={intent.status} tone={toneOf(intent.status)} />
                  {intent.adminNote && <span className="muted"> {intent.adminNote}</span>}
                </td>
                <td>
                  <Time iso={intent.createdAt} />
                </td>
                <td>
                  {intent.receiptUrl && <a href={intent.receiptUrl}>Receipt</a>} {intent.telexUrl && <a href={intent.telexUrl}>Telex</a>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager nextCursor={intents.data?.nextCursor} />
    </>
  );
}
