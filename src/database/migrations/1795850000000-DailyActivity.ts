import { MigrationInterface, QueryRunner } from 'typeorm';

/** The dashboard's daily figures read a merchant's balance transactions of its last days. */
export class DailyActivity1795850000000 implements MigrationInterface {
  name = 'DailyActivity1795850000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "idx_balance_transactions_merchant_created" ON "balance_transactions" ("merchant_id", "created_at") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_balance_transactions_merchant_created"`);
  }
}
