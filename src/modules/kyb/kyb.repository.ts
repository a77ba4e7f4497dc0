import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { PG_POOL } from '../../database/database.module';

/** SQL of the KYB tables beyond TypeORM's plain reads and writes. */
@Injectable()
export class KybRepository {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

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
