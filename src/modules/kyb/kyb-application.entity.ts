import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { PoboBusinessEntity } from '../pobo-businesses/pobo-business.entity';
import { StateMachine } from '../../common/state-machine/state-machine';
import { APPLICATION_SECTIONS, ApplicationSection } from './kyb.constants';
import type { ProviderRequirement } from './verification-provider';

/**
 * queued (stored, not yet with the provider) → submitted (the provider has it) → reviewed (it
 * reached an outcome); queued → reviewed when the provider refuses the application outright.
 * Moves are compare-and-set updates (`WHERE status = …`), so a repeated job changes nothing.
 */
export const KYB_APPLICATION_STATES = new StateMachine('status', {
  queued: ['submitted', 'reviewed'],
  submitted: ['reviewed'],
  reviewed: [],
});
export type KybApplicationStatus = (typeof KYB_APPLICATION_STATES.states)[number];

/** The application as kept in PostgreSQL: every file replaced by its stored document's id. */
export interface StoredApplication {
  company: object;
  associated_persons: { identity_files: { file: string }[] }[];
  company_files: { file_type: string; files: string[] }[];
}

/**
 * The documents an application names, by their path in it (`company_files[0].files[1]`,
 * `associated_persons[0].identity_files[0].file`), within `sections`. The payload, not the
 * documents' `application_id`, says which documents an application has: a correction names
 * documents stored with the application it corrects.
 */
export function documentIdsByPath(payload: StoredApplication, sections: readonly ApplicationSection[] = APPLICATION_SECTIONS): Map<string, string> {
  const ids = new Map<string, string>();
  if (sections.includes('company_files')) {
    (payload.company_files ?? []).forEach((group, i) => group.files.forEach((id, j) => ids.set(`company_files[${i}].files[${j}]`, id)));
  }
  if (sections.includes('associated_persons')) {
    (payload.associated_persons ?? []).forEach((person, i) =>
      (person.identity_files ?? []).forEach((file, j) => ids.set(`associated_persons[${i}].identity_files[${j}].file`, file.file)),
    );
  }
  return ids;
}

/**
 * One submitted KYB application. Its id is also the idempotency reference sent to the
 * provider, stored before any provider call, so a retried or duplicated submission job can
 * never create a second application there.
 */
@Entity({ name: 'kyb_applications' })
@Index('idx_kyb_applications_status', ['status', 'createdAt'])
@Check('chk_kyb_applications_status', `"status" IN (${KYB_APPLICATION_STATES.sqlList()})`)
export class KybApplicationEntity {
  /** `kyba_` + 24 hex characters. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Index('idx_kyb_applications_business')
  @Column({ name: 'business_id', type: 'text' })
  businessId: string;

  @ManyToOne(() => PoboBusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: PoboBusinessEntity;

  @Column({ type: 'varchar', length: 16 })
  status: KybApplicationStatus;

  /** The application without its documents (they are in kyb_documents). */
  @Column({ type: 'jsonb' })
  payload: StoredApplication;

  @Column({ name: 'provider_reference', type: 'text', nullable: true })
  providerReference: string | null;

  @Column({ name: 'submitted_at', type: 'timestamptz', nullable: true })
  submittedAt: Date | null;

  @Column({ name: 'outcome', type: 'varchar', length: 32, nullable: true })
  outcome: string | null;

  @Column({ name: 'requirements', type: 'jsonb', default: () => "'[]'" })
  requirements: ProviderRequirement[];

  /** Forwarding jobs started for it (a job retried after a crash counts again). */
  @Column({ name: 'forward_attempts', type: 'integer', default: 0 })
  forwardAttempts: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
