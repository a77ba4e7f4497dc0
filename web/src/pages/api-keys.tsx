import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Account, answer, ApiKey, ApiKeyPermission, Body, dashboard, IssuedApiKey } from '../api';
import { Column, PagedTable } from '../components/table';
import { CopyButton, EmptyState, ErrorNotice, Field, PageHeader, Status, Time } from '../components/ui';
import { canWrite } from '../session';

const TONE = { active: 'good', expiring: 'warn', expired: 'neutral', revoked: 'bad' } as const;

/** Each permission as the service names it, with what it allows. */
const PERMISSIONS: { value: ApiKeyPermission; label: string; hint: string }[] = [
  { value: 'read', label: 'Read', hint: 'every GET' },
  { value: 'write', label: 'Write', hint: 'businesses, KYB, quotes, new payment intents, test helpers' },
  { value: 'move_money', label: 'Move money', hint: 'withdrawals, confirmations, international payments, vault transfers' },
];

/** The merchant's API keys: everyone sees them (never a secret); owners and developers create, roll and revoke. */
export function ApiKeys({ account }: { account: Account }) {
  const client = useQueryClient();
  const [issued, setIssued] = useState<IssuedApiKey | null>(null);
  const writer = canWrite(account, 'owner', 'developer');
  // A developer may make, roll and revoke only keys that cannot move money.
  const grantable = PERMISSIONS.filter((permission) => account.user.role === 'owner' || permission.value !== 'move_money');
  const mayHandle = (key: ApiKey) => key.permissions.every((permission) => grantable.some((g) => g.value === permission));
  const refresh = () => void client.invalidateQueries({ queryKey: ['/api/dashboard/api-keys'] });
  const create = useMutation({
    mutationFn: (body: Body<'CreateApiKeyDto'>) => answer(dashboard.POST('/api/dashboard/api-keys', { body })),
    onSuccess: (key) => {
      setIssued(key);
      refresh();
    },
  });
  const roll = useMutation({
    mutationFn: ({ apiKeyId, hours }: { apiKeyId: string; hours: number }) =>
      answer(dashboard.POST('/api/dashboard/api-keys/{apiKeyId}/roll', { params: { path: { apiKeyId } }, body: { expiresInHours: hours } })),
    onSuccess: (key) => {
      setIssued(key);
      refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (apiKeyId: string) => answer(dashboard.DELETE('/api/dashboard/api-keys/{apiKeyId}', { params: { path: { apiKeyId } } })),
    onSuccess: refresh,
  });
  const columns: Column<ApiKey>[] = [
    { header: 'Name', cell: (key) => key.name },
    {
      header: 'Key',
      cell: (key) => (
        <code>
          {key.prefix}_…{key.lastFour}
        </code>
      ),
    },
    { header: 'Permissions', cell: (key) => key.permissions.map((p) => PERMISSIONS.find((known) => known.value === p)?.label ?? p).join(', ') },
    {
      header: 'Status',
      cell: (key) => (
        <>
          <Status value={key.status} tone={TONE[key.status]} />
          {key.expiresAt && key.status === 'expiring' && (
            <>
              {' '}
              until <Time iso={key.expiresAt} />
            </>
          )}
        </>
      ),
    },
    {
      header: 'Created',
      cell: (key) => (
        <>
          <Time iso={key.createdAt} /> {key.createdBy ? `by ${key.createdBy.email}` : 'by an operator'}
        </>
      ),
    },
    { header: 'Last used', cell: (key) => <Time iso={key.lastUsedAt} /> },
  ];
  if (writer) {
    columns.push({
      header: 'Actions',
      className: 'actions',
      cell: (key) =>
        mayHandle(key) && (
          <>
            {key.status === 'active' && (
              <>
                <button type="button" className="secondary" onClick={() => roll.mutate({ apiKeyId: key.apiKeyId, hours: 1 })}>
                  Roll (old key works 1 hour)
                </button>
                <button type="button" className="secondary" onClick={() => roll.mutate({ apiKeyId: key.apiKeyId, hours: 0 })}>
                  Roll now
                </button>
              </>
            )}
            {(key.status === 'active' || key.status === 'expiring') && (
              <button type="button" className="danger" onClick={() => revoke.mutate(key.apiKeyId)}>
                Revoke
              </button>
            )}
          </>
        ),
    });
  }

  return (
    <>
      <PageHeader title="API keys" />
      <p>Your servers call the Merchant API with these keys. A key's secret is shown once, when it is made: copy it then.</p>
      {issued && (
        <section className="notice good" aria-labelledby="issued-title">
          <h2 id="issued-title">Your new key “{issued.name}”</h2>
          <p>Copy it now: it is never shown again.</p>
          <p>
            <code className="secret" data-testid="issued-key">
              {issued.apiKey}
            </code>{' '}
            <CopyButton text={issued.apiKey} label="Copy key" />
          </p>
          <button type="button" className="secondary" onClick={() => setIssued(null)}>
            Done
          </button>
        </section>
      )}
      {writer && (
        <form
          className="inline-form"
          aria-label="Create an API key"
          onSubmit={(event) => {
            event.preventDefault();
            const form = new FormData(event.currentTarget);
            const name = form.get('name');
            create.mutate({
              name: typeof name === 'string' ? name : '',
              permissions: form.getAll('permissions').filter((p): p is ApiKeyPermission => typeof p === 'string'),
            });
            event.currentTarget.reset();
          }}
        >
          <Field label="Name of a new key" name="name" required hint="What you call it, e.g. “Production server”." />
          <fieldset className="permissions">
            <legend>Permissions</legend>
            {grantable.map((permission) => (
              <label key={permission.value}>
                <input type="checkbox" name="permissions" value={permission.value} defaultChecked /> {permission.label}{' '}
                <span className="hint">({permission.hint})</span>
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={create.isPending}>
            Create key
          </button>
        </form>
      )}
      <ErrorNotice error={create.error ?? roll.error ?? revoke.error} />
      <PagedTable<ApiKey>
        path="/api/dashboard/api-keys"
        caption="API keys"
        rowKey={(key) => key.apiKeyId}
        columns={columns}
        empty={
          <EmptyState title="No API keys yet">
            {writer ? <p>Create one above, then give it to your server.</p> : <p>Ask an owner or a developer of your team to create one.</p>}
          </EmptyState>
        }
      />
    </>
  );
}
