import { Readable } from 'node:stream';
import fc from 'fast-check';
import { AppError } from '../../common/errors/app-error';
import { DOCUMENT_PLACEHOLDER, extractDocuments } from './kyb-documents.extractor';
import { MAX_DOCUMENT_BYTES, MiB } from './kyb.constants';

/** The body cut into the given piece sizes (the rest in one piece). */
function streamOf(text: string, cuts: number[] = []): Readable {
  const bytes = Buffer.from(text);
  const pieces: Buffer[] = [];
  let at = 0;
  for (const cut of cuts) {
    if (at >= bytes.length) break;
    pieces.push(bytes.subarray(at, at + cut));
    at += cut;
  }
  if (at < bytes.length) pieces.push(bytes.subarray(at));
  return Readable.from(pieces, { objectMode: false });
}

/** What a whole-string check says about one document value. */
function reference(value: string): { valid: boolean; content: Buffer } {
  const base64 = value.replace(/^data:[\w.+-]+\/[\w.+-]+;base64,/, '');
  const valid = base64.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(base64);
  return { valid, content: Buffer.from(base64, 'base64') };
}

const application = (companyFiles: string[][], identityFiles: string[]) => ({
  company: { name: 'Acme "Ltd" \u00e9\u{1F600}', tags: [1, 2.5e3, true, null] },
  associated_persons: [{ type: 'representative', identity_files: identityFiles.map((file) => ({ file_type: 'passport', part: 'FRONT', file })) }],
  company_files: companyFiles.map((files, i) => ({ file_type: `group_${i}`, files })),
});

const documentValue = fc.oneof(
  fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes).toString('base64')),
  fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => `data:application/pdf;base64,${Buffer.from(bytes).toString('base64')}`),
  // Anything at all, valid by chance or not: unpadded, spaces, escapes, padding in the middle.
  fc.string({ maxLength: 40 }),
  fc.uint8Array({ minLength: 3, maxLength: 30 }).map((bytes) => {
    const b64 = Buffer.from(bytes).toString('base64');
    return `${b64.slice(0, 4)}=${b64.slice(5)}`;
  }),
);

describe('extractDocuments', () => {
  it('decodes every document, whatever the chunking, and leaves the rest of the JSON as it was (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(documentValue, { maxLength: 3 }), { maxLength: 3 }),
        fc.array(documentValue, { maxLength: 3 }),
        fc.array(fc.integer({ min: 1, max: 300 }), { maxLength: 40 }),
        async (companyFiles, identityFiles, cuts) => {
          const body = application(companyFiles, identityFiles);
          const text = JSON.stringify(body);
          const extracted = await extractDocuments(streamOf(text, cuts), 10 * MiB);

          expect(extracted.receivedBytes).toBe(Buffer.byteLength(text));
          expect(JSON.parse(extracted.json)).toEqual(
            application(
              companyFiles.map((files) => files.map(() => DOCUMENT_PLACEHOLDER)),
              identityFiles.map(() => DOCUMENT_PLACEHOLDER),
            ),
          );
          const expected = new Map<string, string>([
            ...companyFiles.flatMap((files, i) => files.map((file, j): [string, string] => [`company_files[${i}].files[${j}]`, file])),
            ...identityFiles.map((file, j): [string, string] => [`associated_persons[0].identity_files[${j}].file`, file]),
          ]);
          expect([...extracted.documents.keys()].sort()).toEqual([...expected.keys()].sort());
          for (const [path, value] of expected) {
            const got = extracted.documents.get(path)!;
            const want = reference(value);
            expect({ path, valid: got.valid }).toEqual({ path, valid: want.valid });
            if (want.valid) {
              expect(got.content).toEqual(want.content);
              expect(got.sizeBytes).toBe(want.content.length);
            } else {
              expect(got.content).toBeNull();
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads a data: URL prefix written with JSON escapes', async () => {
    const text = '{"company_files":[{"file_type":"x","files":["data:application\\/pdf;base64,JVBERi0x"]}]}';
    const { documents } = await extractDocuments(streamOf(text, [20, 7, 9]), MiB);
    expect(documents.get('company_files[0].files[0]')).toEqual({ valid: true, sizeBytes: 6, content: Buffer.from('%PDF-1') });
  });

  it('only treats the file positions as documents', async () => {
    const text = JSON.stringify({ company: { files: ['aGVsbG8='] }, company_files: [{ files: 'aGVsbG8=', other: ['aGVsbG8='] }], x: [[['aGVsbG8=']]] });
    const extracted = await extractDocuments(streamOf(text), MiB);
    expect(extracted.documents.size).toBe(0);
    expect(JSON.parse(extracted.json)).toEqual(JSON.parse(text));
  });

  it('keeps a "__proto__" key in the JSON for the parser behind it to refuse', async () => {
    const text = '{"company":{"__proto__":{"admin":true}}}';
    expect((await extractDocuments(streamOf(text), MiB)).json).toBe(text);
  });

  it('passes every string on as sent, surrogate pairs written as two escapes and lone surrogates included, as UTF-8 the parser reads back', async () => {
    const text = '{"company":{"name":"\\ud83d\\ude00 Acme","alone":"a\\ud800b","low":"\\udc00","nul":"\\u0000"},"\\udfff":1}';
    const { json } = await extractDocuments(streamOf(text, [13, 1, 1, 5]), MiB);
    // What the upload hook hands to the JSON parser: the text as UTF-8 bytes, decoded again.
    expect(JSON.parse(Buffer.from(json).toString('utf8'))).toEqual(JSON.parse(text));
  });

  it('decodes no document holding a NUL or a lone surrogate', async () => {
    const text = '{"company_files":[{"files":["aGVs\\u0000bG8=","aGVs\\ud800bG8="]}]}';
    const { documents } = await extractDocuments(streamOf(text), MiB);
    expect(documents.get('company_files[0].files[0]')?.valid).toBe(false);
    expect(documents.get('company_files[0].files[1]')?.valid).toBe(false);
  });

  it('keeps the size but not the bytes of a document past 8 MB', async () => {
    const content = Buffer.alloc(MAX_DOCUMENT_BYTES + 1, 1);
    const text = JSON.stringify({ company_files: [{ files: [content.toString('base64')] }] });
    const { documents } = await extractDocuments(streamOf(text, Array(200).fill(65536)), 20 * MiB);
    expect(documents.get('company_files[0].files[0]')).toEqual({ valid: true, sizeBytes: MAX_DOCUMENT_BYTES + 1, content: null });
  });

  it.each([
    ['truncated', '{"company":'],
    ['trailing garbage', '{"company":{}} x'],
    ['not JSON', 'company=acme'],
    ['empty', ''],
  ])('refuses %s JSON with invalid_json', async (_name, text) => {
    await expect(extractDocuments(streamOf(text), MiB)).rejects.toMatchObject({ code: 'invalid_json' });
  });

  it('refuses a body past the limit with payload_too_large while it streams', async () => {
    const text = JSON.stringify({ company_files: [{ files: ['A'.repeat(4096)] }] });
    const source = streamOf(text, Array(10).fill(512));
    const error = await extractDocuments(source, 1024).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'payload_too_large', headers: { Connection: 'close' } });
    // The request is not destroyed, so the 413 can still be sent: the rest of the body is drained.
    await new Promise((resolve) => (source.readableEnded ? resolve(undefined) : source.once('end', resolve)));
    expect(source.readableEnded).toBe(true);
  });
});
