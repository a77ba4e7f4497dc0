import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dashboard search's keys, each behind an index that starts with the merchant (see
 * `SearchStatement`): names by their start without regard to case and account numbers by their
 * end, both compared byte-wise ("C"); amounts newest first; references the tables had no index
 * for. The entities name them unsynchronised: expressions TypeORM cannot declare, kept together here.
 */
const INDEXES: [name: string, table: string, columns: string][] = [
  ['idx_pobo_businesses_search_name', 'pobo_businesses', `merchant_id, (lower(business_name) COLLATE "C")`],
  ['idx_payment_intents_search_account', 'payment_intents', `merchant_id, (reverse(account_number) COLLATE "C")`],
  ['idx_payment_intents_search_amount', 'payment_intents', 'merchant_id, amount, seq'],
  ['idx_withdrawals_search_name', 'withdrawals', `merchant_id, (lower(account_name) COLLATE "C")`],
  ['idx_withdrawals_search_account', 'withdrawals', `merchant_id, (reverse(account_number) COLLATE "C")`],
  ['idx_withdrawals_search_amount', 'withdrawals', 'merchant_id, amount, seq'],
  ['idx_international_payment_intents_search_reference', 'international_payment_intents', 'merchant_id, payment_reference'],
  ['idx_international_payment_intents_search_name', 'international_payment_intents', `merchant_id, (lower(recipient_full_name) COLLATE "C")`],
  ['idx_international_payment_intents_search_account', 'international_payment_intents', `merchant_id, (reverse(account_number) COLLATE "C")`],
  ['idx_international_payment_intents_search_amount', 'international_payment_intents', 'merchant_id, amount, seq'],
  ['idx_vault_transfers_search_reference', 'vault_transfers', 'merchant_id, merchant_reference'],
  ['idx_vault_transfers_search_amount', 'vault_transfers', 'merchant_id, amount, seq'],
];

export class DashboardSearch1795840000000 implements MigrationInterface {
  name = 'DashboardSearch1795840000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, table, columns] of INDEXES) await queryRunner.query(`CREATE INDEX "${name}" ON "${table}" (${columns})`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name] of [...INDEXES].reverse()) await queryRunner.query(`DROP INDEX "public"."${name}"`);
  }
}
