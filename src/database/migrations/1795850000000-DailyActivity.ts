import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dashboard's daily figures: every merchant's balance transactions summed per 15 minutes and
 * type (`balance_activity`), filled from the balance transactions already there; postings keep
 * it from then on.
 */
export class DailyActivity1795850000000 implements MigrationInterface {
  name = 'DailyActivity1795850000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "balance_activity" ("merchant_id" text NOT NULL, "currency" text NOT NULL, "bucket" TIMESTAMP WITH TIME ZONE NOT NULL, "type" text NOT NULL, "amount" bigint NOT NULL, "count" integer NOT NULL, CONSTRAINT "PK_balance_activity" PRIMARY KEY ("merchant_id", "currency", "bucket", "type"))`,
    );
    await queryRunner.query(
      `INSERT INTO balance_activity (merchant_id, currency, bucket, type, amount, count)
       SELECT merchant_id, currency, date_bin('15 minutes', created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), type, sum(amount), count(*)
         FROM balance_transactions GROUP BY 1, 2, 3, 4`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "balance_activity"`);
  }
}
