import { kybApplication, kybPerson } from '../../../test/support/kyb-fixtures';
import { AppError } from '../../common/errors/app-error';
import { KybApplicationDto } from './dto/kyb-application.dto';
import { CarriedDocument, checkApplication } from './kyb-application.rules';
import { ReceivedDocument, ReceivedDocuments } from './kyb-documents.extractor';
import { MAX_DOCUMENT_BYTES, MAX_TOTAL_DOCUMENT_BYTES, MiB } from './kyb.constants';

const doc = (sizeBytes: number): ReceivedDocument => ({ valid: true, sizeBytes, content: Buffer.alloc(Math.min(sizeBytes, 16)) });
const paths = (application: KybApplicationDto) => [
  ...application.company_files.flatMap((group, i) => group.files.map((_, j) => `company_files[${i}].files[${j}]`)),
  ...application.associated_persons.flatMap((person, i) => person.identity_files.map((_, j) => `associated_persons[${i}].identity_files[${j}].file`)),
];
const app = (overrides: Record<string, unknown> = {}) => kybApplication('RC-1', overrides) as unknown as KybApplicationDto;
const receivedFor = (application: KybApplicationDto, sizeBytes = 100, only: (path: string) => boolean = () => true): ReceivedDocuments =>
  new Map(
    paths(application)
      .filter(only)
      .map((path) => [path, doc(sizeBytes)]),
  );

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('accepted');
}

describe('checkApplication', () => {
  it('returns every received document of a valid application', () => {
    const application = app();
    const documents = checkApplication(application, receivedFor(application));
    expect(documents.map((d) => d.path)).toEqual(paths(application));
  });

  it('requires exactly one representative', () => {
    const application = app({ associated_persons: [kybPerson('representative'), kybPerson('representative'), kybPerson('applicant')] });
    const error = refusal(() => checkApplication(application, receivedFor(application)));
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([{ field: 'associated_persons', message: 'exactly one representative is required, found 2' }]);
  });

  describe('with documents a correction carries over', () => {
    const carriedCompanyFiles = (application: KybApplicationDto, sizeBytes: number) =>
      new Map<string, CarriedDocument>(
        paths(application)
          .filter((p) => p.startsWith('company_files'))
          .map((path, i) => [path, { id: `doc_${i}`, sizeBytes }]),
      );

    it('needs no bytes for them and returns only the new documents', () => {
      const application = app();
      const carried = carriedCompanyFiles(application, 1_000);
      const documents = checkApplication(
        application,
        receivedFor(application, 100, (p) => !carried.has(p)),
        carried,
      );
      expect(documents.map((d) => d.path)).toEqual(paths(application).filter((p) => !carried.has(p)));
    });

    it('counts them toward the 50 MB total (413)', () => {
      const application = app();
      const carried = carriedCompanyFiles(application, MAX_DOCUMENT_BYTES); // six groups: 48 MiB
      expect(6 * MAX_DOCUMENT_BYTES).toBeLessThanOrEqual(MAX_TOTAL_DOCUMENT_BYTES);
      const newOnes = receivedFor(application, 1 * MiB + 1, (p) => !carried.has(p)); // two identity files: 2 MiB + 2
      const error = refusal(() => checkApplication(application, newOnes, carried));
      expect(error.code).toBe('payload_too_large');
      expect(error.message).toBe('Documents are larger than 50 MB in total');
      // Within the total once the new ones are smaller.
      expect(() =>
        checkApplication(
          application,
          receivedFor(application, 1 * MiB, (p) => !carried.has(p)),
          carried,
        ),
      ).not.toThrow();
    });

    it('still requires a document where nothing is carried or received', () => {
      const application = app();
      const carried = carriedCompanyFiles(application, 10);
      const error = refusal(() => checkApplication(application, new Map(), carried));
      expect(error.details.map((d) => d.field)).toEqual(paths(application).filter((p) => !carried.has(p)));
    });
  });
});
