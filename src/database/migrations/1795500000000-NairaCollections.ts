import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A business's own Naira account made usable: its details on the business (what the business object
 * shows), the account's name, bank code and closure kept with it, and the collections that arrive
 * there; a balance transaction can name its business.
 */
export class NairaCollections1795500000000 implements MigrationInterface {
  name = 'NairaCollections1795500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "collections" ("id" text NOT NULL, "seq" BIGSERIAL NOT NULL, "merchant_id" text NOT NULL, "pobo_user_id" text NOT NULL, "rail_transfer_id" text NOT NULL, "account_number" text NOT NULL, "amount" bigint NOT NULL, "currency" text NOT NULL, "sender_name" text, "sender_bank_name" text NOT NULL, "sender_account_number" text NOT NULL, "narration" text, "status" text NOT NULL, "return_reason" text, "rail_return_id" text, "returned_at" TIMESTAMP WITH TIME ZONE, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_511c3c4cfbf4b9cf327f5154903" UNIQUE ("rail_transfer_id"), CONSTRAINT "chk_collections_status" CHECK ("status" IN ('credited', 'returned') AND ("status" = 'returned') = (return_reason IS NOT NULL)), CONSTRAINT "PK_21c00b1ebbd41ba1354242c5c4e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_collections_return_pending" ON "collections" ("id") WHERE status = 'returned' AND rail_return_id IS NULL`);
    await queryRunner.query(`CREATE INDEX "idx_collections_business_seq" ON "collections" ("pobo_user_id", "seq") `);
    await queryRunner.query(`CREATE INDEX "idx_collections_merchant_seq" ON "collections" ("merchant_id", "seq") `);
    await queryRunner.query(`ALTER TABLE "balance_transactions" ADD "pobo_user_id" text`);
    await queryRunner.query(`ALTER TABLE "pobo_businesses" ADD "naira_account_number" text`);
    await queryRunner.query(`ALTER TABLE "pobo_businesses" ADD "naira_account_name" text`);
    await queryRunner.query(`ALTER TABLE "pobo_businesses" ADD "naira_bank_name" text`);
    await queryRunner.query(`ALTER TABLE "pobo_businesses" ADD "naira_bank_code" text`);
    await queryRunner.query(`ALTER TABLE "naira_accounts" ADD "account_name" text`);
    await queryRunner.query(`ALTER TABLE "naira_accounts" ADD "bank_code" text`);
    await queryRunner.query(`ALTER TABLE "naira_accounts" ADD "closed_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "naira_accounts" ADD "closed_note" text`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_naira_accounts_account_number" ON "naira_accounts" ("account_number") WHERE account_number IS NOT NULL`);
    // Accounts opened before: their name is the business's, and the business shows them.
    await queryRunner.query(
      `UPDATE "naira_accounts" a SET "account_name" = b."business_name" FROM "pobo_businesses" b WHERE b."id" = a."business_id" AND a."account_number" IS NOT NULL`,
    );
    await queryRunner.query(`UPDATE "pobo_businesses" b SET "naira_account_number" = a."account_number", "naira_account_name" = a."account_name", "naira_bank_name" = a."bank_name"
            FROM "naira_accounts" a WHERE a."business_id" = b."id" AND b."naira_collection_status" = 'active'`);
    await queryRunner.query(
      `ALTER TABLE "collections" ADD CONSTRAINT "FK_d23bf5c91178a45504e9d96670e" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "collections" DROP CONSTRAINT "FK_d23bf5c91178a45504e9d96670e"`);
    await queryRunner.query(`DROP INDEX "public"."uq_naira_accounts_account_number"`);
    await queryRunner.query(`ALTER TABLE "naira_accounts" DROP COLUMN "closed_note"`);
    await queryRunner.query(`ALTER TABLE "naira_accounts" DROP COLUMN "closed_at"`);
    await queryRunner.query(`ALTER TABLE "naira_accounts" DROP COLUMN "bank_code"`);
    await queryRunner.query(`ALTER TABLE "naira_accounts" DROP COLUMN "account_name"`);
    await queryRunner.query(`ALTER TABLE "pobo_businesses" DROP COLUMN "naira_bank_code"`);
    await queryRunner.query(`ALTER TABLE "pobo_businesses" DROP COLUMN "naira_bank_name"`);
    await queryRunner.query(`ALTER TABLE "pobo_businesses" DROP COLUMN "naira_account_name"`);
    await queryRunner.query(`ALTER TABLE "pobo_businesses" DROP COLUMN "naira_account_number"`);
    await queryRunner.query(`ALTER TABLE "balance_transactions" DROP COLUMN "pobo_user_id"`);
    await queryRunner.query(`DROP INDEX "public"."idx_collections_merchant_seq"`);
    await queryRunner.query(`DROP INDEX "public"."idx_collections_business_seq"`);
    await queryRunner.query(`DROP INDEX "public"."idx_collections_return_pending"`);
    await queryRunner.query(`DROP TABLE "collections"`);
  }
}
