import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { logRequestFailure } from './dependency-outages';
import { toErrorResponse } from './error-response';

/**
 * Maps everything thrown while handling a request to the contract's error body, including
 * Fastify's own errors (Nest routes those through its filters too).
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const request = ctx.getRequest<FastifyRequest>();
    const reply = ctx.getResponse<FastifyReply>();
    const response = toErrorResponse(exception, String(request.id));
    logRequestFailure(this.logger, exception, response);
    void reply.status(response.status).headers(response.headers).send(response.body);
  }
}
