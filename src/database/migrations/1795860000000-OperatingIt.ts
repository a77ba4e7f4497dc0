import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each run of the ledger's verification (the worker's schedule, `ledger:verify`), for the operator
 * port's gauges; and the trace an outbox job continues (its request's `traceparent`).
 */
export class OperatingIt1795860000000 implements MigrationInterface {
  name = 'OperatingIt1795860000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "ledger_verifications" ("id" BIGSERIAL NOT NULL, "trigger" text NOT NULL, "ok" boolean NOT NULL, "problems" jsonb NOT NULL, "open_receivables" integer NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_ledger_verifications" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_ledger_verifications_finished" ON "ledger_verifications" ("finished_at")`);
    await queryRunner.query(`ALTER TABLE "outbox" ADD "trace_parent" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox" DROP COLUMN "trace_parent"`);
    await queryRunner.query(`DROP TABLE "ledger_verifications"`);
  }
}
