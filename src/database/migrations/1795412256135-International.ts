import { MigrationInterface, QueryRunner } from 'typeorm';

/** Append-only like the other status histories (the function comes from MoneyMovement). */
const HISTORY = 'international_payment_intent_status_history';

export class International1795412256135 implements MigrationInterface {
  name = 'International1795412256135';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "international_payment_intents" ("id" text NOT NULL, "seq" BIGSERIAL NOT NULL, "merchant_id" text NOT NULL, "pobo_user_id" text NOT NULL, "quote_id" text NOT NULL, "quote_option_id" text NOT NULL, "route_type" text NOT NULL, "destination_country" text NOT NULL, "amount" bigint NOT NULL, "currency" text NOT NULL, "source_amount" bigint NOT NULL, "source_currency" text NOT NULL, "converted_amount" bigint NOT NULL, "fee" bigint NOT NULL, "exchange_rate" text NOT NULL, "quote_expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "recipient_full_name" text NOT NULL, "recipient_email" text, "bank_code_type" text NOT NULL, "bank_code" text NOT NULL, "account_number" text, "purpose_of_transfer" text NOT NULL, "payment_reference" text, "status" text NOT NULL, "admin_note" text, "bridge_transfer_id" text, "payout_id" text, "payout_confirmation" jsonb, "receipt_token" text NOT NULL, "processed_at" TIMESTAMP WITH TIME ZONE, "settled_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_59aef9e46e631947330e714e4a4" UNIQUE ("quote_id"), CONSTRAINT "UQ_de5377abe9bd2c40329ba06f72b" UNIQUE ("receipt_token"), CONSTRAINT "chk_international_payment_intents_amounts" CHECK (amount > 0 AND source_amount > 0 AND fee >= 0 AND converted_amount + fee = source_amount), CONSTRAINT "chk_international_payment_intents_status" CHECK ("status" IN ('pending', 'processing', 'bridge_initiated', 'bridge_confirmed', 'withdrawal_initiated', 'withdrawal_confirmed', 'settled', 'rejected')), CONSTRAINT "PK_ca8cdfee2c4379ce9770a50d542" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_international_payment_intents_in_flight" ON "international_payment_intents" ("updated_at") WHERE status NOT IN ('settled', 'rejected')`,
    );
    await queryRunner.query(`CREATE INDEX "idx_international_payment_intents_merchant_seq" ON "international_payment_intents" ("merchant_id", "seq") `);
    await queryRunner.query(
      `CREATE TABLE "international_payment_intent_status_history" ("id" BIGSERIAL NOT NULL, "from_status" text NOT NULL, "to_status" text NOT NULL, "cause" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "intent_id" text NOT NULL, CONSTRAINT "PK_4437f454520d8ba0765d79f2081" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_international_intent_status_history_intent" ON "international_payment_intent_status_history" ("intent_id", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "quotes" ("id" text NOT NULL, "seq" BIGSERIAL NOT NULL, "merchant_id" text NOT NULL, "pobo_user_id" text NOT NULL, "destination_country" text NOT NULL, "currency" text NOT NULL, "amount" bigint NOT NULL, "options" jsonb NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_by_intent_id" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_76ecd87aa9c0548523bd32cf9ca" UNIQUE ("used_by_intent_id"), CONSTRAINT "PK_99a0e8bcbcd8719d3a41f23c263" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_quotes_merchant_seq" ON "quotes" ("merchant_id", "seq") `);
    // One inbox for every rail's events: the bank rail's log becomes it, keyed by rail and event id.
    await queryRunner.query(`ALTER TABLE "bank_rail_events" RENAME TO "rail_events"`);
    await queryRunner.query(`ALTER TABLE "rail_events" ADD "rail" text NOT NULL DEFAULT 'bank_rail'`);
    await queryRunner.query(`ALTER TABLE "rail_events" ALTER COLUMN "rail" DROP DEFAULT`);
    await queryRunner.query(`ALTER TABLE "rail_events" DROP CONSTRAINT "PK_1c5f3759997d17993530f9602ee"`);
    await queryRunner.query(`ALTER TABLE "rail_events" ADD CONSTRAINT "PK_911d2f3f0cc8c6dd37ae5335250" PRIMARY KEY ("rail", "id")`);
    await queryRunner.query(
      `ALTER TABLE "international_payment_intents" ADD CONSTRAINT "FK_c7eed6772c2949987d248aadb94" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "international_payment_intent_status_history" ADD CONSTRAINT "FK_cca06b1ba9b4ef09008d7c0afff" FOREIGN KEY ("intent_id") REFERENCES "international_payment_intents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "quotes" ADD CONSTRAINT "FK_dc677e963211e9f8a26fe9c5ad2" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`CREATE TRIGGER ${HISTORY}_append_only BEFORE UPDATE OR DELETE ON "${HISTORY}" FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`);
    await queryRunner.query(`CREATE TRIGGER ${HISTORY}_no_truncate BEFORE TRUNCATE ON "${HISTORY}" FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER ${HISTORY}_append_only ON "${HISTORY}"`);
    await queryRunner.query(`DROP TRIGGER ${HISTORY}_no_truncate ON "${HISTORY}"`);
    await queryRunner.query(`ALTER TABLE "quotes" DROP CONSTRAINT "FK_dc677e963211e9f8a26fe9c5ad2"`);
    await queryRunner.query(`ALTER TABLE "international_payment_intent_status_history" DROP CONSTRAINT "FK_cca06b1ba9b4ef09008d7c0afff"`);
    await queryRunner.query(`ALTER TABLE "international_payment_intents" DROP CONSTRAINT "FK_c7eed6772c2949987d248aadb94"`);
    await queryRunner.query(`ALTER TABLE "rail_events" DROP CONSTRAINT "PK_911d2f3f0cc8c6dd37ae5335250"`);
    await queryRunner.query(`DELETE FROM "rail_events" WHERE "rail" <> 'bank_rail'`);
    await queryRunner.query(`ALTER TABLE "rail_events" ADD CONSTRAINT "PK_1c5f3759997d17993530f9602ee" PRIMARY KEY ("id")`);
    await queryRunner.query(`ALTER TABLE "rail_events" DROP COLUMN "rail"`);
    await queryRunner.query(`ALTER TABLE "rail_events" RENAME TO "bank_rail_events"`);
    await queryRunner.query(`DROP INDEX "public"."idx_quotes_merchant_seq"`);
    await queryRunner.query(`DROP TABLE "quotes"`);
    await queryRunner.query(`DROP INDEX "public"."idx_international_intent_status_history_intent"`);
    await queryRunner.query(`DROP TABLE "international_payment_intent_status_history"`);
    await queryRunner.query(`DROP INDEX "public"."idx_international_payment_intents_merchant_seq"`);
    await queryRunner.query(`DROP INDEX "public"."idx_international_payment_intents_in_flight"`);
    await queryRunner.query(`DROP TABLE "international_payment_intents"`);
  }
}
