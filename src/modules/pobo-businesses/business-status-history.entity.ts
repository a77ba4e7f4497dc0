import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { PoboBusinessEntity } from './pobo-business.entity';

/** Append-only (a trigger refuses UPDATE and DELETE): every status move of a business, with its cause. */
@Entity({ name: 'business_status_history' })
@Index('idx_business_status_history_business', ['businessId', 'id'])
export class BusinessStatusHistoryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'business_id', type: 'text' })
  businessId: string;

  @ManyToOne(() => PoboBusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: PoboBusinessEntity;

  /** `agreement`, `kyb` or `naira_collection`. */
  @Column({ type: 'varchar', length: 32 })
  field: string;

  @Column({ name: 'from_status', type: 'varchar', length: 32 })
  fromStatus: string;

  @Column({ name: 'to_status', type: 'varchar', length: 32 })
  toStatus: string;

  /** Machine-readable cause, e.g. `agreement_accepted`, `kyb_submitted`, `provider_verified`. */
  @Column({ type: 'text' })
  cause: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
