import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';

/** A merchant's dashboard team settings, set by its owners; no row means the defaults. */
@Entity({ name: 'team_settings' })
export class TeamSettingsEntity {
  @PrimaryColumn({ name: 'merchant_id', type: 'text' })
  merchantId: string;

  @OneToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  /** Every user of the team signs in with a second factor; one without it may only enrol. */
  @Column({ name: 'require_two_factor', type: 'boolean', default: false })
  requireTwoFactor: boolean;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
