import { MigrationInterface, QueryRunner } from 'typeorm';

export class VaultTransferHashes1795673626619 implements MigrationInterface {
  name = 'VaultTransferHashes1795673626619';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_vault_transfers_tx_hash" ON "vault_transfers" ("chain", "tx_hash") WHERE tx_hash IS NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_vault_transfers_tx_hash"`);
  }
}
