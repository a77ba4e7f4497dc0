import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, AuditEntry } from '../api';
import { EmptyState, ErrorNotice, PageHeader, Pager, Time } from '../components/ui';

/** The audit log, filtered by action and user, the filters and the page in the URL. Owners only. */
export function AuditLog() {
  const [params, setParams] = useSearchParams();
  const entries = useQuery({ queryKey: ['audit-log', params.toString()], queryFn: () => api.page<AuditEntry>('/audit-log', params) });
  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    next.delete('cursor');
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next);
  };
  return (
    <>
      <PageHeader title="Audit log" />
      <p>Every change made from the dashboard, and every sign-in, with who, what, when and from where.</p>
      <form className="inline-form" aria-label="Filter the audit log" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor="filter-action">Action</label>
          <input
            id="filter-action"
            defaultValue={params.get('action') ?? ''}
            placeholder="api_key.created"
            onBlur={(event) => setFilter('action', event.target.value.trim())}
          />
        </div>
        <div className="field">
          <label htmlFor="filter-user">User id</label>
          <input
            id="filter-user"
            defaultValue={params.get('userId') ?? ''}
            placeholder="usr_…"
            onBlur={(event) => setFilter('userId', event.target.value.trim())}
          />
        </div>
      </form>
      <ErrorNotice error={entries.error} />
      {entries.data && entries.data.items.length === 0 && <EmptyState title="Nothing recorded for these filters">Clear a filter to see more.</EmptyState>}
      {entries.data && entries.data.items.length > 0 && (
        <table>
          <caption className="visually-hidden">Audit log</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">Object</th>
              <th scope="col">IP</th>
            </tr>
          </thead>
          <tbody>
            {entries.data.items.map((entry) => (
              <tr key={entry.auditEntryId}>
                <td>
                  <Time iso={entry.createdAt} />
                </td>
                <td>{entry.user?.email ?? '—'}</td>
                <td>
                  <code>{entry.action}</code>
                </td>
                <td>{entry.objectId ? <code>{entry.objectId}</code> : '—'}</td>
                <td>{entry.ip}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager nextCursor={entries.data?.nextCursor} />
    </>
  );
}
