import type { FastifyReply, FastifyRequest } from 'fastify';

/** One problem with a request body, as sandboxes report it in `details`. */
export interface ValidationIssue {
  field: string;
  message: string;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isNonEmptyString(value: unknown, maxLength = 255): value is string {
  return typeof value === 'string' && value.trim().length > 0 && value.length <= maxLength;
}

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * The `Idempotency-Key` header, or `undefined` after answering 400 when it is missing
 * or not 1..255 characters long.
 */
export function requireIdempotencyKey(request: FastifyRequest, reply: FastifyReply): string | undefined {
  const key = request.headers['idempotency-key'];
  if (typeof key === 'string' && key.length >= 1 && key.length <= MAX_IDEMPOTENCY_KEY_LENGTH) return key;
  void reply.code(400).send({
    error: 'invalid_idempotency_key',
    message: `The Idempotency-Key header is required and must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
  });
  return undefined;
}
