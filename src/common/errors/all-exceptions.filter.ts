import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './error-response';

/** Maps everything thrown inside Nest to the contract's error body. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const request = ctx.getRequest<FastifyRequest>();
    const reply = ctx.getResponse<FastifyReply>();
    sendError(reply, request, exception, this.logger);
  }
}

export function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  exception: unknown,
  logger: Pick<Logger, 'error'>,
): void {
  const response = toErrorResponse(exception, String(request.id));
  if (response.unexpected) {
    logger.error(exception instanceof Error ? exception.stack ?? exception.message : String(exception));
  }
  void reply.status(response.status).headers(response.headers).send(response.body);
}
