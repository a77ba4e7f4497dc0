import { createHash, randomBytes } from 'node:crypto';
import { fastify, FastifyInstance } from 'fastify';
import { installSandboxCommon } from '../common/faults';
import { isNonEmptyString, isRecord, requireIdempotencyKey, ValidationIssue } from '../common/validation';

/**
 * Sandbox KYB verification provider. See sandbox/README.md for the API. State lives in memory;
 * document bytes are verified and dropped, only their metadata is kept.
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

export interface DocumentMetadata {
  id: string;
  path: string;
  file_type: string;
  sha256: string;
  size: number;
}

interface StoredApplication {
  id: string;
  reference: string;
  idempotencyKey: string;
  registrationNumber: string;
  documents: DocumentMetadata[];
  createdAt: number;
  /** Where the review ends up; `processing` means never decided (`-HOLD`). */
  outcome: ApplicationStatus;
  requirements: Requirement[];
}

interface ValidApplication {
  reference: string;
  registrationNumber: string;
  documents: DocumentMetadata[];
}

export const BODY_LIMIT_BYTES = 100 * 1024 * 1024;

export const ORGANIZATION_CHART_UNREADABLE: Requirement = {
  code: 'document_unreadable',
  field: 'company_files.organization_chart',
  message: 'The organization chart could not be read; upload a clearer copy',
};

const SHA256_HEX = /^[0-9a-f]{64}$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isBase64(value: string): boolean {
  return value.length % 4 === 0 && BASE64.test(value);
}

function validateDocument(document: unknown, index: number, issues: ValidationIssue[]): DocumentMetadata | undefined {
  const at = `documents[${index}]`;
  if (!isRecord(document)) {
    issues.push({ field: at, message: 'must be an object' });
    return undefined;
  }
  const before = issues.length;
  const { id, path, file_type, sha256, size, content_base64 } = document;
  if (!isNonEmptyString(id)) issues.push({ field: `${at}.id`, message: 'must be a non-empty string' });
  if (!isNonEmptyString(path, 1024)) issues.push({ field: `${at}.path`, message: 'must be a non-empty string' });
  if (!isNonEmptyString(file_type)) issues.push({ field: `${at}.file_type`, message: 'must be a non-empty string' });
  if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256)) {
    issues.push({ field: `${at}.sha256`, message: 'must be 64 hexadecimal characters' });
  }
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
    issues.push({ field: `${at}.size`, message: 'must be a non-negative integer' });
  }
  if (typeof content_base64 !== 'string') {
    issues.push({ field: `${at}.content_base64`, message: 'must be a string' });
  } else if (!isBase64(content_base64)) {
    issues.push({ field: `${at}.content_base64`, message: 'is not valid base64' });
  }
  if (issues.length > before) return undefined;

  // Verified, then dropped: nothing below keeps a reference to the decoded bytes.
  const bytes = Buffer.from(content_base64 as string, 'base64');
  if (bytes.length !== size) {
    issues.push({ field: `${at}.size`, message: `is ${size as number} but the content decodes to ${bytes.length} bytes` });
    return undefined;
  }
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== (sha256 as string).toLowerCase()) {
    issues.push({ field: `${at}.sha256`, message: 'does not match the SHA-256 of the decoded content' });
    return undefined;
  }
  return { id: id as string, path: path as string, file_type: file_type as string, sha256: actual, size: bytes.length };
}

function validateApplication(body: unknown): { value: ValidApplication } | { issues: ValidationIssue[] } {
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
      const metadata = validateDocument(document, index, issues);
      if (!metadata) return;
      if (seenIds.has(metadata.id)) issues.push({ field: `documents[${index}].id`, message: 'duplicates an earlier document id' });
      seenIds.add(metadata.id);
      verified.push(metadata);
    });
  }

  if (issues.length > 0 || registrationNumber === undefined) return { issues };
  return { value: { reference: reference as string, registrationNumber, documents: verified } };
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
  const app = fastify({ logger: options.logger ?? false, bodyLimit: BODY_LIMIT_BYTES });

  const applications = new Map<string, StoredApplication>();
  const byIdempotencyKey = new Map<string, string>();
  const seenRegistrationNumbers = new Set<string>();
  let submissions = 0;

  installSandboxCommon(app, {
    apiKey: options.apiKey,
    onReset: () => {
      applications.clear();
      byIdempotencyKey.clear();
      seenRegistrationNumbers.clear();
      submissions = 0;
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

  app.post('/v1/business-applications', async (request, reply) => {
    const idempotencyKey = requireIdempotencyKey(request, reply);
    if (idempotencyKey === undefined) return reply;
    const result = validateApplication(request.body);
    if ('issues' in result) return reply.code(422).send({ error: 'invalid_application', details: result.issues });

    submissions += 1;
    // Lookup and insert run in one synchronous step, so concurrent retries cannot both create.
    const existingId = byIdempotencyKey.get(idempotencyKey);
    if (existingId !== undefined) {
      const existing = applications.get(existingId);
      if (existing) return reply.code(200).header('idempotent-replayed', 'true').send(view(existing));
    }

    const { reference, registrationNumber, documents } = result.value;
    const application: StoredApplication = {
      id: `pva_${randomBytes(12).toString('hex')}`,
      reference,
      idempotencyKey,
      registrationNumber,
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
      documents: application.documents.map((document) => ({ ...document })),
      created_at: new Date(application.createdAt).toISOString(),
    })),
  }));

  return app;
}
