import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_PAGE_SIZE, Page, PageRequest } from '../paging';

/** `?limit=&cursor=` of every list: newest first, the cursor the id of the previous page's last item. */
export class ListQuery implements PageRequest {
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

declare module 'fastify' {
  interface FastifyInstance {
    /** The service's public origin, which the links it gives out start with. */
    publicBaseUrl: string;
  }
}

/** Next-page links start with the configured public origin, never with what a request's Host header claims. */
export function installPaging(fastify: FastifyInstance, publicBaseUrl: string): void {
  fastify.decorate('publicBaseUrl', publicBaseUrl);
}

/** The page's items; its next page's URL goes in `Link: <…>; rel="next"`. */
export function sendPage<T>(reply: FastifyReply, page: Page<T>): T[] {
  if (page.next) void reply.header('Link', `<${nextPageUrl(reply.request, page.next)}>; rel="next"`);
  return page.items;
}

/**
 * The list's own route (the merchant API's or the dashboard's, its path parameters encoded again)
 * with the filters the request asked for, then the next page's size and cursor.
 */
function nextPageUrl(request: FastifyRequest, next: NonNullable<Page<unknown>['next']>): string {
  const params = request.params as Record<string, string>;
  const path = (request.routeOptions.url ?? '').replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const query = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1 || request.url.length));
  query.delete('limit');
  query.delete('cursor');
  query.set('limit', String(next.limit));
  query.set('cursor', next.cursor);
  return `${request.server.publicBaseUrl}${path}?${query.toString()}`;
}
