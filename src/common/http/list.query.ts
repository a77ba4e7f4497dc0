import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { FastifyReply } from 'fastify';
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

/** The page's items; its next page's URL goes in `Link: <…>; rel="next"`. */
export function sendPage<T>(reply: FastifyReply, page: Page<T>): T[] {
  if (page.nextUrl) void reply.header('Link', `<${page.nextUrl}>; rel="next"`);
  return page.items;
}
