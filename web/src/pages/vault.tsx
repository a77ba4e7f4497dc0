import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Account, answer, Body, dashboard, formBody, isNotFound, Vault, VaultHolder, VaultTransaction } from '../api';
import { IdLink } from '../components/id-link';
import { toneOf } from '../components/status';
import { DataTable, PagedTable } from '../components/table';
import { CopyButton, EmptyState, ErrorNotice, Field, formValues, Hash, IdDetail, NotFound, PageHeader, Status, Time } from '../components/ui';
import { usdc } from '../format';
import { useOnce, useOperationKey } from '../once';
import { canWrite } from '../session';
import { useBusiness } from './businesses';

const UNDER_WAY = new Set(['pending', 'submitted']);
/** How long the page keeps reading after a deposit or transfer was sent: the chain shows it within a few blocks. */
const EXPECT_FOR_MS = 60_000;

/** Whether something sent from this page may still be on its way to it; `expect()` starts a window. */
function useExpecting(): [boolean, () => void] {
  const [until, setUntil] = useState(0);
  const [, tick] = useState(0);
  useEffect(() => {
    if (until === 0) return undefined;
    const timer = setTimeout(() => tick((n) => n + 1), Math.max(until - Date.now(), 0));
    return () => clearTimeout(timer);
  }, [until]);
  return [until > Date.now(), () => setUntil(Date.now() + EXPECT_FOR_MS)];
}

/** A business's vault: its USDC wallet and balances on each chain, its transactions, and (for owners) a transfer out. */
export function VaultPage({ account }: { account: Account }) {
  const { poboUserId = '' } = useParams();
  const client = useQueryClient();
  const path = `/businesses/${poboUserId}/vault`;
  const [expecting, expect] = useExpecting();
  const vault = useQuery({
    queryKey: [path],
    queryFn: () => answer(dashboard.GET('/api/dashboard/businesses/{poboUserId}/vault', { params: { path: { poboUserId } } })),
    retry: false,
    // While a deposit or transfer is on its way, or a deposit waits for its confirmations, the balances follow it.
    refetchInterval: (query) => (expecting || query.state.data?.balances.some((balance) => balance.pending > 0) ? 2000 : false),
  });
  const business = useBusiness(poboUserId);
  if (isNotFound(vault.error)) return <NotFound />;
  const refresh = () => {
    expect();
    void client.invalidateQueries({
      predicate: (query) => [path, '/api/dashboard/businesses/{poboUserId}/vault/transactions'].includes(String(query.queryKey[0])),
    });
  };
  return (
    <>
      <PageHeader title={business.data ? `Vault of ${business.data.businessName}` : 'Vault'}>
        <Link to={`/businesses/${poboUserId}`}>Back to the business</Link>
      </PageHeader>
      <ErrorNotice error={vault.error} />
      {vault.data && (
        <DataTable
          caption="Wallets and USDC balances by chain"
          rows={vault.data.wallets.map((wallet) => ({ ...wallet, ...vault.data.balances.find((balance) => balance.chain === wallet.chain)! }))}
          rowKey={(row) => row.chain}
          columns={[
            { header: 'Chain', cell: (row) => row.chain },
            {
              header: 'Address',
              cell: (row) => (
                <>
                  <code>{row.address}</code> <CopyButton text={row.address} label={`Copy the ${row.chain} address`} />
                </>
              ),
            },
            { header: 'Available', className: 'amount', cell: (row) => usdc(row.available) },
            { header: 'Pending', className: 'amount', cell: (row) => usdc(row.pending) },
          ]}
        />
      )}
      {vault.data && canWrite(account, 'owner') && <TransferForm vault={vault.data} onCreated={refresh} />}
      {vault.data && account.merchant.mode === 'test' && canWrite(account, 'owner', 'developer') && <TestDepositPanel vault={vault.data} onSent={refresh} />}
      <h2>Transactions</h2>
      <PagedTable<VaultTransaction>
        path="/api/dashboard/businesses/{poboUserId}/vault/transactions"
        pathParams={{ poboUserId }}
        caption="Vault transactions"
        rowKey={(row) => row.vaultTransactionId}
        follow={{ everyMs: 2000, following: (row) => UNDER_WAY.has(row.status), expecting }}
        empty={<EmptyState title="Nothing in this vault yet">Send USDC to one of its addresses: deposits show here as the chain shows them.</EmptyState>}
        columns={[
          { header: 'When', cell: (row) => <Time iso={row.createdAt} /> },
          { header: 'Direction', cell: (row) => row.direction },
          { header: 'Chain', cell: (row) => row.chain },
          { header: 'Amount', className: 'amount', cell: (row) => usdc(row.amount) },
          { header: 'Fee', className: 'amount', cell: (row) => usdc(row.networkFee) },
          {
            header: 'Status',
            cell: (row) => (
              <>
                <Status value={row.status} tone={toneOf(row.status)} />
                {UNDER_WAY.has(row.status) && <span className="muted"> {row.confirmations} confirmations</span>}
              </>
            ),
          },
          { header: 'Transaction', cell: (row) => (row.txHash ? <Hash value={row.txHash} label="Copy the hash" explorerUrl={row.explorerUrl} /> : '—') },
        ]}
      />
    </>
  );
}

/** A chain picker of the vault's chains. */
function ChainSelect({ vault, label }: { vault: Vault; label: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name="chain" defaultValue={vault.wallets[0]?.chain}>
        {vault.wallets.map((wallet) => (
          <option key={wallet.chain} value={wallet.chain}>
            {wallet.chain}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A transfer out, through the merchant API's operation: one Idempotency-Key per transfer, so a double click sends one. */
function TransferForm({ vault, onCreated }: { vault: Vault; onCreated: () => void }) {
  const [key, nextKey] = useOperationKey();
  const once = useOnce();
  const create = useMutation({
    mutationFn: (values: Record<string, string>) =>
      answer(
        dashboard.POST('/api/dashboard/vault-transfers', {
          params: { header: { 'Idempotency-Key': key } },
          body: { ...formBody<'CreateVaultTransferDto'>(values), poboUserId: vault.poboUserId, asset: 'USDC', amount: Number(values.amount) },
        }),
      ),
    onSuccess: () => {
      nextKey();
      onCreated();
    },
  });
  return (
    <section aria-labelledby="transfer-title">
      <h2 id="transfer-title">Send USDC</h2>
      <form
        className="inline-form"
        aria-label="Send USDC from this vault"
        onSubmit={(event) => {
          event.preventDefault();
          const values = formValues(event.currentTarget);
          once(() => create.mutateAsync(values));
        }}
      >
        <ChainSelect vault={vault} label="Chain" />
        <Field label="Amount (USDC)" name="amount" inputMode="decimal" required />
        <Field label="To address" name="toAddress" required hint="An address of that chain" />
        <Field label="Your reference" name="merchantReference" required />
        <button type="submit">Send</button>
      </form>
      {create.isSuccess && (
        <p role="status">
          Transfer {create.data.merchantReference} of {usdc(create.data.amount)} (network fee {usdc(create.data.networkFee)}) created: {create.data.status}.
        </p>
      )}
      <ErrorNotice error={create.error} />
    </section>
  );
}

/** Test mode: the local chain's faucet sends USDC to the vault, a real transaction the worker then finds. */
function TestDepositPanel({ vault, onSent }: { vault: Vault; onSent: () => void }) {
  const [key, nextKey] = useOperationKey();
  const once = useOnce();
  const send = useMutation({
    mutationFn: (values: Record<string, string>) =>
      answer(
        dashboard.POST('/api/dashboard/test-helpers/vault/deposits', {
          params: { header: { 'Idempotency-Key': key } },
          body: { poboUserId: vault.poboUserId, chain: values.chain as Body<'SendTestDepositDto'>['chain'], amount: Number(values.depositAmount) },
        }),
      ),
    onSuccess: () => {
      nextKey();
      onSent();
    },
  });
  return (
    <section className="panel test-helpers" aria-labelledby="vault-test-helpers-title">
      <h2 id="vault-test-helpers-title">Test helpers</h2>
      <p className="muted">Test mode: the local chains&apos; USDC only. The deposit is a real transaction, credited at the chain&apos;s confirmation count.</p>
      <form
        className="inline-form"
        aria-label="Send a test deposit"
        onSubmit={(event) => {
          event.preventDefault();
          const values = formValues(event.currentTarget);
          once(() => send.mutateAsync(values));
        }}
      >
        <ChainSelect vault={vault} label="Deposit chain" />
        <Field label="Deposit amount (USDC)" name="depositAmount" inputMode="decimal" required defaultValue="100" />
        <button type="submit">Send a test deposit</button>
      </form>
      {send.isSuccess && (
        <p role="status">
          Test deposit of {usdc(send.data.amount)} sent on {send.data.chain}: waiting for its confirmations.
        </p>
      )}
      <ErrorNotice error={send.error} />
    </section>
  );
}

/** Every vault of the merchant: USDC on each chain summed, the businesses holding it, and the latest deposits and transfers. */
export function VaultOverview() {
  const totals = useQuery({ queryKey: ['/api/dashboard/vault'], queryFn: () => answer(dashboard.GET('/api/dashboard/vault')) });
  return (
    <>
      <PageHeader title="Vault" />
      <p className="muted">USDC the businesses hold in their vaults. Each business&apos;s own vault page has its addresses and sends transfers out.</p>
      <ErrorNotice error={totals.error} />
      {totals.data && (
        <DataTable
          caption="USDC on each chain, over every business"
          rows={[...totals.data.balances, { chain: 'All chains', asset: 'USDC', available: totals.data.available, pending: totals.data.pending }]}
          rowKey={(row) => row.chain}
          columns={[
            { header: 'Chain', cell: (row) => row.chain },
            { header: 'Available', className: 'amount', cell: (row) => usdc(row.available) },
            { header: 'Pending', className: 'amount', cell: (row) => usdc(row.pending) },
          ]}
        />
      )}
      <h2>Businesses holding USDC</h2>
      <PagedTable<VaultHolder>
        path="/api/dashboard/vault/businesses"
        caption="Businesses holding USDC"
        rowKey={(row) => row.poboUserId}
        empty={<EmptyState title="No business holds USDC yet">A business is listed here once a deposit to its vault is credited.</EmptyState>}
        columns={[
          { header: 'Business', cell: (row) => <Link to={`/businesses/${row.poboUserId}/vault`}>{row.businessName}</Link> },
          ...(totals.data?.balances ?? []).map(({ chain }) => ({
            header: chain,
            className: 'amount' as const,
            cell: (row: VaultHolder) => usdc(row.balances.find((balance) => balance.chain === chain)?.available ?? 0),
          })),
        ]}
      />
      <h2>Latest deposits and transfers</h2>
      <PagedTable<VaultTransaction>
        path="/api/dashboard/vault/transactions"
        caption="Vault transactions of every business"
        rowKey={(row) => row.vaultTransactionId}
        empty={<EmptyState title="No vault transaction yet" />}
        columns={[
          { header: 'When', cell: (row) => <Time iso={row.createdAt} /> },
          { header: 'What', cell: (row) => `${row.direction} on ${row.chain}` },
          { header: 'Business', cell: (row) => <IdLink id={row.poboUserId} /> },
          { header: 'Amount', className: 'amount', cell: (row) => usdc(row.amount) },
          { header: 'Status', cell: (row) => <Status value={row.status} tone={toneOf(row.status)} /> },
          { header: 'Transaction', cell: (row) => (row.txHash ? <Hash value={row.txHash} label="Copy the hash" explorerUrl={row.explorerUrl} /> : '—') },
        ]}
      />
    </>
  );
}

/** One transfer out of a vault, followed until the chain confirms or refuses it. */
export function VaultTransferPage() {
  const { vaultTransferId = '' } = useParams();
  const transfer = useQuery({
    queryKey: ['vault-transfer', vaultTransferId],
    queryFn: () => answer(dashboard.GET('/api/dashboard/vault-transfers/{vaultTransferId}', { params: { path: { vaultTransferId } } })),
    retry: false,
    refetchInterval: (query) => (query.state.data && UNDER_WAY.has(query.state.data.status) ? 2000 : false),
  });
  if (isNotFound(transfer.error)) return <NotFound />;
  const data = transfer.data;
  return (
    <>
      <PageHeader title={data ? `Vault transfer ${data.merchantReference}` : 'Vault transfer'} />
      <ErrorNotice error={transfer.error} />
      {data && (
        <dl className="details">
          <IdDetail id={data.vaultTransferId} />
          <dt>Status</dt>
          <dd>
            <Status value={data.status} tone={toneOf(data.status)} />
            {(data.failureReason ?? data.stalledReason) && <span className="muted"> {data.failureReason ?? data.stalledReason}</span>}
          </dd>
          <dt>Business</dt>
          <dd>
            <IdLink id={data.poboUserId} /> · <Link to={`/businesses/${data.poboUserId}/vault`}>its vault</Link>
          </dd>
          <dt>Amount</dt>
          <dd>
            {usdc(data.amount)} on {data.chain}
          </dd>
          <dt>Network fee</dt>
          <dd>{usdc(data.networkFee)}</dd>
          <dt>To</dt>
          <dd>
            <code>{data.toAddress}</code>
          </dd>
          <dt>Transaction</dt>
          <dd>
            {data.txHash ? <Hash value={data.txHash} label="Copy the hash" explorerUrl={data.explorerUrl} /> : <span className="muted">not signed yet</span>}
          </dd>
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
        <Link to="/vault">Every vault</Link>
      </p>
    </>
  );
}
