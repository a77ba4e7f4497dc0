import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { answer, dashboard } from '../api';
import { pageOf } from '../components/id-link';
import { EmptyState, ErrorNotice, PageHeader, Time } from '../components/ui';

/** What each kind of object is called on the page. */
const KINDS: Record<string, string> = {
  pobo_business: 'Business',
  payment_intent: 'Payment',
  withdrawal: 'Withdrawal',
  international_payment_intent: 'International payment',
  vault_transfer: 'Vault transfer',
};

/** The header's search box: its text goes to the results page, in the URL. */
export function SearchBox() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const id = useId();
  return (
    <form
      role="search"
      className="search-box"
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim() !== '') void navigate(`/search?q=${encodeURIComponent(text.trim())}`);
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        Search
      </label>
      <span id={`${id}-hint`} className="visually-hidden">
        By id, reference, the start of a name, the last digits of an account number, or an amount
      </span>
      <input
        id={id}
        type="search"
        name="q"
        value={text}
        maxLength={100}
        placeholder="Search"
        aria-describedby={`${id}-hint`}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="secondary">
        Search
      </button>
    </form>
  );
}

/** The results of `?q=`, best match first, each a link to its page: a list, which reads as well on a phone as on a desktop. */
export function SearchPage() {
  const [params] = useSearchParams();
  const q = params.get('q') ?? '';
  const results = useQuery({
    queryKey: ['/api/dashboard/search', q],
    queryFn: () => answer(dashboard.GET('/api/dashboard/search', { params: { query: { q } } })),
    enabled: q.trim() !== '',
    retry: false,
  });
  return (
    <>
      <PageHeader title={q ? `Search: ${q}` : 'Search'} />
      <p className="muted">By id (or its first characters), merchant reference, the start of a name, the last digits of an account number, or an amount.</p>
      <ErrorNotice error={results.error} />
      {results.data &&
        (results.data.length === 0 ? (
          <EmptyState title="Nothing found">Nothing of yours matches “{q}”.</EmptyState>
        ) : (
          <ol className="results" aria-label="Search results">
            {results.data.map((row) => {
              const to = pageOf(row.id);
              return (
                <li key={row.id}>
                  {to ? <Link to={to}>{row.label}</Link> : row.label}
                  <span className="muted">
                    {KINDS[row.kind] ?? row.kind} · <code>{row.id}</code> · <Time iso={row.createdAt} />
                  </span>
                </li>
              );
            })}
          </ol>
        ))}
    </>
  );
}
