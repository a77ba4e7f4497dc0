import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { logRequestFailure } from '../../common/errors/dependency-outages';
import { toErrorResponse } from '../../common/errors/error-response';
import { AGREEMENT_PAGE_PATH } from '../agreements';
import { renderMessagePage } from './agreement-page.html';
import { sendPage } from './agreement-page.service';

const logger = new Logger('AgreementPage');

/** The agreement page answers people, not programs: failures are HTML pages too (status as the API's). */
function sendErrorPage(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const response = toErrorResponse(exception, String(request.id));
  logRequestFailure(logger, exception, response);
  void reply.headers(response.headers);
  sendPage(reply, {
    status: response.status,
    html: renderMessagePage({
      title: response.status >= 500 ? 'Something went wrong' : 'This request could not be completed',
      message: `${response.status >= 500 ? 'Nothing was recorded. Please try again in a moment.' : response.body.message} (Reference: ${response.body.requestId})`,
      reloadLabel: 'Back to the agreement page',
    }),
  });
}

/** Failures inside the page's controller. */
@Catch()
export class AgreementPageExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    sendErrorPage(exception, host.switchToHttp().getRequest<FastifyRequest>(), host.switchToHttp().getResponse<FastifyReply>());
  }
}

/**
 * Failures before the controller (a multipart or oversized form, a body too slow) happen in
 * Fastify, where Nest's filters do not reach: the page's routes get the same HTML answer there.
 * Installed before Nest registers routes.
 */
export function installAgreementPageErrors(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    if (route.url.startsWith(`${AGREEMENT_PAGE_PATH}/`)) route.errorHandler = (error, request, reply) => sendErrorPage(error, request, reply);
  });
}
