import { Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { MerchantOwnedEntity } from '../auth/merchant-owned.entity';

/**
 * Something that happened to one of a merchant's objects, written in the transaction of the change
 * it describes. `data` is the object as its GET answered right after the change; `seq` orders the
 * merchant's events and is the object's version (see `mapEvent`).
 */
@Entity({ name: 'events' })
@Index('idx_events_merchant_seq', ['merchantId', 'seq'])
@Index('idx_events_object', ['objectId', 'seq'])
@Index('idx_events_created', ['createdAt'])
export class EventEntity extends MerchantOwnedEntity {
  @Column({ type: 'text' })
  type: string;

  @Column({ name: 'object_id', type: 'text' })
  objectId: string;

  /** `json`, not `jsonb`: the text is kept as written, keys in the order GET answers them. */
  @Column({ type: 'json' })
  data: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
