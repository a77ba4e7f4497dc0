import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';
import { WithRouteConfig } from './route-config';

/** The key of a route's success message in its route config. */
export const ANSWER = 'answer';

/**
 * The success message of a route: its handler returns the result alone, and the answer is
 * `{ message, response: result }` (the envelope every merchant answer has). Services never build
 * it; an idempotent route's stored answer is built from the same message.
 */
export const Answer = (message: string): MethodDecorator => WithRouteConfig({ [ANSWER]: message });

/** The message a route declared with `Answer`, if any. */
export function answerMessage(request: FastifyRequest): string | undefined {
  return (request.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[ANSWER] as string | undefined;
}

/** The envelope of a success answer, for a route that declared its message. */
export function envelopeOf(message: string, response: unknown): { message: string; response: unknown } {
  return { message, response };
}

/** Wraps the result of every handler that declared its message (`Answer`) in the envelope. */
@Injectable()
export class AnswerInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const message = answerMessage(context.switchToHttp().getRequest<FastifyRequest>());
    return message === undefined ? next.handle() : next.handle().pipe(map((result: unknown) => envelopeOf(message, result)));
  }
}
