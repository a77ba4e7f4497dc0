import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { ListPath, page, Page } from '../api';
import { EmptyState, ErrorNotice, Pager } from './ui';

/** One column of a table: its header and what each row shows in it. */
export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** `amount` right-aligns figures; `actions` holds a row's buttons. */
  className?: 'amount' | 'actions';
}

/**
 * Rows as a table with a caption for screen readers and scoped column headers; a table wider than
 * the screen scrolls inside its own box, never the page.
 */
export function DataTable<T>({ caption, rows, rowKey, columns }: { caption: string; rows: T[]; rowKey: (row: T) => string; columns: Column<T>[] }) {
  return (
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={column.className}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header} className={column.className}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A paged list of a dashboard endpoint whose filters and cursor live in the URL (a filtered page
 * is a link to share): its error, its empty state, its table and its pager.
 */
export function PagedTable<T>(props: {
  /** The list's operation, e.g. `/api/dashboard/withdrawals`, and its path parameters; also the list's cache key. */
  path: ListPath;
  pathParams?: Record<string, string>;
  caption: string;
  rowKey: (row: T) => string;
  columns: Column<T>[];
  /** What to do next when there is nothing to show at all (a filtered list that matches nothing says so itself). */
  empty: ReactNode;
  /**
   * Read again this often while `following` holds for a row on the page (something still under
   * way), or while `expecting` (something is on its way to the list).
   */
  follow?: { everyMs: number; following: (row: T) => boolean; expecting?: boolean };
}) {
  const [params] = useSearchParams();
  const { follow } = props;
  const list = useQuery({
    queryKey: [props.path, props.pathParams, params.toString()],
    queryFn: () => page(props.path, params, props.pathParams) as Promise<Page<T>>,
    refetchInterval: (query) => (follow && (follow.expecting || query.state.data?.items.some(follow.following)) ? follow.everyMs : false),
  });
  const filtered = [...params.keys()].some((name) => name !== 'cursor');
  return (
    <>
      <ErrorNotice error={list.error} />
      {list.data?.items.length === 0 && (filtered ? <EmptyState title="Nothing matches these filters">Change or clear a filter.</EmptyState> : props.empty)}
      {list.data && list.data.items.length > 0 && <DataTable caption={props.caption} rows={list.data.items} rowKey={props.rowKey} columns={props.columns} />}
      <Pager nextCursor={list.data?.nextCursor} />
    </>
  );
}
