import { applyDecorators, ArgumentsHost, Catch, Controller, ExceptionFilter, Get, Logger, Param, Res, UseFilters } from '@nestjs/common';
import { ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiPublicOperation, REQUEST_ID_HEADER } from '../../common/http/api-docs';
import { ErrorPageSender, installErrorPages, PAGE_CSP, sendErrorPage } from '../../common/html/pages';
import { PublicRoute } from '../auth';
import { renderReceiptMessagePage } from './receipt.html';
import { ReceiptsService } from './receipts.service';
import { RECEIPTS_PATH } from './international-intents.routes';

/**
 * Headers of every receipt page: the agreement page's CSP (no script, nothing from elsewhere, no
 * framing), never cached, never indexed, and no Referer at all: the URL is the credential and
 * the page has no form of its own to post.
 */
export const RECEIPT_PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': PAGE_CSP,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex',
};

export function sendReceiptPage(reply: FastifyReply, status: number, page: string): void {
  void reply.status(status).headers(RECEIPT_PAGE_HEADERS).send(page);
}

const logger = new Logger('Receipts');

/** Every failure on these routes is a page; every 404 (unknown, malformed, not yet available) the same one. */
const sendReceiptErrorPage: ErrorPageSender = (reply, response) => {
  const reference = `(Reference: ${response.body.requestId})`;
  const view =
    response.status === 404
      ? {
          title: 'Nothing to show at this link',
          message: `Check that you opened the complete link. A receipt is available once the payment has settled, a payout confirmation once the payout is confirmed. ${reference}`,
        }
      : response.status >= 500
        ? { title: 'Something went wrong', message: `Please try again in a moment. ${reference}` }
        : { title: 'This request could not be completed', message: `${response.body.message} ${reference}` };
  sendReceiptPage(reply, response.status, renderReceiptMessagePage(view));
};

/** Failures inside the receipts controller. */
@Catch()
export class ReceiptPageExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendErrorPage(logger, exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), sendReceiptErrorPage);
  }
}

/** Failures in Fastify before the controller (a refused request header…) on the receipt routes: the same HTML pages. Installed before Nest registers routes. */
export function installReceiptPageErrors(fastify: FastifyInstance): void {
  installErrorPages(fastify, RECEIPTS_PATH, logger, sendReceiptErrorPage);
}

const HTML = { 'text/html': { schema: { type: 'string', description: 'A whole HTML document' } } };

/**
 * A page outside the merchant API, documented as such: HTML on success and on the failures the
 * page answers (404, 429, 503), JSON only for what Fastify's router refuses before any route (400, 414).
 */
function ApiReceiptPage(spec: { operationId: string; summary: string; description: string; success: string }): MethodDecorator {
  return applyDecorators(
    ApiPublicOperation({ ...spec, success: { status: 200, description: spec.success }, errors: ['bad_request', 'uri_too_long'] }),
    ApiParam({
      name: 'token',
      description: 'The link token: the last part of `receiptUrl` (or the part before `/telex` of `telexUrl`)',
      schema: { type: 'string' },
    }),
    ApiResponse({ status: 200, content: HTML }),
    ApiResponse({
      status: 404,
      description: 'An HTML page, the same for an unknown or malformed token and for a payment not at that stage yet',
      headers: REQUEST_ID_HEADER,
      content: HTML,
    }),
    ApiResponse({
      status: 429,
      description: 'An HTML page: too many requests from this client IP (public routes are limited per IP); retry after `Retry-After` seconds',
      headers: {
        ...REQUEST_ID_HEADER,
        'Retry-After': { description: 'Seconds to wait before retrying', required: true, schema: { type: 'integer', minimum: 1 } },
      },
      content: HTML,
    }),
    ApiResponse({
      status: 503,
      description: 'An HTML page: a dependency is down; retry after `Retry-After` seconds',
      headers: {
        ...REQUEST_ID_HEADER,
        'Retry-After': { description: 'Seconds to wait before retrying', required: true, schema: { type: 'integer', minimum: 1 } },
      },
      content: HTML,
    }),
  );
}

/**
 * Receipts of international payments behind `receiptUrl` and `telexUrl`: server-rendered HTML,
 * no login (the token in the URL is the credential), no script, printable.
 */
@ApiTags('International payment intents')
@UseFilters(ReceiptPageExceptionFilter)
@Controller(RECEIPTS_PATH)
export class ReceiptsController {
  constructor(private readonly receipts: ReceiptsService) {}

  @Get(':token')
  @PublicRoute()
  @ApiReceiptPage({
    operationId: 'getInternationalPaymentReceipt',
    summary: "A settled international payment's receipt (HTML)",
    description:
      'The page behind `receiptUrl`, for people: a printable receipt (sender, recipient, amounts, exchange rate, references, times). ' +
      'No key: the unguessable token in the URL is the credential, so share the URL only with whom may see the payment. Never cached, never indexed.',
    success: 'The receipt, an HTML page',
  })
  async receipt(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    sendReceiptPage(reply, 200, await this.receipts.receipt(token));
  }

  @Get(':token/telex')
  @PublicRoute()
  @ApiReceiptPage({
    operationId: 'getInternationalPaymentTelex',
    summary: "A SWIFT payment's payout confirmation, as MT103 fields (HTML)",
    description:
      'The page behind `telexUrl` (SWIFT recipients, from `withdrawal_confirmed` on): the MT103 fields the recipient was paid with, UETR included. ' +
      'No key: the unguessable token in the URL is the credential. Never cached, never indexed.',
    success: 'The payout confirmation, an HTML page',
  })
  async telex(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    sendReceiptPage(reply, 200, await this.receipts.telex(token));
  }
}
