import { Link } from 'react-router';

/** The dashboard page of each kind of object the service names by id, by the id's prefix. */
const PAGES: Record<string, (id: string) => string> = {
  pobo: (id) => `/businesses/${id}`,
  pi: (id) => `/payment-intents/${id}`,
  wd: (id) => `/withdrawals/${id}`,
  col: (id) => `/collections/${id}`,
  ipi: (id) => `/international/${id}`,
  vtr: (id) => `/vault-transfers/${id}`,
  evt: (id) => `/events/${id}`,
  we: (id) => `/webhooks/${id}`,
};

/** The dashboard page of the object `id` names, if it has one. */
export function pageOf(id: string): string | undefined {
  return PAGES[id.slice(0, id.indexOf('_'))]?.(id);
}

/** An id, as a link to its object's page when it has one. */
export function IdLink({ id }: { id: string }) {
  const to = pageOf(id);
  return to ? (
    <Link to={to}>
      <code>{id}</code>
    </Link>
  ) : (
    <code>{id}</code>
  );
}
