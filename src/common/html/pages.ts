import type { LoggerService } from '@nestjs/common';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { logRequestFailure } from '../errors/dependency-outages';
import { ErrorResponse, toErrorResponse } from '../errors/error-response';

/**
 * Content-Security-Policy of every server-rendered page (the agreement page, receipts): inline
 * styles only, no script, nothing loaded from elsewhere, never framed, forms only to this origin.
 */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Sends a family of pages' answer to a failure: its page for the error, with the family's headers. */
export type ErrorPageSender = (reply: FastifyReply, response: ErrorResponse) => void;

/**
 * Pages answer people, not programs: a failure on their routes is a page too, with the status,
 * headers (`Retry-After`…) and logging the API gives the same failure.
 */
export function sendErrorPage(
  logger: Pick<LoggerService, 'error'>,
  exception: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  send: ErrorPageSender,
): void {
  const response = toErrorResponse(exception, String(request.id));
  logRequestFailure(logger, exception, response);
  void reply.headers(response.headers);
  send(reply, response);
}

/**
 * Failures before a controller (a refused header, a form too large or too slow) happen in
 * Fastify, where Nest's filters do not reach: every route under `pathPrefix` gets the same page
 * there. Installed before Nest registers routes.
 */
export function installErrorPages(fastify: FastifyInstance, pathPrefix: string, logger: Pick<LoggerService, 'error'>, send: ErrorPageSender): void {
  fastify.addHook('onRoute', (route) => {
    if (route.url.startsWith(`${pathPrefix}/`)) {
      route.errorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => sendErrorPage(logger, error, request, reply, send);
    }
  });
}
