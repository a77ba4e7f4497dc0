import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Platform ledger accounts stop keeping a balance (see `LedgerAccountEntity`): every merchant's
 * postings touched their rows, so postings queued on them across all merchants. Their balance is
 * the sum of their entries; ledger:verify now checks kept balances (merchants') only.
 */
export class PlatformBalancesUnkept1795480000000 implements MigrationInterface {
  name = 'PlatformBalancesUnkept1795480000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ledger_accounts" ALTER COLUMN "balance" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "ledger_accounts" ALTER COLUMN "balance" DROP DEFAULT`);
    await queryRunner.query(`UPDATE "ledger_accounts" SET "balance" = NULL WHERE "merchant_id" IS NULL`);
    await queryRunner.query(
      `ALTER TABLE "ledger_accounts" ADD CONSTRAINT "chk_ledger_accounts_balance_kept" CHECK ((merchant_id IS NULL) = (balance IS NULL))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ledger_accounts" DROP CONSTRAINT "chk_ledger_accounts_balance_kept"`);
    await queryRunner.query(
      `UPDATE "ledger_accounts" a SET "balance" = (SELECT COALESCE(sum(e.amount), 0) FROM "ledger_entries" e WHERE e.account_id = a.id) WHERE a."merchant_id" IS NULL`,
    );
    await queryRunner.query(`ALTER TABLE "ledger_accounts" ALTER COLUMN "balance" SET DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "ledger_accounts" ALTER COLUMN "balance" SET NOT NULL`);
  }
}
