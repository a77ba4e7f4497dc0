import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Per ledger account, the sums of what the checkpoint's snapshot saw: its entries and, for a merchant's available account, its balance transactions. */
@Entity({ name: 'ledger_checkpoint_accounts' })
export class LedgerCheckpointAccountEntity {
  @PrimaryColumn({ name: 'account_id', type: 'text' })
  accountId: string;

  /** Minor units. */
  @Column({ type: 'bigint', default: 0 })
  entries: string;

  /** Minor units; the balance transactions of the account's merchant and currency (available accounts only). */
  @Column({ name: 'balance_transactions', type: 'bigint', default: 0 })
  balanceTransactions: string;
}
