import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { extractDocuments, ReceivedDocuments } from './kyb-documents.extractor';
import { KYB_BODY_LIMIT, LARGE_UPLOAD_BYTES } from './kyb.constants';
import { BodyTooLargeError, UploadCapacityError } from './kyb.errors';
import { KybService } from './kyb.service';
import { POBO_USERS_PATH } from '../pobo-businesses';

declare module 'fastify' {
  interface FastifyRequest {
    /** Documents of a KYB submission, decoded while its body was read. */
    kybDocuments: ReceivedDocuments | null;
  }
}

const ONBOARDING_ROUTE = `${POBO_USERS_PATH}/:poboUserId/onboarding`;

/**
 * The routes that take an application body, and what each checks before reading it. A submission
 * with an Idempotency-Key may be the retry of one that went through, whose answer is replayed once
 * the body is read: its state is checked after that, by the service, and only ownership here.
 */
const ADMISSIONS: Record<string, (kyb: KybService, merchantId: string, businessId: string, keyed: boolean) => Promise<void>> = {
  POST: (kyb, merchantId, businessId, keyed) => (keyed ? kyb.admitOwned(merchantId, businessId) : kyb.admitSubmission(merchantId, businessId)),
  PATCH: (kyb, merchantId, businessId) => kyb.admitCorrection(merchantId, businessId),
};

/**
 * Route-level handling of KYB applications (the submission and its correction), installed before
 * Nest registers routes. It runs after the merchant was authenticated from the headers, and still
 * before any body byte is read:
 * - admission: the business is the merchant's and its KYB may be submitted (or corrected) now
 *   (404/409 unread);
 * - its own body limit, checked against Content-Length;
 * - load shedding: at most `maxConcurrent` large bodies are read at once per process, both routes
 *   together, others get 503 with Retry-After straight away, so memory stays bounded under a
 *   burst of uploads. A body sent without Content-Length (chunked) may be of any size, so it
 *   always takes a slot;
 * - documents are decoded out of the body as it streams in (`extractDocuments`), and only the
 *   rest of the application goes on to the JSON parser and validation.
 * The body deadline (408 for a stalled or trickling body) frees a slot like any other end.
 */
export function installKybUploadHooks(app: INestApplication, fastify: FastifyInstance, maxConcurrent: number): void {
  const kyb = app.get(KybService);
  let inFlight = 0;
  fastify.decorateRequest('kybDocuments', null);
  fastify.addHook('onRoute', (route) => {
    const admission = typeof route.method === 'string' ? ADMISSIONS[route.method] : undefined;
    if (route.url !== ONBOARDING_ROUTE || !admission) return;
    route.bodyLimit = KYB_BODY_LIMIT;
    const admit = async (request: FastifyRequest, reply: FastifyReply) => {
      // Chunked: the size is unknown until the end.
      const length = request.headers['transfer-encoding'] === undefined ? Number(request.headers['content-length'] ?? 0) : undefined;
      if (length !== undefined && length > KYB_BODY_LIMIT) throw new BodyTooLargeError();
      const { poboUserId } = request.params as { poboUserId: string };
      await admission(kyb, request.merchant!.merchantId, poboUserId, request.headers['idempotency-key'] !== undefined);
      if (length !== undefined && length <= LARGE_UPLOAD_BYTES) return;
      if (inFlight >= maxConcurrent) throw new UploadCapacityError();
      inFlight++;
      reply.raw.once('close', () => inFlight--);
    };
    const extract = async (request: FastifyRequest, _reply: FastifyReply, payload: RequestPayload) => {
      // Other media types go on to the usual 415.
      if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) return payload;
      const { json, documents, receivedBytes } = await extractDocuments(payload, KYB_BODY_LIMIT);
      request.kybDocuments = documents;
      // Two submissions that differ only in a document are different requests.
      if (request.headers['idempotency-key'] !== undefined) request.idempotencyExtra = documentDigests(documents);
      // Tells Fastify how many bytes the client sent, for its Content-Length check.
      return Object.assign(Readable.from([Buffer.from(json)], { objectMode: false }), { receivedEncodedLength: receivedBytes });
    };
    route.onRequest = [...(route.onRequest ? [route.onRequest].flat() : []), admit];
    route.preParsing = [extract, ...(route.preParsing ? [route.preParsing].flat() : [])];
  });
}

/** Each document's SHA-256 (or why it has none), by its place in the application. */
function documentDigests(documents: ReceivedDocuments): Record<string, string> {
  return Object.fromEntries(
    [...documents].map(([path, document]) => [
      path,
      document.content ? createHash('sha256').update(document.content).digest('hex') : `unusable:${document.sizeBytes}`,
    ]),
  );
}
