import { AppError } from './errors/app-error';
import { IdPrefix, isId } from './ids/ids';

/** The most items a page holds, and what a page holds when the caller does not say. */
export const MAX_PAGE_SIZE = 100;

/** Which page of a list: at most `limit` items, after the item `cursor` (the previous page's last). */
export interface PageRequest {
  limit?: number;
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  /** Where the next page starts, when there is one: its size and its cursor (this page's last id). */
  next?: { limit: number; cursor: string };
}

/**
 * A page of a list whose items' ids carry `idPrefix`: `fetch` asks for one row more
 * than the page holds, which tells whether a next page exists without a COUNT, and answers
 * undefined for a cursor that is not one of the merchant's. A cursor that is no such id is not
 * looked up (it may hold anything, NUL included). Either is 400 `invalid_cursor`. The next page's
 * cursor is the page's last id; the HTTP layer makes its link from the request (whichever route
 * the list was asked on, with its filters), so a service knows nothing of paths.
 */
export async function listPage<R, T>(
  query: PageRequest,
  idPrefix: IdPrefix,
  fetch: (limit: number, after?: string) => Promise<R[] | undefined>,
  map: (row: R) => T,
  idOf: (item: T) => string,
): Promise<Page<T>> {
  const limit = query.limit ?? MAX_PAGE_SIZE;
  const rows = query.cursor === undefined || isId(idPrefix, query.cursor) ? await fetch(limit + 1, query.cursor) : undefined;
  if (!rows) throw new InvalidCursorError();
  const items = rows.slice(0, limit).map(map);
  if (rows.length <= limit) return { items };
  return { items, next: { limit, cursor: idOf(items[items.length - 1]) } };
}

export class InvalidCursorError extends AppError {
  constructor() {
    super('invalid_cursor', 'cursor is not a cursor this API issued', [{ field: 'cursor', message: 'invalid cursor' }]);
  }
}
