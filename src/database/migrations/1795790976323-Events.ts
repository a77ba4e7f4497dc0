import { MigrationInterface, QueryRunner } from 'typeorm';

/** The merchants' events: written once with the change they describe, never changed, removed after their retention. */
export class Events1795790976323 implements MigrationInterface {
  name = 'Events1795790976323';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "events" ("id" text NOT NULL, "seq" BIGSERIAL NOT NULL, "merchant_id" text NOT NULL, "type" text NOT NULL, "object_id" text NOT NULL, "data" json NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_40731c7151fe4be3116e45ddf73" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_events_created" ON "events" ("created_at") `);
    await queryRunner.query(`CREATE INDEX "idx_events_object" ON "events" ("object_id", "seq") `);
    await queryRunner.query(`CREATE INDEX "idx_events_merchant_seq" ON "events" ("merchant_id", "seq") `);
    await queryRunner.query(
      `ALTER TABLE "events" ADD CONSTRAINT "FK_ed32c7f36fa1493873a5d20351c" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // What was sent stays what was sent: an event is never rewritten (retention deletes it whole).
    await queryRunner.query(
      `CREATE FUNCTION events_unchanged() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'events are never updated'; END $$`,
    );
    await queryRunner.query(`CREATE TRIGGER events_unchanged BEFORE UPDATE ON "events" FOR EACH STATEMENT EXECUTE FUNCTION events_unchanged()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER events_unchanged ON "events"`);
    await queryRunner.query(`DROP FUNCTION events_unchanged()`);
    await queryRunner.query(`ALTER TABLE "events" DROP CONSTRAINT "FK_ed32c7f36fa1493873a5d20351c"`);
    await queryRunner.query(`DROP INDEX "public"."idx_events_merchant_seq"`);
    await queryRunner.query(`DROP INDEX "public"."idx_events_object"`);
    await queryRunner.query(`DROP INDEX "public"."idx_events_created"`);
    await queryRunner.query(`DROP TABLE "events"`);
  }
}
