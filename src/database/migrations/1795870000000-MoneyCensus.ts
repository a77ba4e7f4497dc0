import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operator port's money census reads the unfinished objects at every scrape: an index of each
 * kind's unfinished rows only (their statuses as each owner's `MoneyObjectSource` names them), so
 * that read, and the stuck-work list, cost what is unfinished, not the whole table.
 */
export class MoneyCensus1795870000000 implements MigrationInterface {
  name = 'MoneyCensus1795870000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "idx_payment_intents_unfinished" ON "payment_intents" ("status") WHERE status IN ('awaiting_payment', 'funds_received')`,
    );
    await queryRunner.query(`CREATE INDEX "idx_withdrawals_unfinished" ON "withdrawals" ("status") WHERE status IN ('pending', 'processing')`);
    await queryRunner.query(
      `CREATE INDEX "idx_international_payment_intents_unfinished" ON "international_payment_intents" ("status") WHERE status IN ('pending', 'processing', 'bridge_initiated', 'bridge_confirmed', 'withdrawal_initiated', 'withdrawal_confirmed')`,
    );
    await queryRunner.query(`CREATE INDEX "idx_vault_transfers_unfinished" ON "vault_transfers" ("status") WHERE status IN ('pending', 'submitted')`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const index of [
      'idx_payment_intents_unfinished',
      'idx_withdrawals_unfinished',
      'idx_international_payment_intents_unfinished',
      'idx_vault_transfers_unfinished',
    ]) {
      await queryRunner.query(`DROP INDEX "${index}"`);
    }
  }
}
