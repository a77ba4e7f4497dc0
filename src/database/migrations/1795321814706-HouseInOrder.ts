import { MigrationInterface, QueryRunner } from 'typeorm';

export class HouseInOrder1795321814706 implements MigrationInterface {
  name = 'HouseInOrder1795321814706';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "outbox" ("id" BIGSERIAL NOT NULL, "job_name" text NOT NULL, "job_id" text NOT NULL, "payload" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_340ab539f309f03bdaa14aa7649" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "kyb_document_chunks" ("document_id" text NOT NULL, "seq" integer NOT NULL, "data" bytea NOT NULL, CONSTRAINT "PK_419c005e7ebda486c0605c0fc7f" PRIMARY KEY ("document_id", "seq"))`,
    );
    await queryRunner.query(`ALTER TABLE "kyb_documents" ADD "uploaded_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "naira_accounts" ADD "failed_at" TIMESTAMP WITH TIME ZONE`);
    // Counts forwarding jobs: "submit" is what the merchant does.
    await queryRunner.query(`ALTER TABLE "kyb_applications" RENAME COLUMN "submit_attempts" TO "forward_attempts"`);
    await queryRunner.query(
      `ALTER TABLE "kyb_document_chunks" ADD CONSTRAINT "FK_49dc4d238268d61dea1c731e974" FOREIGN KEY ("document_id") REFERENCES "kyb_documents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // Documents are PDFs and images, compressed already: store them out of line without trying to compress them again.
    await queryRunner.query(`ALTER TABLE "kyb_document_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL`);
    // Rounds that had failed before failed_at existed wait their retry from their last change.
    await queryRunner.query(
      `UPDATE "naira_accounts" a SET "failed_at" = a."updated_at" FROM "pobo_businesses" b WHERE b."id" = a."business_id" AND b."naira_collection_status" = 'failed'`,
    );
    // The history stays append-only, TRUNCATE included, but goes with its business when one is
    // deleted (the foreign key's cascade runs as a trigger, one level down).
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION business_status_history_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN RETURN NULL; END IF; RAISE EXCEPTION 'business_status_history is append-only'; END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER business_status_history_no_truncate BEFORE TRUNCATE ON "business_status_history" FOR EACH STATEMENT EXECUTE FUNCTION business_status_history_append_only()`,
    );
    // Wakes the worker's outbox relay when a transaction that wrote to the outbox commits.
    await queryRunner.query(
      `CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('outbox', ''); RETURN NULL; END $$`,
    );
    await queryRunner.query(`CREATE TRIGGER outbox_notify AFTER INSERT ON "outbox" FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER outbox_notify ON "outbox"`);
    await queryRunner.query(`DROP FUNCTION outbox_notify()`);
    await queryRunner.query(`DROP TRIGGER business_status_history_no_truncate ON "business_status_history"`);
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION business_status_history_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'business_status_history is append-only'; END $$`,
    );
    await queryRunner.query(`ALTER TABLE "kyb_document_chunks" DROP CONSTRAINT "FK_49dc4d238268d61dea1c731e974"`);
    await queryRunner.query(`ALTER TABLE "kyb_applications" RENAME COLUMN "forward_attempts" TO "submit_attempts"`);
    await queryRunner.query(`ALTER TABLE "naira_accounts" DROP COLUMN "failed_at"`);
    await queryRunner.query(`ALTER TABLE "kyb_documents" DROP COLUMN "uploaded_at"`);
    await queryRunner.query(`DROP TABLE "kyb_document_chunks"`);
    await queryRunner.query(`DROP TABLE "outbox"`);
  }
}
