import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource, EntityManager, In } from 'typeorm';
import { PG_POOL } from '../../common/persistence/pg-pool';
import { KybApplicationEntity } from './kyb-application.entity';
import { KybDocumentChunkEntity } from './kyb-document-chunk.entity';
import { KybDocumentEntity } from './kyb-document.entity';

export type NewKybApplication = Omit<KybApplicationEntity, 'createdAt' | 'updatedAt' | 'forwardAttempts' | 'business'>;
export type NewKybDocument = Omit<KybDocumentEntity, 'createdAt' | 'application'>;
export type KybDocumentChunk = Pick<KybDocumentChunkEntity, 'documentId' | 'seq' | 'data'>;

/** Pieces per INSERT while storing (4 MB of parameters). */
const CHUNKS_PER_INSERT = 8;

/** The only reader and writer of the KYB tables (applications, documents and their bytes). */
@Injectable()
export class KybRepository {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  findApplication(id: string, manager: EntityManager = this.dataSource.manager): Promise<KybApplicationEntity | null> {
    return manager.findOneBy(KybApplicationEntity, { id });
  }

  /** The business's latest application, in `manager`'s transaction when given; of those in `status` when given. */
  latestApplication(
    businessId: string,
    options: { status?: KybApplicationEntity['status']; manager?: EntityManager } = {},
  ): Promise<KybApplicationEntity | null> {
    const where = options.status ? { businessId, status: options.status } : { businessId };
    return (options.manager ?? this.dataSource.manager).findOne(KybApplicationEntity, { where, order: { createdAt: 'DESC' } });
  }

  async insertApplication(manager: EntityManager, application: NewKybApplication): Promise<void> {
    await manager.insert(KybApplicationEntity, application);
  }

  async countForwardAttempt(applicationId: string): Promise<void> {
    await this.dataSource.manager.increment(KybApplicationEntity, { id: applicationId }, 'forwardAttempts', 1);
  }

  /**
   * Changes the application only while it is still in `from` (a concurrent change wins); in
   * `manager`'s transaction when given. False when it was no longer there.
   */
  async updateApplication(
    id: string,
    from: KybApplicationEntity['status'] | undefined,
    change: Partial<Pick<KybApplicationEntity, 'status' | 'outcome' | 'requirements' | 'providerReference' | 'submittedAt' | 'lastError'>>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const result = await manager.update(KybApplicationEntity, from ? { id, status: from } : { id }, change);
    return (result.affected ?? 0) > 0;
  }

  /** Documents by id, in path order. */
  documents(ids: string[]): Promise<KybDocumentEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.dataSource.manager.find(KybDocumentEntity, { where: { id: In(ids) }, order: { path: 'ASC' } });
  }

  async markUploaded(documentId: string): Promise<void> {
    await this.dataSource.manager.update(KybDocumentEntity, { id: documentId }, { uploadedAt: new Date() });
  }

  /** Stores a document and its bytes, in the caller's transaction. */
  async insertDocument(manager: EntityManager, document: NewKybDocument, chunks: KybDocumentChunk[]): Promise<void> {
    await manager.insert(KybDocumentEntity, document);
    for (let i = 0; i < chunks.length; i += CHUNKS_PER_INSERT) await manager.insert(KybDocumentChunkEntity, chunks.slice(i, i + CHUNKS_PER_INSERT));
  }

  /** One piece of a document's bytes. */
  async chunk(documentId: string, seq: number): Promise<Buffer> {
    // As base64 text: a third larger than the bytes where bytea's hex text is twice as large. (pg's
    // binary result mode decodes every field as UTF-8, which corrupts arbitrary bytes.)
    const { rows } = await this.pool.query<{ data: string }>({
      name: 'kyb_document_chunk',
      text: `SELECT encode(data, 'base64') AS data FROM kyb_document_chunks WHERE document_id = $1 AND seq = $2`,
      values: [documentId, seq],
    });
    if (!rows[0]) throw new Error(`document ${documentId} has no chunk ${seq}`);
    return Buffer.from(rows[0].data, 'base64');
  }

  /** Businesses whose latest application the provider is reviewing. */
  async businessesUnderReview(limit: number): Promise<string[]> {
    const rows = await this.dataSource.query<{ business_id: string }[]>(
      `SELECT DISTINCT business_id FROM kyb_applications WHERE status = 'submitted' LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.business_id);
  }

  /** Applications stored more than `ageMs` ago that the provider does not have yet. */
  async queuedApplications(ageMs: number, limit: number): Promise<string[]> {
    const rows = await this.dataSource.query<{ id: string }[]>(
      `SELECT id FROM kyb_applications WHERE status = 'queued' AND created_at < now() - make_interval(secs => $1 / 1000.0)
       ORDER BY created_at LIMIT $2`,
      [ageMs, limit],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Documents the provider has had for longer than the retention period. Counted from their own
   * upload, not from their application's submission: a correction may name a document of an
   * application that never reached the provider, and once uploaded nothing reads its bytes again.
   */
  async documentsPastRetention(retentionHours: number, limit: number): Promise<string[]> {
    const rows = await this.dataSource.query<{ id: string }[]>(
      `SELECT id FROM kyb_documents WHERE deleted_at IS NULL AND uploaded_at < now() - make_interval(hours => $1) LIMIT $2`,
      [retentionHours, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Deletes the documents' bytes and marks them deleted, in the caller's transaction. */
  async deleteDocumentBytes(manager: EntityManager, documentIds: string[]): Promise<void> {
    await manager.query('DELETE FROM kyb_document_chunks WHERE document_id = ANY($1)', [documentIds]);
    await manager.query('UPDATE kyb_documents SET deleted_at = now() WHERE id = ANY($1)', [documentIds]);
  }
}
