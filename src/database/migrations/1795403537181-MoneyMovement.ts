import { MigrationInterface, QueryRunner } from 'typeorm';

const APPEND_ONLY = ['ledger_transactions', 'ledger_entries', 'balance_transactions', 'payment_intent_status_history', 'withdrawal_status_history'];

export class MoneyMovement1795403537181 implements MigrationInterface {
  name = 'MoneyMovement1795403537181';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("merchant_id" text NOT NULL, "key" text NOT NULL, "fingerprint" text NOT NULL, "status" text NOT NULL, "lock_token" uuid, "locked_until" TIMESTAMP WITH TIME ZONE, "recovery_point" text NOT NULL DEFAULT 'started', "resource_id" text, "response_status" integer, "response_body" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "chk_idempotency_keys_status" CHECK ("status" IN ('in_progress', 'completed')), CONSTRAINT "PK_8cebe99e63f79e964b8e1399808" PRIMARY KEY ("merchant_id", "key"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_idempotency_keys_expires_at" ON "idempotency_keys" ("expires_at") `);
    await queryRunner.query(
      `CREATE TABLE "ledger_transactions" ("id" text NOT NULL, "type" text NOT NULL, "source_id" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_633d103c9e415d615aacf9b1929" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_ledger_transactions_source" ON "ledger_transactions" ("source_id") `);
    await queryRunner.query(
      `CREATE TABLE "balance_transactions" ("id" text NOT NULL, "seq" BIGSERIAL NOT NULL, "merchant_id" text NOT NULL, "type" text NOT NULL, "amount" bigint NOT NULL, "currency" text NOT NULL, "source_id" text NOT NULL, "ledger_transaction_id" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6aea2d6b103d342d343be2ae93c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_balance_transactions_merchant_seq" ON "balance_transactions" ("merchant_id", "seq") `);
    await queryRunner.query(
      `CREATE TABLE "ledger_accounts" ("id" text NOT NULL, "merchant_id" text, "kind" text NOT NULL, "currency" text NOT NULL, "balance" bigint NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "chk_ledger_accounts_merchant_not_negative" CHECK (merchant_id IS NULL OR balance >= 0), CONSTRAINT "PK_62b34396dda564757cf123fff0e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "ledger_entries" ("id" BIGSERIAL NOT NULL, "transaction_id" text NOT NULL, "account_id" text NOT NULL, "amount" bigint NOT NULL, CONSTRAINT "chk_ledger_entries_amount" CHECK (amount <> 0), CONSTRAINT "PK_6efcb84411d3f08b08450ae75d5" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_ledger_entries_account" ON "ledger_entries" ("account_id") `);
    await queryRunner.query(
      `CREATE TABLE "payment_intents" ("id" text NOT NULL, "seq" BIGSERIAL NOT NULL, "merchant_id" text NOT NULL, "merchant_reference" text NOT NULL, "amount" bigint NOT NULL, "currency" text NOT NULL, "status" text NOT NULL, "amount_received" bigint NOT NULL DEFAULT '0', "expected_sender_bank_name" text, "expected_sender_account_number" text, "virtual_account_id" text NOT NULL, "account_number" text NOT NULL, "account_name" text NOT NULL, "bank_name" text NOT NULL, "bank_code" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "funded_at" TIMESTAMP WITH TIME ZONE, "confirmed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "uq_payment_intents_account_number" UNIQUE ("account_number"), CONSTRAINT "uq_payment_intents_merchant_reference" UNIQUE ("merchant_id", "merchant_reference"), CONSTRAINT "chk_payment_intents_amount" CHECK (amount > 0), CONSTRAINT "chk_payment_intents_status" CHECK ("status" IN ('awaiting_payment', 'funds_received', 'succeeded', 'expired')), CONSTRAINT "PK_cc99975b98c8001a336976fd018" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_payment_intents_awaiting_expiry" ON "payment_intents" ("expires_at") WHERE status = 'awaiting_payment'`);
    await queryRunner.query(`CREATE INDEX "idx_payment_intents_merchant_seq" ON "payment_intents" ("merchant_id", "seq") `);
    await queryRunner.query(
      `CREATE TABLE "inbound_payments" ("id" text NOT NULL, "payment_intent_id" text NOT NULL, "rail_transfer_id" text NOT NULL, "amount" bigint NOT NULL, "sender_bank_name" text NOT NULL, "sender_account_number" text NOT NULL, "status" text NOT NULL, "return_reason" text, "rail_return_id" text, "returned_at" TIMESTAMP WITH TIME ZONE, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_17b463b4a944996b25082f132ef" UNIQUE ("rail_transfer_id"), CONSTRAINT "chk_inbound_payments_status" CHECK ("status" IN ('accepted', 'returned') AND ("status" = 'returned') = (return_reason IS NOT NULL)), CONSTRAINT "PK_b17235d6b05fb903c0b6c41a9fd" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_inbound_payments_return_pending" ON "inbound_payments" ("id") WHERE status = 'returned' AND rail_return_id IS NULL`,
    );
    await queryRunner.query(`CREATE INDEX "idx_inbound_payments_intent" ON "inbound_payments" ("payment_intent_id", "received_at") `);
    await queryRunner.query(
      `CREATE TABLE "payment_intent_status_history" ("id" BIGSERIAL NOT NULL, "payment_intent_id" text NOT NULL, "from_status" text NOT NULL, "to_status" text NOT NULL, "cause" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d3b7696efedc9218c6e03584303" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_payment_intent_status_history_intent" ON "payment_intent_status_history" ("payment_intent_id", "id") `);
    await queryRunner.query(
      `CREATE TABLE "rail_event_cursors" ("rail" text NOT NULL, "after_event_id" text, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_bfb96dd5a31b0c725f14adcb7c2" PRIMARY KEY ("rail"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "bank_rail_events" ("id" text NOT NULL, "type" text NOT NULL, "source" text NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1c5f3759997d17993530f9602ee" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "withdrawals" ("id" text NOT NULL, "seq" BIGSERIAL NOT NULL, "merchant_id" text NOT NULL, "merchant_reference" text NOT NULL, "amount" bigint NOT NULL, "fee" bigint NOT NULL, "currency" text NOT NULL, "status" text NOT NULL, "bank_code" text NOT NULL, "account_number" text NOT NULL, "account_name" text NOT NULL, "narration" text, "rail_payout_id" text, "failure_code" text, "failure_message" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "uq_withdrawals_merchant_reference" UNIQUE ("merchant_id", "merchant_reference"), CONSTRAINT "chk_withdrawals_amounts" CHECK (amount > 0 AND fee >= 0), CONSTRAINT "chk_withdrawals_status" CHECK ("status" IN ('pending', 'processing', 'succeeded', 'failed')), CONSTRAINT "PK_9871ec481baa7755f8bd8b7c7e9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_withdrawals_pending" ON "withdrawals" ("updated_at") WHERE status = 'pending'`);
    await queryRunner.query(`CREATE INDEX "idx_withdrawals_merchant_seq" ON "withdrawals" ("merchant_id", "seq") `);
    await queryRunner.query(
      `CREATE TABLE "withdrawal_status_history" ("id" BIGSERIAL NOT NULL, "withdrawal_id" text NOT NULL, "from_status" text NOT NULL, "to_status" text NOT NULL, "cause" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c3fe67fe573f1ef3d785b2b65bd" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_withdrawal_status_history_withdrawal" ON "withdrawal_status_history" ("withdrawal_id", "id") `);
    await queryRunner.query(
      `ALTER TABLE "idempotency_keys" ADD CONSTRAINT "FK_4256c61399b4846aafffbd040d8" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "balance_transactions" ADD CONSTRAINT "FK_31356c26857e9b1469b0b39244c" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "balance_transactions" ADD CONSTRAINT "FK_751109c4923ea7072736f9a0ca9" FOREIGN KEY ("ledger_transaction_id") REFERENCES "ledger_transactions"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ledger_entries" ADD CONSTRAINT "FK_b26c5ef5853fd6e0a8680427f60" FOREIGN KEY ("transaction_id") REFERENCES "ledger_transactions"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ledger_entries" ADD CONSTRAINT "FK_e4440167e470be69f9622c1ceab" FOREIGN KEY ("account_id") REFERENCES "ledger_accounts"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "payment_intents" ADD CONSTRAINT "FK_9ed6197325fdde7b7d5a40f7c9a" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "inbound_payments" ADD CONSTRAINT "FK_0b9569ed904f8783c5634c2b554" FOREIGN KEY ("payment_intent_id") REFERENCES "payment_intents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "payment_intent_status_history" ADD CONSTRAINT "FK_a2a07bc1d420bd4df8d994fa763" FOREIGN KEY ("payment_intent_id") REFERENCES "payment_intents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "withdrawals" ADD CONSTRAINT "FK_8e56cf3b6f35943c20c7caaf1d3" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "withdrawal_status_history" ADD CONSTRAINT "FK_5c02a072e235d16a399091bcf2e" FOREIGN KEY ("withdrawal_id") REFERENCES "withdrawals"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // The ledger and the status histories are append-only: a correction is a new row, never an
    // edit. Rows go only with their merchant or resource (the foreign key's cascade runs as a
    // trigger, one level down).
    await queryRunner.query(
      `CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN RETURN OLD; END IF; RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END $$`,
    );
    for (const table of APPEND_ONLY) {
      await queryRunner.query(`CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`);
      await queryRunner.query(`CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only()`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of APPEND_ONLY) {
      await queryRunner.query(`DROP TRIGGER ${table}_append_only ON "${table}"`);
      await queryRunner.query(`DROP TRIGGER ${table}_no_truncate ON "${table}"`);
    }
    await queryRunner.query(`DROP FUNCTION ledger_append_only()`);
    await queryRunner.query(`ALTER TABLE "withdrawal_status_history" DROP CONSTRAINT "FK_5c02a072e235d16a399091bcf2e"`);
    await queryRunner.query(`ALTER TABLE "withdrawals" DROP CONSTRAINT "FK_8e56cf3b6f35943c20c7caaf1d3"`);
    await queryRunner.query(`ALTER TABLE "payment_intent_status_history" DROP CONSTRAINT "FK_a2a07bc1d420bd4df8d994fa763"`);
    await queryRunner.query(`ALTER TABLE "inbound_payments" DROP CONSTRAINT "FK_0b9569ed904f8783c5634c2b554"`);
    await queryRunner.query(`ALTER TABLE "payment_intents" DROP CONSTRAINT "FK_9ed6197325fdde7b7d5a40f7c9a"`);
    await queryRunner.query(`ALTER TABLE "ledger_entries" DROP CONSTRAINT "FK_e4440167e470be69f9622c1ceab"`);
    await queryRunner.query(`ALTER TABLE "ledger_entries" DROP CONSTRAINT "FK_b26c5ef5853fd6e0a8680427f60"`);
    await queryRunner.query(`ALTER TABLE "balance_transactions" DROP CONSTRAINT "FK_751109c4923ea7072736f9a0ca9"`);
    await queryRunner.query(`ALTER TABLE "balance_transactions" DROP CONSTRAINT "FK_31356c26857e9b1469b0b39244c"`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP CONSTRAINT "FK_4256c61399b4846aafffbd040d8"`);
    await queryRunner.query(`DROP INDEX "public"."idx_withdrawal_status_history_withdrawal"`);
    await queryRunner.query(`DROP TABLE "withdrawal_status_history"`);
    await queryRunner.query(`DROP INDEX "public"."idx_withdrawals_merchant_seq"`);
    await queryRunner.query(`DROP INDEX "public"."idx_withdrawals_pending"`);
    await queryRunner.query(`DROP TABLE "withdrawals"`);
    await queryRunner.query(`DROP TABLE "bank_rail_events"`);
    await queryRunner.query(`DROP TABLE "rail_event_cursors"`);
    await queryRunner.query(`DROP INDEX "public"."idx_payment_intent_status_history_intent"`);
    await queryRunner.query(`DROP TABLE "payment_intent_status_history"`);
    await queryRunner.query(`DROP INDEX "public"."idx_inbound_payments_intent"`);
    await queryRunner.query(`DROP INDEX "public"."idx_inbound_payments_return_pending"`);
    await queryRunner.query(`DROP TABLE "inbound_payments"`);
    await queryRunner.query(`DROP INDEX "public"."idx_payment_intents_merchant_seq"`);
    await queryRunner.query(`DROP INDEX "public"."idx_payment_intents_awaiting_expiry"`);
    await queryRunner.query(`DROP TABLE "payment_intents"`);
    await queryRunner.query(`DROP INDEX "public"."idx_ledger_entries_account"`);
    await queryRunner.query(`DROP TABLE "ledger_entries"`);
    await queryRunner.query(`DROP TABLE "ledger_accounts"`);
    await queryRunner.query(`DROP INDEX "public"."idx_balance_transactions_merchant_seq"`);
    await queryRunner.query(`DROP TABLE "balance_transactions"`);
    await queryRunner.query(`DROP INDEX "public"."idx_ledger_transactions_source"`);
    await queryRunner.query(`DROP TABLE "ledger_transactions"`);
    await queryRunner.query(`DROP INDEX "public"."idx_idempotency_keys_expires_at"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
