import { ErrorDetail } from '../../common/errors/app-error';
import { KybApplicationDto } from './dto/kyb-application.dto';
import { ReceivedDocuments } from './kyb-documents.extractor';
import { DocumentsTooLargeError, KybApplicationInvalidError } from './kyb.errors';
import { MAX_DOCUMENT_BYTES, MAX_TOTAL_DOCUMENT_BYTES, REQUIRED_COMPANY_FILE_TYPES } from './kyb.constants';

/** A document of an accepted application, decoded. */
export interface SubmittedDocument {
  /** Where it sits in the body, e.g. `company_files[0].files[1]`. */
  path: string;
  fileType: string;
  content: Buffer;
  sizeBytes: number;
}

/** A document a correction keeps from the application it corrects: stored already, named by its id. */
export interface CarriedDocument {
  id: string;
  sizeBytes: number;
}

/**
 * The onboarding rules that field validation cannot express: person counts,
 * required file groups, base64 and the size limits (413). `received` holds the documents as they
 * were decoded from the body, by path; `carried` those a correction keeps, by their path in the
 * corrected application, and they count toward the limits like the others. Returns the documents
 * of `received` the application names.
 */
export function checkApplication(
  application: KybApplicationDto,
  received: ReceivedDocuments,
  carried: ReadonlyMap<string, CarriedDocument> = new Map(),
): SubmittedDocument[] {
  const problems: ErrorDetail[] = [];
  const count = (type: string) => application.associated_persons.filter((p) => p.type === type).length;
  if (count('representative') !== 1) {
    problems.push({ field: 'associated_persons', message: `exactly one representative is required, found ${count('representative')}` });
  }
  if (count('applicant') < 1) {
    problems.push({ field: 'associated_persons', message: 'at least one applicant is required' });
  }

  const seen = new Set<string>();
  application.company_files.forEach((group, i) => {
    if (seen.has(group.file_type)) problems.push({ field: `company_files[${i}].file_type`, message: `${group.file_type} appears more than once` });
    seen.add(group.file_type);
  });
  for (const required of REQUIRED_COMPANY_FILE_TYPES) {
    if (!seen.has(required)) problems.push({ field: 'company_files', message: `the ${required} group is required` });
  }

  const documents: { path: string; fileType: string; sizeBytes: number; content: Buffer | null }[] = [];
  const kept: { path: string; sizeBytes: number }[] = [];
  const collect = (path: string, fileType: string) => {
    const keep = carried.get(path);
    if (keep) return void kept.push({ path, sizeBytes: keep.sizeBytes });
    const document = received.get(path);
    if (!document?.valid) problems.push({ field: path, message: 'must be standard base64 (optionally with a data: URL prefix)' });
    else if (document.sizeBytes === 0) problems.push({ field: path, message: 'the document is empty' });
    else documents.push({ path, fileType, sizeBytes: document.sizeBytes, content: document.content });
  };
  application.company_files.forEach((group, i) => group.files.forEach((_, j) => collect(`company_files[${i}].files[${j}]`, group.file_type)));
  application.associated_persons.forEach((person, i) =>
    person.identity_files.forEach((file, j) => collect(`associated_persons[${i}].identity_files[${j}].file`, file.file_type)),
  );
  if (problems.length > 0) throw new KybApplicationInvalidError(problems);

  const all = [...documents, ...kept];
  const oversized = all.filter((d) => d.sizeBytes > MAX_DOCUMENT_BYTES);
  if (oversized.length > 0) {
    throw new DocumentsTooLargeError(
      'A document is larger than 8 MB',
      oversized.map((d) => ({ field: d.path, message: `${d.sizeBytes} bytes; the limit is ${MAX_DOCUMENT_BYTES}` })),
    );
  }
  const total = all.reduce((sum, d) => sum + d.sizeBytes, 0);
  if (total > MAX_TOTAL_DOCUMENT_BYTES) {
    throw new DocumentsTooLargeError('Documents are larger than 50 MB in total', [
      { field: 'company_files', message: `${total} bytes in total; the limit is ${MAX_TOTAL_DOCUMENT_BYTES}` },
    ]);
  }
  // Content is only dropped for documents past a limit, which were refused above.
  return documents.map((d) => ({ ...d, content: d.content! }));
}
