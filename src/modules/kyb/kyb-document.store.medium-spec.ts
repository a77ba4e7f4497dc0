import { createHash, randomBytes } from 'node:crypto';
import { Medium, startMedium } from '../../../test/support/medium';
import { newId } from '../../common/ids/ids';
import { DOCUMENT_CHUNK_BYTES, KybDocumentStore } from './kyb-document.store';
import { KybModule } from './kyb.module';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Documents in PostgreSQL: stored in the caller's transaction, read back byte for byte, a piece at a time. */
describe('KybDocumentStore (medium)', () => {
  let m: Medium;
  let store: KybDocumentStore;

  beforeAll(async () => {
    m = await startMedium({ name: 'kyb-documents', imports: [KybModule] });
    store = m.app.get(KybDocumentStore);
  });

  afterAll(() => m?.close());

  async function application(): Promise<string> {
    const businessId = await m.insertBusiness();
    const id = newId('kyba');
    await m.sql(`INSERT INTO kyb_applications (id, business_id, status, payload) VALUES ($1, $2, 'queued', '{}')`, [id, businessId]);
    return id;
  }

  it('reads back arbitrary bytes exactly, across piece boundaries, one piece at a time', async () => {
    const applicationId = await application();
    // Random bytes (not text), a size that leaves a partial last piece, and an empty-tail case.
    const contents = [randomBytes(2 * DOCUMENT_CHUNK_BYTES + 12_345), randomBytes(DOCUMENT_CHUNK_BYTES), randomBytes(7)];
    const prepared = store.prepare(
      contents.map((content, i) => ({ path: `company_files[${i}].files[0]`, fileType: 'other', content, sizeBytes: content.length })),
    );
    await m.dataSource.transaction((manager) => store.save(manager, applicationId, prepared));

    for (const [i, document] of prepared.entries()) {
      expect(document.sha256).toBe(sha256(contents[i]));
      const pieces: Buffer[] = [];
      for await (const piece of store.read(document)) {
        expect(piece.length).toBeLessThanOrEqual(DOCUMENT_CHUNK_BYTES);
        pieces.push(piece);
      }
      expect(pieces).toHaveLength(Math.ceil(contents[i].length / DOCUMENT_CHUNK_BYTES));
      expect(sha256(Buffer.concat(pieces))).toBe(sha256(contents[i]));
    }
  });

  it('stores nothing when the transaction rolls back', async () => {
    const applicationId = await application();
    const prepared = store.prepare([{ path: 'company_files[0].files[0]', fileType: 'other', content: randomBytes(1_000), sizeBytes: 1_000 }]);
    await expect(
      m.dataSource.transaction(async (manager) => {
        await store.save(manager, applicationId, prepared);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await m.sql('SELECT 1 FROM kyb_document_chunks WHERE document_id = $1', [prepared[0].id])).toEqual([]);
    expect(await m.sql('SELECT 1 FROM kyb_documents WHERE id = $1', [prepared[0].id])).toEqual([]);
  });

  it('purges the bytes of documents the provider has had past retention, and keeps their record', async () => {
    const applicationId = await application();
    const prepared = store.prepare([{ path: 'company_files[0].files[0]', fileType: 'other', content: randomBytes(1_000), sizeBytes: 1_000 }]);
    await m.dataSource.transaction((manager) => store.save(manager, applicationId, prepared));
    await store.purgeDocuments();
    expect(await m.sql('SELECT 1 FROM kyb_document_chunks WHERE document_id = $1', [prepared[0].id])).toHaveLength(1);

    // Counted from the document's upload: its application's submission does not matter.
    await m.sql(`UPDATE kyb_applications SET status = 'submitted', submitted_at = now() - interval '100 hours' WHERE id = $1`, [applicationId]);
    await m.sql(`UPDATE kyb_documents SET uploaded_at = now() - interval '1 hour' WHERE id = $1`, [prepared[0].id]);
    await store.purgeDocuments();
    expect(await m.sql('SELECT 1 FROM kyb_document_chunks WHERE document_id = $1', [prepared[0].id])).toHaveLength(1);

    await m.sql(`UPDATE kyb_applications SET status = 'queued', submitted_at = NULL WHERE id = $1`, [applicationId]);
    await m.sql(`UPDATE kyb_documents SET uploaded_at = now() - interval '100 hours' WHERE id = $1`, [prepared[0].id]);
    await store.purgeDocuments();
    expect(await m.sql('SELECT 1 FROM kyb_document_chunks WHERE document_id = $1', [prepared[0].id])).toEqual([]);
    const [document] = await m.sql<{ deleted_at: Date | null; sha256: string }>('SELECT deleted_at, sha256 FROM kyb_documents WHERE id = $1', [prepared[0].id]);
    expect(document.deleted_at).not.toBeNull();
    expect(document.sha256).toBe(prepared[0].sha256);
  });
});
