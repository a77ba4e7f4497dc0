import { MigrationInterface, QueryRunner } from 'typeorm';

const WRITTEN = ['ledger_transactions', 'ledger_entries', 'balance_transactions'];

/**
 * `ledger:verify` read the whole history on every run. Each ledger row now carries the id of the
 * transaction that wrote it, and the last run that held keeps its snapshot and the sums it saw, so
 * the next run reads only the rows its snapshot did not see. The column is added without a table
 * rewrite: rows already written keep NULL and count as seen. The indexes are BRIN: these tables
 * are append-only, so the writer's xid and `created_at` follow the rows' physical order, and a
 * BRIN index costs next to nothing per insert.
 */
export class LedgerCheckpoint1795890000000 implements MigrationInterface {
  name = 'LedgerCheckpoint1795890000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // xid8 has no cast to bigint: through text. A function, so the default reads back as written.
    await queryRunner.query(`CREATE FUNCTION ledger_writer_xid() RETURNS bigint LANGUAGE sql STABLE AS $$ SELECT pg_current_xact_id()::text::bigint $$`);
    for (const table of WRITTEN) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD "xid" bigint`);
      await queryRunner.query(`ALTER TABLE "${table}" ALTER COLUMN "xid" SET DEFAULT ledger_writer_xid()`);
      await queryRunner.query(`CREATE INDEX "idx_${table}_xid" ON "${table}" USING brin ("xid")`);
    }
    await queryRunner.query(`CREATE INDEX "idx_balance_transactions_created" ON "balance_transactions" USING brin ("created_at")`);
    await queryRunner.query(
      `CREATE TABLE "ledger_checkpoint" ("id" smallint NOT NULL, "snapshot" text, "verified_at" TIMESTAMP WITH TIME ZONE, "full_at" TIMESTAMP WITH TIME ZONE,
         CONSTRAINT "chk_ledger_checkpoint_one" CHECK (id = 1), CONSTRAINT "PK_ledger_checkpoint" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`INSERT INTO "ledger_checkpoint" ("id") VALUES (1)`);
    await queryRunner.query(
      `CREATE TABLE "ledger_checkpoint_accounts" ("account_id" text NOT NULL, "entries" bigint NOT NULL DEFAULT 0, "balance_transactions" bigint NOT NULL DEFAULT 0,
         CONSTRAINT "PK_ledger_checkpoint_accounts" PRIMARY KEY ("account_id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "ledger_checkpoint_accounts"`);
    await queryRunner.query(`DROP TABLE "ledger_checkpoint"`);
    await queryRunner.query(`DROP INDEX "idx_balance_transactions_created"`);
    for (const table of WRITTEN) {
      await queryRunner.query(`DROP INDEX "idx_${table}_xid"`);
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "xid"`);
    }
    await queryRunner.query(`DROP FUNCTION ledger_writer_xid()`);
  }
}
