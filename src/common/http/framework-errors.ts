import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-codes';
import { toErrorResponse } from '../errors/error-response';
import { generateRequestId } from './request-id';

/**
 * Fastify's router answers a malformed URL (400) or an over-long path parameter (414) itself,
 * before any hook. This gives those answers the contract's body and `X-Request-Id`; the URL is
 * not echoed back.
 */
export function frameworkErrors(error: Error & { statusCode?: number }, request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = error.statusCode === 414;
  const appError = tooLong ? new AppError('uri_too_long', 'A path segment is too long') : new AppError('bad_request', 'The request URL is malformed');
  const response = toErrorResponse(appError, String(request.id));
  void reply.status(response.status).header('X-Request-Id', request.id).headers(response.headers).send(response.body);
}

const CONNECTION_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', message: 'The request was not received in time' },
  HPE_HEADER_OVERFLOW: { status: 431, code: 'request_header_fields_too_large', message: 'Request headers are too large' },
};

/**
 * Node answers a request it cannot parse (headers too large, bad framing, a request that never
 * finished its headers) on the socket, before Fastify sees a request. Same body, status line and
 * request id as every other error; the connection is closed, since its framing is unknown.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = CONNECTION_ERRORS[error.code ?? ''] ?? { status: 400, code: 'bad_request', message: 'The request could not be parsed' };
  const requestId = generateRequestId();
  const body = JSON.stringify({ message: known.message, error: { code: known.code, details: [] }, requestId });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
