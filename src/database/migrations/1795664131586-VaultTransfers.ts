import { MigrationInterface, QueryRunner } from 'typeorm';

export class VaultTransfers1795664131586 implements MigrationInterface {
  name = 'VaultTransfers1795664131586';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "vault_transfers" ("id" text NOT NULL, "seq" BIGSERIAL NOT NULL, "merchant_id" text NOT NULL, "pobo_user_id" text NOT NULL, "vault_transaction_id" text NOT NULL, "chain" text NOT NULL, "asset" text NOT NULL, "amount" bigint NOT NULL, "network_fee" bigint NOT NULL, "from_address" text NOT NULL, "wallet_index" integer NOT NULL, "to_address" text NOT NULL, "merchant_reference" text NOT NULL, "status" text NOT NULL, "failure_reason" text, "raw_tx" text, "tx_hash" text, "nonce" bigint, "valid_until" bigint, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "submitted_at" TIMESTAMP WITH TIME ZONE, "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_518f7ffd6fddebdc4bec2558ad9" UNIQUE ("vault_transaction_id"), CONSTRAINT "chk_vault_transfers_amount" CHECK (amount > 0 AND network_fee >= 0), CONSTRAINT "chk_vault_transfers_status" CHECK (status IN ('pending', 'submitted', 'confirmed', 'failed')), CONSTRAINT "PK_066e9818be6a34602be083953f2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "idx_vault_transfers_sender_nonce" ON "vault_transfers" ("chain", "from_address", "nonce") WHERE nonce IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX "idx_vault_transfers_open" ON "vault_transfers" ("chain", "status") WHERE status IN ('pending', 'submitted')`);
    await queryRunner.query(`CREATE INDEX "idx_vault_transfers_merchant_seq" ON "vault_transfers" ("merchant_id", "seq") `);
    await queryRunner.query(
      `ALTER TABLE "vault_transfers" ADD CONSTRAINT "FK_3916abdd1420b3a6a961106eeb2" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "vault_transfers" DROP CONSTRAINT "FK_3916abdd1420b3a6a961106eeb2"`);
    await queryRunner.query(`DROP INDEX "public"."idx_vault_transfers_merchant_seq"`);
    await queryRunner.query(`DROP INDEX "public"."idx_vault_transfers_open"`);
    await queryRunner.query(`DROP INDEX "public"."idx_vault_transfers_sender_nonce"`);
    await queryRunner.query(`DROP TABLE "vault_transfers"`);
  }
}
