import { MigrationInterface, QueryRunner } from 'typeorm';

export class Vault1795661731226 implements MigrationInterface {
  name = 'Vault1795661731226';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "vault_chain_cursors" ("chain" text NOT NULL, "block" bigint NOT NULL, "block_hash" text, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b6ea245060a94ce5f2bfde6081b" PRIMARY KEY ("chain"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "vault_transactions" ("id" text NOT NULL, "seq" BIGSERIAL NOT NULL, "merchant_id" text NOT NULL, "pobo_user_id" text NOT NULL, "direction" text NOT NULL, "chain" text NOT NULL, "asset" text NOT NULL, "amount" bigint NOT NULL, "network_fee" bigint NOT NULL DEFAULT '0', "from_address" text, "to_address" text NOT NULL, "tx_hash" text, "log_index" integer, "block_number" bigint, "block_hash" text, "confirmations" integer NOT NULL DEFAULT '0', "status" text NOT NULL, "merchant_reference" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "confirmed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "chk_vault_transactions_amount" CHECK (amount > 0 AND network_fee >= 0), CONSTRAINT "chk_vault_transactions_status" CHECK (status IN ('pending', 'submitted', 'confirmed', 'failed', 'dropped')), CONSTRAINT "chk_vault_transactions_direction" CHECK (direction IN ('deposit', 'transfer')), CONSTRAINT "PK_f50003010572d8bed95ee688eb8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_vault_transactions_deposits_pending" ON "vault_transactions" ("chain", "block_number") WHERE direction = 'deposit' AND status = 'pending'`,
    );
    await queryRunner.query(`CREATE INDEX "idx_vault_transactions_business_pending" ON "vault_transactions" ("pobo_user_id") WHERE status = 'pending'`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_vault_transactions_deposit" ON "vault_transactions" ("chain", "tx_hash", "log_index") WHERE direction = 'deposit'`,
    );
    await queryRunner.query(`CREATE INDEX "idx_vault_transactions_merchant_seq" ON "vault_transactions" ("merchant_id", "seq") `);
    await queryRunner.query(
      `ALTER TABLE "vault_transactions" ADD CONSTRAINT "FK_442bcf6ea2df38f963addc787d1" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "vault_transactions" DROP CONSTRAINT "FK_442bcf6ea2df38f963addc787d1"`);
    await queryRunner.query(`DROP INDEX "public"."idx_vault_transactions_merchant_seq"`);
    await queryRunner.query(`DROP INDEX "public"."uq_vault_transactions_deposit"`);
    await queryRunner.query(`DROP INDEX "public"."idx_vault_transactions_business_pending"`);
    await queryRunner.query(`DROP INDEX "public"."idx_vault_transactions_deposits_pending"`);
    await queryRunner.query(`DROP TABLE "vault_transactions"`);
    await queryRunner.query(`DROP TABLE "vault_chain_cursors"`);
  }
}
