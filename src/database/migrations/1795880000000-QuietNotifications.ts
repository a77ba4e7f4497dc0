import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dispatcher's wake-up fired for every insert statement on `webhook_deliveries`, rows or none:
 * every event written for a merchant with no endpoint (its statement inserts deliveries for none)
 * woke every worker's dispatcher for nothing, and each listening connection counts a transaction
 * to read the notification. Now an insert notifies only when it wrote a delivery (a transition
 * table, which needs a trigger of its own); a resend (`UPDATE OF round`) notifies as before.
 */
export class QuietNotifications1795880000000 implements MigrationInterface {
  name = 'QuietNotifications1795880000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER webhook_deliveries_notify ON "webhook_deliveries"`);
    await queryRunner.query(
      `CREATE FUNCTION webhook_deliveries_inserted_notify() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF EXISTS (SELECT 1 FROM inserted) THEN PERFORM pg_notify('webhook_deliveries', ''); END IF;
         RETURN NULL;
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER webhook_deliveries_inserted_notify AFTER INSERT ON "webhook_deliveries" REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION webhook_deliveries_inserted_notify()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER webhook_deliveries_resent_notify AFTER UPDATE OF round ON "webhook_deliveries" FOR EACH STATEMENT EXECUTE FUNCTION webhook_deliveries_notify()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER webhook_deliveries_resent_notify ON "webhook_deliveries"`);
    await queryRunner.query(`DROP TRIGGER webhook_deliveries_inserted_notify ON "webhook_deliveries"`);
    await queryRunner.query(`DROP FUNCTION webhook_deliveries_inserted_notify()`);
    await queryRunner.query(
      `CREATE TRIGGER webhook_deliveries_notify AFTER INSERT OR UPDATE OF round ON "webhook_deliveries" FOR EACH STATEMENT EXECUTE FUNCTION webhook_deliveries_notify()`,
    );
  }
}
