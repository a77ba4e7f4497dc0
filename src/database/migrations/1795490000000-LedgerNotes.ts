import { MigrationInterface, QueryRunner } from 'typeorm';

/** An operator's movements of money (a receivable recovered by hand or written off) carry their note. */
export class LedgerNotes1795490000000 implements MigrationInterface {
  name = 'LedgerNotes1795490000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ledger_transactions" ADD "note" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ledger_transactions" DROP COLUMN "note"`);
  }
}
