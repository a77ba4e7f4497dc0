import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RequestPayload } from 'fastify';
import { POBO_USERS_PATH } from '../pobo-businesses';
import { extractDocuments, ReceivedDocuments } from './kyb-documents.extractor';
import { KYB_BODY_LIMIT, LARGE_UPLOAD_BYTES } from './kyb.constants';
import { BodyTooLargeError, UploadCapacityError } from './kyb.errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** Documents of a KYB submission, decoded while its body was read. */
    kybDocuments: ReceivedDocuments | null;
  }
}

const ONBOARDING_ROUTE = `${POBO_USERS_PATH}/:poboUserId/onboarding`;

/**
 * Route-level handling of the KYB submission, installed before Nest registers routes:
 * - its own body limit, checked by Fastify against Content-Length before the body is read;
 * - load shedding: at most `maxConcurrent` large bodies are read at once per process, others get
 *   503 with Retry-After straight away, so memory stays bounded under a burst of uploads;
 * - documents are decoded out of the body as it streams in (`extractDocuments`), and only the
 *   rest of the application goes on to the JSON parser and validation.
 */
export function installKybUploadHooks(fastify: FastifyInstance, maxConcurrent: number): void {
  let inFlight = 0;
  fastify.decorateRequest('kybDocuments', null);
  fastify.addHook('onRoute', (route) => {
    if (route.url !== ONBOARDING_ROUTE || route.method !== 'POST') return;
    route.bodyLimit = KYB_BODY_LIMIT;
    const gate = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const length = Number(request.headers['content-length'] ?? 0);
      if (length > KYB_BODY_LIMIT) return done(new BodyTooLargeError());
      if (length <= LARGE_UPLOAD_BYTES) return done();
      if (inFlight >= maxConcurrent) return done(new UploadCapacityError());
      inFlight++;
      reply.raw.once('close', () => inFlight--);
      done();
    };
    const extract = async (request: FastifyRequest, _reply: FastifyReply, payload: RequestPayload) => {
      // Other media types go on to the usual 415.
      if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) return payload;
      const { json, documents, receivedBytes } = await extractDocuments(payload, KYB_BODY_LIMIT);
      request.kybDocuments = documents;
      // Tells Fastify how many bytes the client sent, for its Content-Length check.
      return Object.assign(Readable.from([Buffer.from(json)], { objectMode: false }), { receivedEncodedLength: receivedBytes });
    };
    route.onRequest = [gate, ...(route.onRequest ? [route.onRequest].flat() : [])];
    route.preParsing = [extract, ...(route.preParsing ? [route.preParsing].flat() : [])];
  });
}
