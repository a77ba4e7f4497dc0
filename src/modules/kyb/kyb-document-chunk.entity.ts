import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { KybDocumentEntity } from './kyb-document.entity';

/**
 * A document's bytes, in pieces of at most `DOCUMENT_CHUNK_BYTES`, so any API or worker host
 * reads and writes them through PostgreSQL, in the application's transaction, and the worker can
 * stream a document to the provider holding one piece at a time.
 */
@Entity({ name: 'kyb_document_chunks' })
export class KybDocumentChunkEntity {
  @PrimaryColumn({ name: 'document_id', type: 'text' })
  documentId: string;

  @ManyToOne(() => KybDocumentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'document_id' })
  document?: KybDocumentEntity;

  @PrimaryColumn({ type: 'integer' })
  seq: number;

  @Column({ type: 'bytea' })
  data: Buffer;
}
