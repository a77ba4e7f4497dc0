import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, ApiError, Business } from '../api';
import { toneOf } from '../components/status';
import { EmptyState, ErrorNotice, PageHeader, Pager, Status, Time } from '../components/ui';
import { NotFound } from './overview';

export function Businesses() {
  const [params] = useSearchParams();
  const businesses = useQuery({ queryKey: ['businesses', params.toString()], queryFn: () => api.page<Business>('/businesses', params) });
  return (
    <>
      <PageHeader title="Businesses" />
      <ErrorNotice error={businesses.error} />
      {businesses.data?.items.length === 0 && <EmptyState title="No businesses yet">Your server onboards them through the Merchant API.</EmptyState>}
      {businesses.data && businesses.data.items.length > 0 && (
        <table>
          <caption className="visually-hidden">Businesses</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Agreement</th>
              <th scope="col">KYB</th>
              <th scope="col">Naira account</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {businesses.data.items.map((business) => (
              <tr key={business.poboUserId}>
                <td>
                  <Link to={`/businesses/${business.poboUserId}`}>{business.businessName}</Link>
                </td>
                <td>
                  <Status value={business.agreement.status} tone={toneOf(business.agreement.status)} />
                </td>
                <td>
                  <Status value={business.kyb.status} tone={toneOf(business.kyb.status)} />
                </td>
                <td>
                  <Status value={business.nairaCollectionStatus} tone={toneOf(business.nairaCollectionStatus)} />
                </td>
                <td>
                  <Time iso={business.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager nextCursor={businesses.data?.nextCursor} />
    </>
  );
}

export function BusinessPage() {
  const { poboUserId = '' } = useParams();
  const business = useQuery({ queryKey: ['business', poboUserId], queryFn: () => api.get<Business>(`/businesses/${poboUserId}`), retry: false });
  if (business.error instanceof ApiError && business.error.status === 404) return <NotFound />;
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
              `${data.nairaAccount.bankName} ${data.nairaAccount.accountNumber} (${data.nairaAccount.accountName})`
            ) : (
              <Status value={data.nairaCollectionStatus} tone={toneOf(data.nairaCollectionStatus)} />
            )}
          </dd>
          <dt>Wallets</dt>
          <dd>
            EVM <code>{data.wallets.evm.address}</code>
            <br />
            Solana <code>{data.wallets.svm.address}</code>
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
