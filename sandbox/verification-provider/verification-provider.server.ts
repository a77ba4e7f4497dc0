import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { errorCodes, fastify, FastifyInstance, FastifyReply } from 'fastify';
import { installSandboxCommon } from '../common/faults';
import { isNonEmptyString, isRecord, requireIdempotencyKey, ValidationIssue } from '../common/validation';

/**
 * Sandbox KYB verification provider. See sandbox/README.md for the API. State lives in memory.
 * Documents are uploaded first, one raw `PUT /v1/documents/:id` each, hashed and counted as the
 * bytes arrive and never kept (only their metadata is); an application then references them.
 */

export interface VerificationProviderServerOptions {
  apiKey: string;
  /** How long an application stays `processing` before its outcome shows. */
  reviewDelayMs: number;
  logger?: boolean;
}

export type ApplicationStatus = 'processing' | 'verified' | 'declined' | 'action_required';

export interface Requirement {
  code: string;
  field: string;
  message: string;
}

/** A document as an application references it (and as `/_sandbox/applications` lists it). */
export interface DocumentMetadata {
  id: string;
  path: string;
  file_type: string;
  sha256: string;
  size: number;
}

/** What is kept of an uploaded document: never its bytes. */
export interface UploadedDocument {
  id: string;
  sha256: string;
  size: number;
  uploadedAt: number;
}

interface StoredApplication {
  id: string;
  reference: string;
  idempotencyKey: string;
  registrationNumber: string;
  /** As received, every field kept: lets a test see what a client sent. */
  company: Record<string, unknown>;
  associatedPersons: Record<string, unknown>[];
  documents: DocumentMetadata[];
  createdAt: number;
  /** Where the review ends up; `processing` means never decided (`-HOLD`). */
  outcome: ApplicationStatus;
  requirements: Requirement[];
}

interface ValidApplication {
  reference: string;
  registrationNumber: string;
  company: Record<string, unknown>;
  associatedPersons: Record<string, unknown>[];
  documents: DocumentMetadata[];
}

/** Body limit of the JSON routes: applications only reference documents, so they stay small. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
/** Body limit of `PUT /v1/documents/:id`, enforced while the bytes stream in. */
export const DOCUMENT_BODY_LIMIT_BYTES = 16 * 1024 * 1024;
/**
 * A body over the limit by at most this much is still read (and dropped) to its end before the
 * 413, so the client, done sending, reads the answer instead of failing with EPIPE/ECONNRESET.
 * Anything larger is answered at once and the connection closed on it.
 */
export const DOCUMENT_DISCARD_BYTES = 16 * 1024 * 1024;
export const MAX_DOCUMENT_ID_LENGTH = 100;

export const ORGANIZATION_CHART_UNREADABLE: Requirement = {
  code: 'document_unreadable',
  field: 'company_files.organization_chart',
  message: 'The organization chart could not be read; upload a clearer copy',
};

export const CONTENT_BASE64_REFUSED = 'is not accepted; upload the document with PUT /v1/documents/:id';

const DOCUMENT_ID = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_DOCUMENT_ID_LENGTH}}$`);
const DOCUMENT_ID_RULE = `must be 1 to ${MAX_DOCUMENT_ID_LENGTH} characters of A-Z, a-z, 0-9, _ and -`;
const SHA256_HEX = /^[0-9a-f]{64}$/i;
const SHA256_LOWER_HEX = /^[0-9a-f]{64}$/;
const EMPTY_SHA256 = createHash('sha256').digest('hex');

function validateDocument(
  document: unknown,
  index: number,
  issues: ValidationIssue[],
  uploaded: (id: string) => UploadedDocument | undefined,
): DocumentMetadata | undefined {
  const at = `documents[${index}]`;
  if (!isRecord(document)) {
    issues.push({ field: at, message: 'must be an object' });
    return undefined;
  }
  const before = issues.length;
  const { id, path, file_type, sha256, size } = document;
  if (typeof id !== 'string' || !DOCUMENT_ID.test(id)) issues.push({ field: `${at}.id`, message: DOCUMENT_ID_RULE });
  if (!isNonEmptyString(path, 1024)) issues.push({ field: `${at}.path`, message: 'must be a non-empty string' });
  if (!isNonEmptyString(file_type)) issues.push({ field: `${at}.file_type`, message: 'must be a non-empty string' });
  if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256)) {
    issues.push({ field: `${at}.sha256`, message: 'must be 64 hexadecimal characters' });
  }
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
    issues.push({ field: `${at}.size`, message: 'must be a non-negative integer' });
  }
  if (Object.hasOwn(document, 'content_base64')) issues.push({ field: `${at}.content_base64`, message: CONTENT_BASE64_REFUSED });
  if (issues.length > before) return undefined;

  const metadata = { id: id as string, path: path as string, file_type: file_type as string, sha256: (sha256 as string).toLowerCase(), size: size as number };
  const upload = uploaded(metadata.id);
  if (!upload) {
    issues.push({ field: `${at}.id`, message: 'was not uploaded' });
    return undefined;
  }
  if (upload.sha256 !== metadata.sha256) {
    issues.push({ field: `${at}.sha256`, message: `does not match the uploaded document (sha256 ${upload.sha256})` });
  }
  if (upload.size !== metadata.size) {
    issues.push({ field: `${at}.size`, message: `is ${metadata.size} but the uploaded document is ${upload.size} bytes` });
  }
  return issues.length > before ? undefined : metadata;
}

function validateApplication(
  body: unknown,
  uploaded: (id: string) => UploadedDocument | undefined,
): { value: ValidApplication } | { issues: ValidationIssue[] } {
  if (!isRecord(body)) return { issues: [{ field: '(body)', message: 'must be a JSON object' }] };
  const issues: ValidationIssue[] = [];
  const { reference, company, associated_persons, documents } = body;

  if (!isNonEmptyString(reference)) issues.push({ field: 'reference', message: 'is required: a non-empty string of at most 255 characters' });
  let registrationNumber: string | undefined;
  if (!isRecord(company)) {
    issues.push({ field: 'company', message: 'is required: an object' });
  } else if (!isNonEmptyString(company.registration_number)) {
    issues.push({ field: 'company.registration_number', message: 'is required: a non-empty string' });
  } else {
    registrationNumber = company.registration_number;
  }
  if (!Array.isArray(associated_persons)) {
    issues.push({ field: 'associated_persons', message: 'is required: an array' });
  } else {
    associated_persons.forEach((person, index) => {
      if (!isRecord(person)) issues.push({ field: `associated_persons[${index}]`, message: 'must be an object' });
    });
  }

  const verified: DocumentMetadata[] = [];
  if (!Array.isArray(documents)) {
    issues.push({ field: 'documents', message: 'is required: an array' });
  } else {
    const seenIds = new Set<string>();
    documents.forEach((document, index) => {
      const metadata = validateDocument(document, index, issues, uploaded);
      if (!metadata) return;
      if (seenIds.has(metadata.id)) issues.push({ field: `documents[${index}].id`, message: 'duplicates an earlier document id' });
      seenIds.add(metadata.id);
      verified.push(metadata);
    });
  }

  if (issues.length > 0 || registrationNumber === undefined) return { issues };
  return {
    value: {
      reference: reference as string,
      registrationNumber,
      company: company as Record<string, unknown>,
      associatedPersons: associated_persons as Record<string, unknown>[],
      documents: verified,
    },
  };
}

/**
 * Hashes and counts a body as it arrives, keeping none of it. Past `limit` bytes it only counts,
 * up to the end of the body (`too_large`), or until `limit + discard` (`too_large` at once, the
 * rest left unread). Rejects if the client goes away first.
 */
function digestStream(stream: Readable, limit: number, discard: number): Promise<{ sha256: string; size: number } | 'too_large'> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    let size = 0;
    const stop = () => {
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      stream.removeListener('close', onClose);
    };
    function onData(chunk: Buffer) {
      size += chunk.length;
      if (size <= limit) {
        hash.update(chunk);
      } else if (size > limit + discard) {
        stop();
        resolve('too_large');
      }
    }
    function onEnd() {
      stop();
      resolve(size > limit ? 'too_large' : { sha256: hash.digest('hex'), size });
    }
    function onError(error: Error & { statusCode?: number }) {
      stop();
      error.statusCode ??= 400;
      reject(error);
    }
    function onClose() {
      onError(new Error('the request body ended before it was complete'));
    }
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
    stream.resume();
  });
}

/**
 * 413 as Fastify answers it for JSON bodies, on a connection that then closes: kept alive, one
 * whose body is still arriving would only be idle (and let `close()` finish) after all of it.
 */
function payloadTooLarge(reply: FastifyReply): never {
  void reply.header('connection', 'close');
  throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
}

/** What a review of this registration number decides, given whether it was seen before. */
function decide(registrationNumber: string, seenBefore: boolean): Pick<StoredApplication, 'outcome' | 'requirements'> {
  if (registrationNumber.endsWith('-DECLINE')) return { outcome: 'declined', requirements: [] };
  if (registrationNumber.endsWith('-HOLD')) return { outcome: 'processing', requirements: [] };
  if (registrationNumber.endsWith('-ACTION') && !seenBefore) {
    return { outcome: 'action_required', requirements: [{ ...ORGANIZATION_CHART_UNREADABLE }] };
  }
  return { outcome: 'verified', requirements: [] };
}

export function createVerificationProviderServer(options: VerificationProviderServerOptions): FastifyInstance {
  if (!Number.isInteger(options.reviewDelayMs) || options.reviewDelayMs < 0) {
    throw new Error('verification provider sandbox: reviewDelayMs must be a non-negative integer');
  }
  // Ids longer than 100 characters must reach the route (and get a 422), not fall through to 404.
  const app = fastify({ logger: options.logger ?? false, bodyLimit: JSON_BODY_LIMIT_BYTES, routerOptions: { maxParamLength: 1024 } });

  const applications = new Map<string, StoredApplication>();
  const byIdempotencyKey = new Map<string, string>();
  const seenRegistrationNumbers = new Set<string>();
  const uploadedDocuments = new Map<string, UploadedDocument>();
  let submissions = 0;
  let uploads = 0;

  installSandboxCommon(app, {
    apiKey: options.apiKey,
    onReset: () => {
      applications.clear();
      byIdempotencyKey.clear();
      seenRegistrationNumbers.clear();
      uploadedDocuments.clear();
      submissions = 0;
      uploads = 0;
    },
  });

  /** The review outcome shows once `reviewDelayMs` has passed since creation. */
  const view = (application: StoredApplication) => {
    const decidedAt = application.createdAt + options.reviewDelayMs;
    const decided = application.outcome !== 'processing' && Date.now() >= decidedAt;
    return {
      id: application.id,
      reference: application.reference,
      status: decided ? application.outcome : ('processing' as ApplicationStatus),
      requirements: decided ? application.requirements.map((requirement) => ({ ...requirement })) : [],
      created_at: new Date(application.createdAt).toISOString(),
      updated_at: new Date(decided ? decidedAt : application.createdAt).toISOString(),
    };
  };

  // Document uploads live in their own scope: only `application/octet-stream` is accepted there
  // (anything else is 415), and the parser hands the raw stream to the handler unread. The
  // scope inherits the root hooks, so faults and auth run before a single byte is read.
  void app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/octet-stream', (_request, payload, parsed) => parsed(null, payload));

    scope.put<{ Params: { id: string } }>('/v1/documents/:id', { bodyLimit: DOCUMENT_BODY_LIMIT_BYTES }, async (request, reply) => {
      const { id } = request.params;
      const declared = request.headers['x-content-sha256'];
      const issues: ValidationIssue[] = [];
      if (!DOCUMENT_ID.test(id)) issues.push({ field: 'id', message: DOCUMENT_ID_RULE });
      if (typeof declared !== 'string' || !SHA256_LOWER_HEX.test(declared)) {
        issues.push({ field: 'x-content-sha256', message: 'is required: the SHA-256 of the body as 64 lowercase hexadecimal characters' });
      }
      if (issues.length > 0) return reply.code(422).send({ error: 'invalid_document', details: issues });
      // Far too large by its Content-Length: answered unread (a body over the limit by less is
      // read to its end first, below).
      if (Number(request.headers['content-length']) > DOCUMENT_BODY_LIMIT_BYTES + DOCUMENT_DISCARD_BYTES) payloadTooLarge(reply);

      // No body at all (no Content-Type, no length) is an empty document.
      const body = request.body as Readable | undefined;
      const digest = body === undefined ? { sha256: EMPTY_SHA256, size: 0 } : await digestStream(body, DOCUMENT_BODY_LIMIT_BYTES, DOCUMENT_DISCARD_BYTES);
      if (digest === 'too_large') payloadTooLarge(reply);
      if (digest.sha256 !== declared) {
        return reply.code(422).send({
          error: 'invalid_document',
          details: [{ field: 'x-content-sha256', message: `does not match the SHA-256 of the ${digest.size} bytes received (${digest.sha256})` }],
        });
      }

      // Lookup and insert run in one synchronous step, so concurrent uploads of one id cannot both create.
      const existing = uploadedDocuments.get(id);
      if (existing && existing.sha256 !== digest.sha256) return reply.code(409).send({ error: 'document_conflict' });
      uploads += 1;
      if (existing) return reply.code(200).send({ id, sha256: existing.sha256, size: existing.size });
      uploadedDocuments.set(id, { id, sha256: digest.sha256, size: digest.size, uploadedAt: Date.now() });
      return reply.code(201).send({ id, sha256: digest.sha256, size: digest.size });
    });

    done();
  });

  app.post('/v1/business-applications', async (request, reply) => {
    const idempotencyKey = requireIdempotencyKey(request, reply);
    if (idempotencyKey === undefined) return reply;
    const result = validateApplication(request.body, (id) => uploadedDocuments.get(id));
    if ('issues' in result) return reply.code(422).send({ error: 'invalid_application', details: result.issues });

    submissions += 1;
    // Lookup and insert run in one synchronous step, so concurrent retries cannot both create.
    const existingId = byIdempotencyKey.get(idempotencyKey);
    if (existingId !== undefined) {
      const existing = applications.get(existingId);
      if (existing) return reply.code(200).header('idempotent-replayed', 'true').send(view(existing));
    }

    const { reference, registrationNumber, company, associatedPersons, documents } = result.value;
    const application: StoredApplication = {
      id: `pva_${randomBytes(12).toString('hex')}`,
      reference,
      idempotencyKey,
      registrationNumber,
      company,
      associatedPersons,
      documents,
      createdAt: Date.now(),
      ...decide(registrationNumber, seenRegistrationNumbers.has(registrationNumber)),
    };
    seenRegistrationNumbers.add(registrationNumber);
    applications.set(application.id, application);
    byIdempotencyKey.set(idempotencyKey, application.id);
    return reply.code(201).send(view(application));
  });

  app.get<{ Params: { id: string } }>('/v1/business-applications/:id', async (request, reply) => {
    const application = applications.get(request.params.id);
    if (!application) return reply.code(404).send({ error: 'not_found' });
    return view(application);
  });

  app.get('/_sandbox/applications', () => ({
    submissions,
    applications: [...applications.values()].map((application) => ({
      id: application.id,
      reference: application.reference,
      idempotency_key: application.idempotencyKey,
      registration_number: application.registrationNumber,
      status: view(application).status,
      company: application.company,
      associated_persons: application.associatedPersons,
      documents: application.documents.map((document) => ({ ...document })),
      created_at: new Date(application.createdAt).toISOString(),
    })),
  }));

  app.get('/_sandbox/documents', () => ({
    uploads,
    documents: [...uploadedDocuments.values()].map((document) => ({
      id: document.id,
      sha256: document.sha256,
      size: document.size,
      uploaded_at: new Date(document.uploadedAt).toISOString(),
    })),
  }));

  return app;
}
