import { MigrationInterface, QueryRunner } from 'typeorm';

export class VaultTransferStalls1795740000000 implements MigrationInterface {
  name = 'VaultTransferStalls1795740000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "vault_transfers" ADD "stalled_reason" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "vault_transfers" DROP COLUMN "stalled_reason"`);
  }
}
