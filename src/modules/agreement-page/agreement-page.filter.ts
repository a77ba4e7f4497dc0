import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from '../../common/errors/error-response';
import { renderMessagePage } from './agreement-page.html';
import { sendPage } from './agreement-page.service';

/** The agreement page answers people, not programs: failures are HTML pages too (status as the API's). */
@Catch()
export class AgreementPageExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('AgreementPage');

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const response = toErrorResponse(exception, String(request.id));
    if (response.unexpected) this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    const reply = host.switchToHttp().getResponse<FastifyReply>();
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
}
