import { applyDecorators, createParamDecorator, ExecutionContext, HttpCode } from '@nestjs/common';
import { WithRouteConfig } from '../../common/http/route-config';
import { ApiHeader } from '@nestjs/swagger';
import type { HeadersObject } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../common/errors/error-codes';
import type { IdPrefix } from '../../common/ids/ids';
import { MAX_KEY_LENGTH, MIN_KEY_LENGTH } from './idempotency.key';
import type { IdempotencyClaim } from './idempotency.service';

export const IDEMPOTENCY_ROUTE = 'idempotency';

/** On the success answer of an operation that honours Idempotency-Key. */
export const REPLAYED_HEADER: HeadersObject = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer of an earlier request with the same key',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
};

/** The error codes an operation answers because it honours Idempotency-Key, for its OpenAPI entry. */
export function idempotencyErrors(mode: IdempotencyRoute['mode']): ErrorCode[] {
  return [
    ...(mode === 'required' ? (['idempotency_key_required'] as const) : []),
    'idempotency_key_invalid',
    'idempotency_key_reused',
    'idempotency_request_in_progress',
  ];
}

export interface IdempotencyRoute {
  mode: 'required' | 'optional';
  successStatus: number;
  /** The kind of resource the operation creates, whose id the claim fixes (see `IdempotencyClaim.resourceId`). */
  creates?: IdPrefix;
}

/**
 * An operation that honours `Idempotency-Key` (`required` for those that move money), answering
 * `successStatus` on success. Its service runs its last writes through `IdempotencyService.commit`
 * with the claim (`@IdempotencyContext()`), so the answer is stored in their transaction.
 */
export function Idempotent(mode: IdempotencyRoute['mode'], successStatus: number, options: Pick<IdempotencyRoute, 'creates'> = {}): MethodDecorator {
  return applyDecorators(
    HttpCode(successStatus),
    WithRouteConfig({ [IDEMPOTENCY_ROUTE]: { mode, successStatus, ...options } satisfies IdempotencyRoute }),
    ApiHeader({
      name: 'Idempotency-Key',
      required: mode === 'required',
      description:
        `${MIN_KEY_LENGTH} to ${MAX_KEY_LENGTH} printable ASCII characters, unique for one operation and kept until its result is known; ` +
        'a retry with the same key and the same request replays the first answer (`Idempotent-Replayed: true`). Kept 24 hours.' +
        (mode === 'required' ? ' Required: this operation moves money.' : ' Optional.'),
      schema: { type: 'string', minLength: MIN_KEY_LENGTH, maxLength: MAX_KEY_LENGTH + 2, pattern: '^[\\x20-\\x7e]+$' },
    }),
  );
}

/** The Idempotency-Key this request holds, if it sent one. */
export const IdempotencyContext = createParamDecorator(
  (_: unknown, context: ExecutionContext): IdempotencyClaim | undefined => context.switchToHttp().getRequest<FastifyRequest>().idempotency ?? undefined,
);
