import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorPageSender, installErrorPages, sendErrorPage } from '../../common/html/pages';
import { AGREEMENT_PAGE_PATH } from '../agreements';
import { renderMessagePage } from './agreement-page.html';
import { sendPage } from './agreement-page.service';

const logger = new Logger('AgreementPage');

/** The agreement page answers people, not programs: failures are HTML pages too (status as the API's). */
const sendAgreementErrorPage: ErrorPageSender = (reply, response) =>
  sendPage(reply, {
    status: response.status,
    html: renderMessagePage({
      title: response.status >= 500 ? 'Something went wrong' : 'This request could not be completed',
      message: `${response.status >= 500 ? 'Nothing was recorded. Please try again in a moment.' : response.body.message} (Reference: ${response.body.requestId})`,
      reloadLabel: 'Back to the agreement page',
    }),
  });

/** Failures inside the page's controller. */
@Catch()
export class AgreementPageExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendErrorPage(logger, exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), sendAgreementErrorPage);
  }
}

/**
 * Failures before the controller (a multipart or oversized form, a body too slow) happen in
 * Fastify, where Nest's filters do not reach: the page's routes get the same HTML answer there.
 * Installed before Nest registers routes.
 */
export function installAgreementPageErrors(fastify: FastifyInstance): void {
  installErrorPages(fastify, AGREEMENT_PAGE_PATH, logger, sendAgreementErrorPage);
}
