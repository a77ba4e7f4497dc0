import { Column, Generated, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MerchantEntity } from './merchant.entity';

/**
 * The columns every listed resource of a merchant shares: its public id (a type prefix and 96
 * random bits), its insertion order for keyset paging (`KeysetList`, with an index on
 * `(merchant_id, seq)` declared by each table), and its merchant, with whom it goes.
 */
export abstract class MerchantOwnedEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'bigint' })
  @Generated('increment')
  seq: string;

  @Column({ name: 'merchant_id', type: 'text' })
  merchantId: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;
}
