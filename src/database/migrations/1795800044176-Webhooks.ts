import { MigrationInterface, QueryRunner } from 'typeorm';

/** Webhook endpoints, the deliveries each event owes them (written with the event), and every attempt made. */
export class Webhooks1795800044176 implements MigrationInterface {
  name = 'Webhooks1795800044176';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoints" ("id" text NOT NULL, "seq" BIGSERIAL NOT NULL, "merchant_id" text NOT NULL, "url" text NOT NULL, "enabled_events" text array NOT NULL, "description" text, "disabled" boolean NOT NULL DEFAULT false, "disabled_reason" text, "sealed_secret" text NOT NULL, "sealed_previous_secret" text, "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE, "failing_since" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_054c4cfb95223732f5939d2d546" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_webhook_endpoints_merchant_seq" ON "webhook_endpoints" ("merchant_id", "seq") `);
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("endpoint_id" text NOT NULL, "event_id" text NOT NULL, "state" text NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "round" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "leased_until" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "chk_webhook_deliveries_state" CHECK (state IN ('pending', 'delivered', 'failed')), CONSTRAINT "PK_ce8ee1053d7a0687e786719605d" PRIMARY KEY ("endpoint_id", "event_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_webhook_deliveries_event" ON "webhook_deliveries" ("event_id") `);
    await queryRunner.query(`CREATE INDEX "idx_webhook_deliveries_due" ON "webhook_deliveries" ("next_attempt_at") WHERE state = 'pending'`);
    await queryRunner.query(
      `CREATE TABLE "webhook_attempts" ("id" text NOT NULL, "seq" BIGSERIAL NOT NULL, "endpoint_id" text NOT NULL, "event_id" text NOT NULL, "attempt" integer NOT NULL, "attempted_at" TIMESTAMP WITH TIME ZONE NOT NULL, "status_code" integer, "duration_ms" integer NOT NULL, "response_body" text NOT NULL, "error" text, "next_retry_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_2de7e7887ad97de459adab62638" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_webhook_attempts_event" ON "webhook_attempts" ("event_id") `);
    await queryRunner.query(`CREATE INDEX "idx_webhook_attempts_endpoint_seq" ON "webhook_attempts" ("endpoint_id", "seq") `);
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "FK_a10c384003f1a413769236ef6d8" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_0b882c26a9b91c26e6e86b4867c" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_attempts" ADD CONSTRAINT "FK_ba3c8606f00614a41a397d17d48" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_attempts" ADD CONSTRAINT "FK_f6860b071f398869c7ace8f9e79" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // Wakes the worker's dispatcher when deliveries are written or made due again (a resend).
    await queryRunner.query(
      `CREATE FUNCTION webhook_deliveries_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('webhook_deliveries', ''); RETURN NULL; END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER webhook_deliveries_notify AFTER INSERT OR UPDATE ON "webhook_deliveries" FOR EACH STATEMENT EXECUTE FUNCTION webhook_deliveries_notify()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER webhook_deliveries_notify ON "webhook_deliveries"`);
    await queryRunner.query(`DROP FUNCTION webhook_deliveries_notify()`);
    await queryRunner.query(`ALTER TABLE "webhook_attempts" DROP CONSTRAINT "FK_f6860b071f398869c7ace8f9e79"`);
    await queryRunner.query(`ALTER TABLE "webhook_attempts" DROP CONSTRAINT "FK_ba3c8606f00614a41a397d17d48"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_0b882c26a9b91c26e6e86b4867c"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "FK_a10c384003f1a413769236ef6d8"`);
    await queryRunner.query(`DROP INDEX "public"."idx_webhook_attempts_endpoint_seq"`);
    await queryRunner.query(`DROP INDEX "public"."idx_webhook_attempts_event"`);
    await queryRunner.query(`DROP TABLE "webhook_attempts"`);
    await queryRunner.query(`DROP INDEX "public"."idx_webhook_deliveries_due"`);
    await queryRunner.query(`DROP INDEX "public"."idx_webhook_deliveries_event"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP INDEX "public"."idx_webhook_endpoints_merchant_seq"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
  }
}
