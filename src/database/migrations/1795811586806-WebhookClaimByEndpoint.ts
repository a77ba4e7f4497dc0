import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookClaimByEndpoint1795811586806 implements MigrationInterface {
  name = 'WebhookClaimByEndpoint1795811586806';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_webhook_deliveries_due"`);
    await queryRunner.query(
      `CREATE INDEX "idx_webhook_deliveries_due" ON "webhook_deliveries" ("endpoint_id", "next_attempt_at", "event_id") WHERE state = 'pending'`,
    );
    // A claim rewrites only the lease and the attempt count, in no index: room on the page lets it stay there (a HOT update).
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" SET (fillfactor = 80)`);
    // Deliveries written or resent (a new round) wake the dispatcher; its own claims and records do not.
    await queryRunner.query(`DROP TRIGGER webhook_deliveries_notify ON "webhook_deliveries"`);
    await queryRunner.query(
      `CREATE TRIGGER webhook_deliveries_notify AFTER INSERT OR UPDATE OF round ON "webhook_deliveries" FOR EACH STATEMENT EXECUTE FUNCTION webhook_deliveries_notify()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER webhook_deliveries_notify ON "webhook_deliveries"`);
    await queryRunner.query(
      `CREATE TRIGGER webhook_deliveries_notify AFTER INSERT OR UPDATE ON "webhook_deliveries" FOR EACH STATEMENT EXECUTE FUNCTION webhook_deliveries_notify()`,
    );
    await queryRunner.query(`DROP INDEX "public"."idx_webhook_deliveries_due"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" RESET (fillfactor)`);
    await queryRunner.query(`CREATE INDEX "idx_webhook_deliveries_due" ON "webhook_deliveries" ("next_attempt_at") WHERE (state = 'pending'::text)`);
  }
}
