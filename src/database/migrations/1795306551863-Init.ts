import { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1795306551863 implements MigrationInterface {
  name = 'Init1795306551863';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // Wallet derivation indices (BIP-44 / SLIP-10, hardened range ends at 2^31 - 1). Not known to
    // TypeORM's schema diff, so it lives only here.
    await queryRunner.query(`CREATE SEQUENCE "pobo_wallet_index_seq" AS integer MINVALUE 0 MAXVALUE 2147483647 START 0 NO CYCLE`);
    await queryRunner.query(
      `CREATE TABLE "merchants" ("id" text NOT NULL, "name" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4fd312ef25f8e05ad47bfe7ed25" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "pobo_businesses" ("id" text NOT NULL, "seq" BIGSERIAL NOT NULL, "merchant_id" text NOT NULL, "business_name" text NOT NULL, "email" text NOT NULL, "phone_number" text NOT NULL, "country" character(2) NOT NULL, "allow_naira_collection" boolean NOT NULL DEFAULT false, "naira_collection_status" character varying(32) NOT NULL DEFAULT 'not_requested', "wallet_index" integer NOT NULL, "evm_address" text NOT NULL, "svm_address" text NOT NULL, "agreement_status" character varying(32) NOT NULL DEFAULT 'pending', "agreement_accepted_at" TIMESTAMP WITH TIME ZONE, "kyb_status" character varying(32) NOT NULL DEFAULT 'agreement_pending', "kyb_pending_requirements" jsonb NOT NULL DEFAULT '[]', "kyb_last_synced_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "chk_pobo_businesses_kyb_status" CHECK ("kyb_status" IN ('agreement_pending', 'not_started', 'processing', 'action_required', 'verified', 'declined')), CONSTRAINT "chk_pobo_businesses_agreement_status" CHECK ("agreement_status" IN ('pending', 'accepted')), CONSTRAINT "chk_pobo_businesses_naira_status" CHECK ("naira_collection_status" IN ('not_requested', 'pending', 'active', 'failed')), CONSTRAINT "PK_81d73474cc3cbeb533144f39fb9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_pobo_businesses_wallet_index" ON "pobo_businesses" ("wallet_index") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_pobo_businesses_evm_address" ON "pobo_businesses" ("evm_address") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_pobo_businesses_svm_address" ON "pobo_businesses" ("svm_address") `);
    await queryRunner.query(`CREATE INDEX "idx_pobo_businesses_merchant_seq" ON "pobo_businesses" ("merchant_id", "seq") `);
    await queryRunner.query(
      `CREATE TABLE "agreement_links" ("id" text NOT NULL, "business_id" text NOT NULL, "token_hash" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "used_at" TIMESTAMP WITH TIME ZONE, "voided_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_117db6c6ae8c5f7a16672564587" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_agreement_links_business_id" ON "agreement_links" ("business_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_agreement_links_token_hash" ON "agreement_links" ("token_hash") `);
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" text NOT NULL, "merchant_id" text NOT NULL, "key_hash" character(64) NOT NULL, "key_hint" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_api_keys_merchant_id" ON "api_keys" ("merchant_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_api_keys_key_hash" ON "api_keys" ("key_hash") `);
    await queryRunner.query(
      `ALTER TABLE "pobo_businesses" ADD CONSTRAINT "FK_46696e657465c1bf1f7eca32ed8" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "agreement_links" ADD CONSTRAINT "FK_a0c9c9aaf4d40d595bf9a9f9d85" FOREIGN KEY ("business_id") REFERENCES "pobo_businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "FK_8261f83ab065c7bb551dd3f375a" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_8261f83ab065c7bb551dd3f375a"`);
    await queryRunner.query(`ALTER TABLE "agreement_links" DROP CONSTRAINT "FK_a0c9c9aaf4d40d595bf9a9f9d85"`);
    await queryRunner.query(`ALTER TABLE "pobo_businesses" DROP CONSTRAINT "FK_46696e657465c1bf1f7eca32ed8"`);
    await queryRunner.query(`DROP INDEX "public"."uq_api_keys_key_hash"`);
    await queryRunner.query(`DROP INDEX "public"."idx_api_keys_merchant_id"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP INDEX "public"."uq_agreement_links_token_hash"`);
    await queryRunner.query(`DROP INDEX "public"."idx_agreement_links_business_id"`);
    await queryRunner.query(`DROP TABLE "agreement_links"`);
    await queryRunner.query(`DROP INDEX "public"."idx_pobo_businesses_merchant_seq"`);
    await queryRunner.query(`DROP INDEX "public"."uq_pobo_businesses_svm_address"`);
    await queryRunner.query(`DROP INDEX "public"."uq_pobo_businesses_evm_address"`);
    await queryRunner.query(`DROP INDEX "public"."uq_pobo_businesses_wallet_index"`);
    await queryRunner.query(`DROP TABLE "pobo_businesses"`);
    await queryRunner.query(`DROP TABLE "merchants"`);
    await queryRunner.query(`DROP SEQUENCE "pobo_wallet_index_seq"`);
  }
}
