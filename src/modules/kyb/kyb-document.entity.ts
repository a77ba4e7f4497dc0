import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { KybApplicationEntity } from './kyb-application.entity';

/** A document of an application: its bytes live in document storage, its hash and size here. */
@Entity({ name: 'kyb_documents' })
export class KybDocumentEntity {
  /** `doc_` + 24 hex characters; also the storage key. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Index('idx_kyb_documents_application')
  @Column({ name: 'application_id', type: 'text' })
  applicationId: string;

  @ManyToOne(() => KybApplicationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id' })
  application?: KybApplicationEntity;

  /** Where the file sat in the application: `company_files[2].files[0]`, `associated_persons[0].identity_files[1]`. */
  @Column({ type: 'text' })
  path: string;

  @Column({ name: 'file_type', type: 'text' })
  fileType: string;

  @Column({ type: 'char', length: 64 })
  sha256: string;

  @Column({ name: 'size_bytes', type: 'integer' })
  sizeBytes: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Set when the bytes were removed after the provider had them and the retention period passed. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
