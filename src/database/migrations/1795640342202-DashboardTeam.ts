import { MigrationInterface, QueryRunner } from 'typeorm';

export class DashboardTeam1795640342202 implements MigrationInterface {
  name = 'DashboardTeam1795640342202';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_api_keys_merchant_id"`);
    await queryRunner.query(`DROP INDEX "public"."idx_users_merchant_id"`);
    await queryRunner.query(
      `CREATE TABLE "invitations" ("id" text NOT NULL, "seq" BIGSERIAL NOT NULL, "merchant_id" text NOT NULL, "email" text NOT NULL, "role" text NOT NULL, "invited_by_email" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "accepted_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "chk_invitations_role" CHECK ("role" IN ('owner', 'developer', 'viewer')), CONSTRAINT "PK_5dec98cfdfd562e4ad3648bbb07" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_invitations_merchant_seq" ON "invitations" ("merchant_id", "seq") `);
    await queryRunner.query(
      `CREATE TABLE "account_tokens" ("id" text NOT NULL, "purpose" text NOT NULL, "user_id" text, "invitation_id" text, "email" text NOT NULL, "token_hash" character(64), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "chk_account_tokens_purpose" CHECK ("purpose" IN ('verify_email', 'reset_password', 'invitation')), CONSTRAINT "PK_5e3640c493cc6206a44b885e6a9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_account_tokens_user_id" ON "account_tokens" ("user_id") `);
    await queryRunner.query(`CREATE INDEX "idx_account_tokens_invitation_id" ON "account_tokens" ("invitation_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_account_tokens_token_hash" ON "account_tokens" ("token_hash") `);
    await queryRunner.query(
      `CREATE TABLE "recovery_codes" ("id" text NOT NULL, "user_id" text NOT NULL, "code_hash" character(64) NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0723b9e53961e799027d7f7ba32" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_recovery_codes_user_code" ON "recovery_codes" ("user_id", "code_hash") `);
    await queryRunner.query(
      `CREATE TABLE "team_settings" ("merchant_id" text NOT NULL, "require_two_factor" boolean NOT NULL DEFAULT false, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ba67eb58e44222d6ffe25690c3d" PRIMARY KEY ("merchant_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "audit_log" ("id" text NOT NULL, "seq" BIGSERIAL NOT NULL, "merchant_id" text NOT NULL, "user_id" text, "user_email" text, "action" text NOT NULL, "object_id" text, "ip" text NOT NULL, "details" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_07fefa57f7f5ab8fc3f52b3ed0b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_audit_log_merchant_action_seq" ON "audit_log" ("merchant_id", "action", "seq") `);
    await queryRunner.query(`CREATE INDEX "idx_audit_log_merchant_user_seq" ON "audit_log" ("merchant_id", "user_id", "seq") `);
    await queryRunner.query(`CREATE INDEX "idx_audit_log_merchant_seq" ON "audit_log" ("merchant_id", "seq") `);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "seq" BIGSERIAL NOT NULL`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "name" text NOT NULL DEFAULT 'Default'`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "created_by_user_id" text`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "created_by_email" text`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "expires_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "users" ADD "seq" BIGSERIAL NOT NULL`);
    await queryRunner.query(`ALTER TABLE "users" ADD "totp_secret" text`);
    await queryRunner.query(`ALTER TABLE "users" ADD "totp_enabled_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "users" ADD "totp_last_step" bigint`);
    await queryRunner.query(`CREATE INDEX "idx_api_keys_merchant_seq" ON "api_keys" ("merchant_id", "seq") `);
    await queryRunner.query(`CREATE INDEX "idx_users_merchant_seq" ON "users" ("merchant_id", "seq") `);
    await queryRunner.query(
      `ALTER TABLE "invitations" ADD CONSTRAINT "FK_1d7e43431ef5038b70d3cb517fb" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "account_tokens" ADD CONSTRAINT "FK_1b5fea09efc20c7f63c4a09b3d6" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "account_tokens" ADD CONSTRAINT "FK_b084b81e0d7caba9c5361ebca8e" FOREIGN KEY ("invitation_id") REFERENCES "invitations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "recovery_codes" ADD CONSTRAINT "FK_fb82b2ac740ca095b617afad031" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_settings" ADD CONSTRAINT "FK_ba67eb58e44222d6ffe25690c3d" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "audit_log" ADD CONSTRAINT "FK_fa787773fbfe2d5fb1b73bdcdfe" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_log" DROP CONSTRAINT "FK_fa787773fbfe2d5fb1b73bdcdfe"`);
    await queryRunner.query(`ALTER TABLE "team_settings" DROP CONSTRAINT "FK_ba67eb58e44222d6ffe25690c3d"`);
    await queryRunner.query(`ALTER TABLE "recovery_codes" DROP CONSTRAINT "FK_fb82b2ac740ca095b617afad031"`);
    await queryRunner.query(`ALTER TABLE "account_tokens" DROP CONSTRAINT "FK_b084b81e0d7caba9c5361ebca8e"`);
    await queryRunner.query(`ALTER TABLE "account_tokens" DROP CONSTRAINT "FK_1b5fea09efc20c7f63c4a09b3d6"`);
    await queryRunner.query(`ALTER TABLE "invitations" DROP CONSTRAINT "FK_1d7e43431ef5038b70d3cb517fb"`);
    await queryRunner.query(`DROP INDEX "public"."idx_users_merchant_seq"`);
    await queryRunner.query(`DROP INDEX "public"."idx_api_keys_merchant_seq"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "totp_last_step"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "totp_enabled_at"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "totp_secret"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "seq"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "expires_at"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "created_by_email"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "created_by_user_id"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "name"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "seq"`);
    await queryRunner.query(`DROP INDEX "public"."idx_audit_log_merchant_seq"`);
    await queryRunner.query(`DROP INDEX "public"."idx_audit_log_merchant_user_seq"`);
    await queryRunner.query(`DROP INDEX "public"."idx_audit_log_merchant_action_seq"`);
    await queryRunner.query(`DROP TABLE "audit_log"`);
    await queryRunner.query(`DROP TABLE "team_settings"`);
    await queryRunner.query(`DROP INDEX "public"."uq_recovery_codes_user_code"`);
    await queryRunner.query(`DROP TABLE "recovery_codes"`);
    await queryRunner.query(`DROP INDEX "public"."uq_account_tokens_token_hash"`);
    await queryRunner.query(`DROP INDEX "public"."idx_account_tokens_invitation_id"`);
    await queryRunner.query(`DROP INDEX "public"."idx_account_tokens_user_id"`);
    await queryRunner.query(`DROP TABLE "account_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."idx_invitations_merchant_seq"`);
    await queryRunner.query(`DROP TABLE "invitations"`);
    await queryRunner.query(`CREATE INDEX "idx_users_merchant_id" ON "users" ("merchant_id") `);
    await queryRunner.query(`CREATE INDEX "idx_api_keys_merchant_id" ON "api_keys" ("merchant_id") `);
  }
}
