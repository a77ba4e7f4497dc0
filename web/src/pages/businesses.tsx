import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Account, answer, Business, Collection, dashboard, isNotFound } from '../api';
import { IdLink } from '../components/id-link';
import { toneOf } from '../components/status';
import { PagedTable } from '../components/table';
import { CopyButton, EmptyState, ErrorNotice, FilterSelect, IdDetail, NotFound, PageHeader, Status, Time } from '../components/ui';
import { money } from '../format';
import { useOnce, useOperationKey } from '../once';
import { canWrite } from '../session';

const KYB_STATUSES = ['agreement_pending', 'not_started', 'processing', 'action_required', 'verified', 'declined'];

export function Businesses() {
  return (
    <>
      <PageHeader title="Businesses" />
      <FilterSelect label="KYB status" name="kybStatus" options={KYB_STATUSES} />
      <PagedTable<Business>
        path="/api/dashboard/businesses"
        caption="Businesses"
        rowKey={(row) => row.poboUserId}
        empty={<EmptyState title="No businesses yet">Your server onboards them through the Merchant API.</EmptyState>}
        columns={[
          { header: 'Name', cell: (row) => <Link to={`/businesses/${row.poboUserId}`}>{row.businessName}</Link> },
          { header: 'Agreement', cell: (row) => <Status value={row.agreement.status} tone={toneOf(row.agreement.status)} /> },
          { header: 'KYB', cell: (row) => <Status value={row.kyb.status} tone={toneOf(row.kyb.status)} /> },
          { header: 'Naira account', cell: (row) => <Status value={row.nairaCollectionStatus} tone={toneOf(row.nairaCollectionStatus)} /> },
          { header: 'Created', cell: (row) => <Time iso={row.createdAt} /> },
        ]}
      />
    </>
  );
}

/** One of the merchant's businesses, read again every 2 s while `following` holds for it. */
export function useBusiness(poboUserId: string, following: (business: Business | undefined) => boolean = () => false) {
  return useQuery({
    queryKey: ['business', poboUserId],
    queryFn: () => answer(dashboard.GET('/api/dashboard/businesses/{poboUserId}', { params: { path: { poboUserId } } })),
    retry: false,
    refetchInterval: (query) => (following(query.state.data) ? 2000 : false),
  });
}

export function BusinessPage({ account }: { account: Account }) {
  const { poboUserId = '' } = useParams();
  // While the provider reviews the application, the page follows it to its verdict.
  const business = useBusiness(poboUserId, (data) => data?.kyb.status === 'processing');
  if (isNotFound(business.error)) return <NotFound />;
  const data = business.data;
  return (
    <>
      <PageHeader title={data?.businessName ?? 'Business'} />
      <ErrorNotice error={business.error} />
      {data && (
        <dl className="details">
          <dt>Agreement</dt>
          <dd>
            <Status value={data.agreement.status} tone={toneOf(data.agreement.status)} />
            {data.agreement.status !== 'accepted' && canWrite(account, 'owner') && <FreshAgreementLink poboUserId={data.poboUserId} />}
          </dd>
          <dt>KYB</dt>
          <dd>
            <Status value={data.kyb.status} tone={toneOf(data.kyb.status)} />
            {data.kyb.lastSyncedAt && (
              <>
                {' '}
                checked <Time iso={data.kyb.lastSyncedAt} />
              </>
            )}
            {data.kyb.pendingRequirements.length > 0 && (
              <ul>
                {data.kyb.pendingRequirements.map((requirement) => (
                  <li key={`${requirement.code}:${requirement.field}`}>
                    <code>{requirement.field}</code>: {requirement.message}
                  </li>
                ))}
              </ul>
            )}
          </dd>
          <dt>Naira account</dt>
          <dd>
            {data.nairaAccount ? (
              <>
                {data.nairaAccount.bankName} {data.nairaAccount.accountNumber} ({data.nairaAccount.accountName})
                <br />
                <Link to={`/businesses/${data.poboUserId}/collections`}>Transfers into this account</Link>
              </>
            ) : (
              <Status value={data.nairaCollectionStatus} tone={toneOf(data.nairaCollectionStatus)} />
            )}
          </dd>
          <dt>Wallets</dt>
          <dd>
            EVM <code>{data.wallets.evm.address}</code>
            <br />
            Solana <code>{data.wallets.svm.address}</code>
            <br />
            <Link to={`/businesses/${data.poboUserId}/vault`}>Open the vault: USDC balances, transactions and transfers</Link>
          </dd>
          <dt>Country</dt>
          <dd>{data.country}</dd>
          <dt>Created</dt>
          <dd>
            <Time iso={data.createdAt} />
          </dd>
        </dl>
      )}
    </>
  );
}

/**
 * A fresh agreement link for the business to open (the earlier ones stop working): the service
 * keeps only a hash of its token, so the link is shown here once, to copy and send.
 */
function FreshAgreementLink({ poboUserId }: { poboUserId: string }) {
  const client = useQueryClient();
  const [key, nextKey] = useOperationKey();
  const once = useOnce();
  const issue = useMutation({
    mutationFn: () =>
      answer(dashboard.POST('/api/dashboard/businesses/{poboUserId}/agreement-link', { params: { path: { poboUserId }, header: { 'Idempotency-Key': key } } })),
    onSuccess: (business) => {
      nextKey();
      client.setQueryData(['business', poboUserId], business);
    },
  });
  const url = issue.data?.agreement.url;
  return (
    <div className="agreement-link">
      <button type="button" className="secondary" onClick={() => once(() => issue.mutateAsync())} disabled={issue.isPending}>
        Issue a fresh agreement link
      </button>
      {url && (
        <p role="status">
          New link (earlier links no longer work): <a href={url}>{url}</a> <CopyButton text={url} label="Copy the link" />
        </p>
      )}
      <ErrorNotice error={issue.error} />
    </div>
  );
}

/** Every transfer into a business's own Naira account: credited to the balance, or returned to its sender. */
export function BusinessCollections() {
  const { poboUserId = '' } = useParams();
  const business = useBusiness(poboUserId);
  if (isNotFound(business.error)) return <NotFound />;
  const name = business.data?.businessName;
  return (
    <>
      <PageHeader title={name ? `Collections of ${name}` : 'Collections'} />
      <ErrorNotice error={business.error} />
      <p>
        <Link to={`/businesses/${poboUserId}`}>Back to the business</Link>
      </p>
      <PagedTable<Collection>
        path="/api/dashboard/businesses/{poboUserId}/collections"
        pathParams={{ poboUserId }}
        caption={name ? `Transfers into the Naira account of ${name}` : 'Transfers into the Naira account'}
        rowKey={(row) => row.collectionId}
        empty={<EmptyState title="No transfers yet">Transfers into the business's Naira account show here, each credited to your balance.</EmptyState>}
        columns={[
          { header: 'Received', cell: (row) => <Time iso={row.receivedAt} /> },
          { header: 'Amount', className: 'amount', cell: (row) => money(row.amount, row.currency) },
          { header: 'From', cell: (row) => `${row.senderName} · ${row.senderBankName} ${row.senderAccountNumber}` },
          { header: 'Narration', cell: (row) => row.narration ?? '' },
          {
            header: 'Status',
            cell: (row) => (
              <>
                <Status value={row.status} tone={toneOf(row.status)} />
                {row.returnReason && <span className="muted"> ({row.returnReason})</span>}
              </>
            ),
          },
          { header: 'Id', cell: (row) => <IdLink id={row.collectionId} /> },
        ]}
      />
    </>
  );
}

/** One transfer into a business's Naira account (a balance transaction's source). */
export function CollectionPage() {
  const { collectionId = '' } = useParams();
  const collection = useQuery({
    queryKey: ['collection', collectionId],
    queryFn: () => answer(dashboard.GET('/api/dashboard/collections/{collectionId}', { params: { path: { collectionId } } })),
    retry: false,
  });
  if (isNotFound(collection.error)) return <NotFound />;
  const data = collection.data;
  return (
    <>
      <PageHeader title={data ? `Transfer of ${money(data.amount, data.currency)}` : 'Transfer'} />
      <ErrorNotice error={collection.error} />
      {data && (
        <dl className="details">
          <IdDetail id={data.collectionId} />
          <dt>Status</dt>
          <dd>
            <Status value={data.status} tone={toneOf(data.status)} />
            {data.returnReason && <span className="muted"> ({data.returnReason})</span>}
          </dd>
          <dt>Into</dt>
          <dd>
            <IdLink id={data.poboUserId} /> <Link to={`/businesses/${data.poboUserId}/collections`}>(every transfer into its account)</Link>
          </dd>
          <dt>From</dt>
          <dd>
            {data.senderName} · {data.senderBankName} {data.senderAccountNumber}
          </dd>
          <dt>Narration</dt>
          <dd>{data.narration ?? <span className="muted">—</span>}</dd>
          <dt>Received</dt>
          <dd>
            <Time iso={data.receivedAt} />
          </dd>
        </dl>
      )}
    </>
  );
}
