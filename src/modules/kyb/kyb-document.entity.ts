import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { KybApplicationEntity } from './kyb-application.entity';

/** A document of an application: its bytes are in `kyb_document_chunks`, its hash and size here. */
@Entity({ name: 'kyb_documents' })
export class KybDocumentEntity {
  /** `doc_` + 24 hex characters; also the document's id at the provider. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Index('idx_kyb_documents_application')
  @Column({ name: 'application_id', type: 'text' })
  applicationId: string;

  @ManyToOne(() => KybApplicationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id' })
  application?: KybApplicationEntity;

  /** Where the file sat in the application: `company_files[2].files[0]`, `associated_persons[0].identity_files[1].file`. */
  @Column({ type: 'text' })
  path: string;

  @Column({ name: 'file_type', type: 'text' })
  fileType: string;

  @Column({ type: 'char', length: 64 })
  sha256: string;

  @Column({ name: 'size_bytes', type: 'integer' })
  sizeBytes: number;

  /** Recovery point: the provider has this document, a retried forwarding skips it. */
  @Column({ name: 'uploaded_at', type: 'timestamptz', nullable: true })
  uploadedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Set when the bytes (its chunks) were deleted after the provider had them and the retention period passed. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
