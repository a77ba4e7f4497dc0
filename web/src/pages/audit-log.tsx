import { useSearchParams } from 'react-router';
import { AuditEntry } from '../api';
import { PagedTable } from '../components/table';
import { EmptyState, PageHeader, Time, useUrlFilter } from '../components/ui';
import { IdLink } from '../components/id-link';

/** The audit log, filtered by action and user, the filters and the page in the URL. Owners only. */
export function AuditLog() {
  const [params] = useSearchParams();
  const setFilter = useUrlFilter();
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
      <PagedTable<AuditEntry>
        path="/api/dashboard/audit-log"
        caption="Audit log"
        rowKey={(entry) => entry.auditEntryId}
        empty={<EmptyState title="Nothing recorded yet">Changes made from the dashboard, and sign-ins, appear here.</EmptyState>}
        columns={[
          { header: 'When', cell: (entry) => <Time iso={entry.createdAt} /> },
          { header: 'Who', cell: (entry) => entry.user?.email ?? '—' },
          { header: 'Action', cell: (entry) => <code>{entry.action}</code> },
          { header: 'Object', cell: (entry) => (entry.objectId ? <IdLink id={entry.objectId} /> : '—') },
          { header: 'IP', cell: (entry) => entry.ip },
        ]}
      />
    </>
  );
}
