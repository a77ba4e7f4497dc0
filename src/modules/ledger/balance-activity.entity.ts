import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A merchant's balance transactions summed per 15 minutes and type, kept by the posting that
 * writes them (in the same statement): what the dashboard's daily figures read, so a month of a
 * busy merchant's payments is a few thousand rows at most, whatever the count of payments. Every
 * time zone's offset is a multiple of 15 minutes, so each bucket lies within one calendar day of
 * any of them. `ledger:verify` checks these sums against the balance transactions.
 */
@Entity({ name: 'balance_activity' })
export class BalanceActivityEntity {
  @PrimaryColumn({ name: 'merchant_id', type: 'text' })
  merchantId: string;

  @PrimaryColumn({ type: 'text' })
  currency: string;

  /** The start of the 15 minutes (UTC-aligned). */
  @PrimaryColumn({ type: 'timestamptz' })
  bucket: Date;

  @PrimaryColumn({ type: 'text' })
  type: string;

  /** Signed minor units: the sum of the bucket's balance transactions of this type. */
  @Column({ type: 'bigint' })
  amount: string;

  @Column({ type: 'integer' })
  count: number;
}
