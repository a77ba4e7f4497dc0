import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { FastifyReply } from 'fastify';
import { AppError } from '../errors/app-error';
import { IdPrefix, isId } from '../ids/ids';

export const MAX_PAGE_SIZE = 100;

/** `?limit=&cursor=` of every list: newest first, the cursor the id of the previous page's last item. */
export class ListQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: MAX_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;

  @ApiPropertyOptional({ description: 'Opaque cursor from the `Link: <…>; rel="next"` header of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  /** Absolute URL of the next page, when there is one. */
  nextUrl?: string;
}

/**
 * A page of a list at `url`, whose items' ids carry `idPrefix`: `fetch` asks for one row more
 * than the page holds, which tells whether a next page exists without a COUNT, and answers
 * undefined for a cursor that is not one of the merchant's. A cursor that is no such id is not
 * looked up (it may hold anything, NUL included). Either is 400 `invalid_cursor`. The next page's
 * cursor is the page's last id.
 */
export async function listPage<R, T>(
  query: ListQuery,
  idPrefix: IdPrefix,
  fetch: (limit: number, after?: string) => Promise<R[] | undefined>,
  map: (row: R) => T,
  idOf: (item: T) => string,
  url: string,
): Promise<Page<T>> {
  const limit = query.limit ?? MAX_PAGE_SIZE;
  const rows = query.cursor === undefined || isId(idPrefix, query.cursor) ? await fetch(limit + 1, query.cursor) : undefined;
  if (!rows) throw new InvalidCursorError();
  const items = rows.slice(0, limit).map(map);
  if (rows.length <= limit) return { items };
  return { items, nextUrl: `${url}?limit=${limit}&cursor=${idOf(items[items.length - 1])}` };
}

export class InvalidCursorError extends AppError {
  constructor() {
    super('invalid_cursor', 'cursor is not a cursor this API issued', [{ field: 'cursor', message: 'invalid cursor' }]);
  }
}

/** The page's items; its next page's URL goes in `Link: <…>; rel="next"`. */
export function sendPage<T>(reply: FastifyReply, page: Page<T>): T[] {
  if (page.nextUrl) void reply.header('Link', `<${page.nextUrl}>; rel="next"`);
  return page.items;
}
