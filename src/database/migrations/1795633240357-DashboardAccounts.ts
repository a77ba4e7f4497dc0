import { MigrationInterface, QueryRunner } from 'typeorm';

/** Merchant Dashboard accounts: the people of a merchant, each with a role, and their sessions (tokens kept only as hashes). */
export class DashboardAccounts1795633240357 implements MigrationInterface {
  name = 'DashboardAccounts1795633240357';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "users" ("id" text NOT NULL, "merchant_id" text NOT NULL, "email" text NOT NULL, "password_hash" text NOT NULL, "role" text NOT NULL, "email_verified_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "chk_users_role" CHECK ("role" IN ('owner', 'developer', 'viewer')), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_users_merchant_id" ON "users" ("merchant_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_users_email" ON "users" ("email") `);
    await queryRunner.query(
      `CREATE TABLE "dashboard_sessions" ("id" text NOT NULL, "user_id" text NOT NULL, "token_hash" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "ended_at" TIMESTAMP WITH TIME ZONE, "ip" text NOT NULL, "user_agent" text NOT NULL, CONSTRAINT "PK_09c60e2bedb298d55d575d12503" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_dashboard_sessions_user_id" ON "dashboard_sessions" ("user_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_dashboard_sessions_token_hash" ON "dashboard_sessions" ("token_hash") `);
    await queryRunner.query(
      `ALTER TABLE "users" ADD CONSTRAINT "FK_fe996f039efa99e46d75761aad0" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "FK_6b6e025460444b5f7885bfb0d43" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dashboard_sessions" DROP CONSTRAINT "FK_6b6e025460444b5f7885bfb0d43"`);
    await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "FK_fe996f039efa99e46d75761aad0"`);
    await queryRunner.query(`DROP INDEX "public"."uq_dashboard_sessions_token_hash"`);
    await queryRunner.query(`DROP INDEX "public"."idx_dashboard_sessions_user_id"`);
    await queryRunner.query(`DROP TABLE "dashboard_sessions"`);
    await queryRunner.query(`DROP INDEX "public"."uq_users_email"`);
    await queryRunner.query(`DROP INDEX "public"."idx_users_merchant_id"`);
    await queryRunner.query(`DROP TABLE "users"`);
  }
}
