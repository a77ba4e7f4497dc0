import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { answer, dashboard, InternationalIntent, isNotFound, Quote } from '../api';
import { toneOf } from '../components/status';
import { PagedTable } from '../components/table';
import { IdLink } from '../components/id-link';
import { EmptyState, ErrorNotice, FilterSelect, IdDetail, NotFound, PageHeader, Status, Time } from '../components/ui';
import { money } from '../format';

const INTERNATIONAL_STATUSES = [
  'pending',
  'processing',
  'bridge_initiated',
  'bridge_confirmed',
  'withdrawal_initiated',
  'withdrawal_confirmed',
  'settled',
  'rejected',
];

/** What each move of the pipeline means, leg by leg. */
const STEP: Record<string, string> = {
  processing: 'Picked up for settlement',
  bridge_initiated: 'Bridge leg started',
  bridge_confirmed: 'Bridge leg confirmed',
  withdrawal_initiated: 'Payout leg started',
  withdrawal_confirmed: 'Payout leg confirmed',
  settled: 'Settled: the recipient has the money',
  rejected: 'Rejected: the reserved amount went back to the balance',
};

function Documents({ intent }: { intent: InternationalIntent }) {
  if (!intent.receiptUrl && !intent.telexUrl) return <span className="muted">—</span>;
  return (
    <>
      {intent.receiptUrl && <a href={intent.receiptUrl}>Receipt</a>} {intent.telexUrl && <a href={intent.telexUrl}>Telex</a>}
    </>
  );
}

export function InternationalIntents() {
  return (
    <>
      <PageHeader title="International payments">
        <Link to="/quotes">Quotes</Link>
      </PageHeader>
      <FilterSelect label="Status" name="status" options={INTERNATIONAL_STATUSES} />
      <PagedTable<InternationalIntent>
        path="/api/dashboard/international-payment-intents"
        caption="International payment intents"
        rowKey={(row) => row.intentId}
        empty={<EmptyState title="No international payments yet">Your server pays abroad with a quote and an international payment intent.</EmptyState>}
        columns={[
          {
            header: 'Recipient',
            cell: (row) => (
              <Link to={`/international/${row.intentId}`}>
                {row.recipientFullName} ({row.destinationCountry})
              </Link>
            ),
          },
          {
            header: 'Amount',
            className: 'amount',
            cell: (row) => (
              <>
                {money(row.amount, row.currency)} <span className="muted">for {money(row.sourceAmount, row.sourceCurrency)}</span>
              </>
            ),
          },
          {
            header: 'Status',
            cell: (row) => (
              <>
                <Status value={row.status} tone={toneOf(row.status)} />
                {row.adminNote && <span className="muted"> {row.adminNote}</span>}
              </>
            ),
          },
          { header: 'Created', cell: (row) => <Time iso={row.createdAt} /> },
          { header: 'Documents', cell: (row) => <Documents intent={row} /> },
        ]}
      />
    </>
  );
}

export function InternationalIntentPage() {
  const { intentId = '' } = useParams();
  const intent = useQuery({
    queryKey: ['international-intent', intentId],
    queryFn: () => answer(dashboard.GET('/api/dashboard/international-payment-intents/{intentId}', { params: { path: { intentId } } })),
    retry: false,
  });
  const timeline = useQuery({
    queryKey: ['international-intent', intentId, 'timeline'],
    queryFn: () => answer(dashboard.GET('/api/dashboard/international-payment-intents/{intentId}/timeline', { params: { path: { intentId } } })),
    retry: false,
  });
  const quoteId = intent.data?.quoteId;
  const quote = useQuery({
    queryKey: ['quote', quoteId],
    queryFn: () => answer(dashboard.GET('/api/dashboard/quotes/{quoteId}', { params: { path: { quoteId: quoteId! } } })),
    enabled: quoteId !== undefined,
  });
  if (isNotFound(intent.error)) return <NotFound />;
  const data = intent.data;
  const option = quote.data?.options.find((candidate) => candidate.quoteOptionId === data?.quoteOptionId);
  return (
    <>
      <PageHeader title={data ? `Payment to ${data.recipientFullName}` : 'International payment'} />
      <ErrorNotice error={intent.error ?? timeline.error ?? quote.error} />
      {data && (
        <>
          <p>
            {money(data.amount, data.currency)} for {money(data.sourceAmount, data.sourceCurrency)} <Status value={data.status} tone={toneOf(data.status)} />
            {data.adminNote && <span className="muted"> {data.adminNote}</span>}
          </p>
          <dl className="details">
            <IdDetail id={data.intentId} />
            <dt>Business</dt>
            <dd>
              <IdLink id={data.poboUserId} />
            </dd>
            <dt>Quote expiry</dt>
            <dd>
              <Time iso={data.quoteExpiresAt} />
            </dd>
            <dt>Recipient</dt>
            <dd>
              {data.recipientFullName}, {data.destinationCountry} · {data.bankCodeType.toUpperCase()} <code>{data.bankCode}</code>
              {data.accountNumber && (
                <>
                  {' '}
                  account <code>{data.accountNumber}</code>
                </>
              )}
            </dd>
            <dt>Route</dt>
            <dd>
              {data.routeType.toUpperCase()}
              {option && (
                <>
                  {' '}
                  · rate {option.exchangeRate} · fee {money(option.fee, option.sourceCurrency)}
                </>
              )}{' '}
              · quote <code>{data.quoteId}</code>
            </dd>
            <dt>Purpose</dt>
            <dd>{data.purposeOfTransfer.replace(/_/g, ' ')}</dd>
            {data.paymentReference && (
              <>
                <dt>Reference</dt>
                <dd>{data.paymentReference}</dd>
              </>
            )}
            <dt>Documents</dt>
            <dd>
              <Documents intent={data} />
            </dd>
          </dl>
          <h2>Timeline</h2>
          <ol className="timeline">
            <li>
              Created, the amount reserved from your balance <Time iso={data.createdAt} />
            </li>
            {timeline.data?.map((step) => (
              <li key={`${step.status}:${step.at}`}>
                {STEP[step.status] ?? step.status.replace(/_/g, ' ')} <Status value={step.status} tone={toneOf(step.status)} /> <Time iso={step.at} />{' '}
                <span className="muted">({step.cause.replace(/_/g, ' ')})</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </>
  );
}

export function Quotes() {
  return (
    <>
      <PageHeader title="Quotes" />
      <p>Prices your server asked for, each route of a corridor at the rate of the moment; a quote holds 15 minutes and pays one intent.</p>
      <PagedTable<Quote>
        path="/api/dashboard/quotes"
        caption="Quotes"
        rowKey={(row) => row.quoteId}
        empty={<EmptyState title="No quotes yet">Your server asks for a quote before it pays abroad.</EmptyState>}
        columns={[
          { header: 'Quote', cell: (row) => <code>{row.quoteId}</code> },
          { header: 'To', cell: (row) => `${money(row.amount, row.currency)} to ${row.destinationCountry}` },
          {
            header: 'Routes',
            cell: (row) => (
              <ul className="plain">
                {row.options.map((option) => (
                  <li key={option.quoteOptionId}>
                    {option.routeType.toUpperCase()}: {money(option.sourceAmount, option.sourceCurrency)} at {option.exchangeRate}, fee{' '}
                    {money(option.fee, option.sourceCurrency)}
                  </li>
                ))}
              </ul>
            ),
          },
          { header: 'Created', cell: (row) => <Time iso={row.createdAt} /> },
          { header: 'Holds until', cell: (row) => <Time iso={row.expiresAt} /> },
        ]}
      />
    </>
  );
}
