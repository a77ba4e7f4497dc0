import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dashboard's merchant-wide vault: its businesses holding USDC in business order, and its
 * totals per chain, read from the vault accounts by (merchant, business). An expression index the
 * entities cannot declare (the entity names it unsynchronised).
 */
export class VaultHolders1795830000000 implements MigrationInterface {
  name = 'VaultHolders1795830000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "idx_ledger_accounts_vault_holders" ON "ledger_accounts" ("merchant_id", (split_part(id, ':', 1)), "id") WHERE kind = 'vault_available'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_ledger_accounts_vault_holders"`);
  }
}
