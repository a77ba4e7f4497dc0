import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each run of the ledger's verification (the worker's schedule, `ledger:verify`), for the operator port's gauges. */
export class LedgerVerifications1795860000000 implements MigrationInterface {
  name = 'LedgerVerifications1795860000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "ledger_verifications" ("id" BIGSERIAL NOT NULL, "trigger" text NOT NULL, "ok" boolean NOT NULL, "problems" jsonb NOT NULL, "open_receivables" integer NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_ledger_verifications" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_ledger_verifications_finished" ON "ledger_verifications" ("finished_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "ledger_verifications"`);
  }
}
