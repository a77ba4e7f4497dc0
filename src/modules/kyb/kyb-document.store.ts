import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newId } from '../../common/ids/ids';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobHandler } from '../../jobs';
import { KybDocumentEntity } from './kyb-document.entity';
import { SubmittedDocument } from './kyb-application.rules';
import { KYB_JOBS } from './kyb.jobs';
import { KybDocumentChunk, KybRepository } from './kyb.repository';

/** Size of one stored piece: what the worker holds of a document while sending it. */
export const DOCUMENT_CHUNK_BYTES = 512 * 1024;
const PURGE_BATCH = 200;

export type StoredDocument = Pick<KybDocumentEntity, 'id' | 'path' | 'fileType' | 'sha256' | 'sizeBytes'>;
export type PreparedDocument = StoredDocument & { content: Buffer };

/**
 * KYB documents in PostgreSQL: shared by every API and worker host, durable, and stored in the
 * transaction that stores their application, so an application never refers to missing bytes.
 * Reads go a piece at a time, so sending a document holds one piece, not the document.
 */
@Injectable()
export class KybDocumentStore {
  private readonly logger = new Logger(KybDocumentStore.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: KybRepository,
  ) {}

  /** Names and hashes the documents of an application (no I/O); same order as given. */
  prepare(documents: SubmittedDocument[]): PreparedDocument[] {
    return documents.map((document) => ({
      id: newId('doc'),
      path: document.path,
      fileType: document.fileType,
      sha256: createHash('sha256').update(document.content).digest('hex'),
      sizeBytes: document.sizeBytes,
      content: document.content,
    }));
  }

  /** Stores prepared documents and their bytes in the caller's transaction. */
  async save(manager: EntityManager, applicationId: string, documents: PreparedDocument[]): Promise<void> {
    for (const { content, ...document } of documents) {
      const chunks: KybDocumentChunk[] = [];
      for (let offset = 0, seq = 0; offset < content.length; offset += DOCUMENT_CHUNK_BYTES, seq++) {
        chunks.push({ documentId: document.id, seq, data: content.subarray(offset, offset + DOCUMENT_CHUNK_BYTES) });
      }
      await this.repository.insertDocument(manager, { ...document, applicationId, uploadedAt: null, deletedAt: null }, chunks);
    }
  }

  /** A document's bytes, one piece at a time, read as they are consumed. */
  async *read(document: Pick<StoredDocument, 'id' | 'sizeBytes'>): AsyncGenerator<Buffer> {
    const pieces = Math.ceil(document.sizeBytes / DOCUMENT_CHUNK_BYTES);
    for (let seq = 0; seq < pieces; seq++) yield await this.repository.chunk(document.id, seq);
  }

  @JobHandler(KYB_JOBS.purgeDocuments)
  async purgeDocuments(): Promise<void> {
    const due = await this.repository.documentsPastRetention(this.config.documentRetentionHours, PURGE_BATCH);
    if (due.length === 0) return;
    await this.dataSource.transaction((manager) => this.repository.deleteDocumentBytes(manager, due));
    this.logger.log(`deleted the bytes of ${due.length} documents past retention`);
  }
}
