import { MigrationInterface, QueryRunner } from 'typeorm';

export class KybOnboarding1795307054075 implements MigrationInterface {
  name = 'KybOnboarding1795307054075';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "agreement_acceptances" ("business_id" text NOT NULL, "link_id" text NOT NULL, "terms_version" text NOT NULL, "ip_address" text NOT NULL, "user_agent" text NOT NULL, "accepted_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_33ba1153d83648cb480a97ccbbf" PRIMARY KEY ("business_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "business_status_history" ("id" BIGSERIAL NOT NULL, "business_id" text NOT NULL, "field" character varying(32) NOT NULL, "from_status" character varying(32) NOT NULL, "to_status" character varying(32) NOT NULL, "cause" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4c39b755229976ee43f4def5a4a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_business_status_history_business" ON "business_status_history" ("business_id", "id") `);
    await queryRunner.query(
      `CREATE TABLE "kyb_applications" ("id" text NOT NULL, "business_id" text NOT NULL, "status" character varying(16) NOT NULL, "payload" jsonb NOT NULL, "provider_reference" text, "submitted_at" TIMESTAMP WITH TIME ZONE, "outcome" character varying(32), "requirements" jsonb NOT NULL DEFAULT '[]', "submit_attempts" integer NOT NULL DEFAULT '0', "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "chk_kyb_applications_status" CHECK ("status" IN ('queued', 'submitted', 'reviewed')), CONSTRAINT "PK_38b37c02214f2a136e13dc483a3" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_kyb_applications_business" ON "kyb_applications" ("business_id") `);
    await queryRunner.query(`CREATE INDEX "idx_kyb_applications_status" ON "kyb_applications" ("status", "created_at") `);
    await queryRunner.query(
      `CREATE TABLE "kyb_documents" ("id" text NOT NULL, "application_id" text NOT NULL, "path" text NOT NULL, "file_type" text NOT NULL, "sha256" character(64) NOT NULL, "size_bytes" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_f0a7bf221c622cf80273e5dcaef" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_kyb_documents_application" ON "kyb_documents" ("application_id") `);
    await queryRunner.query(
      `CREATE TABLE "naira_accounts" ("business_id" text NOT NULL, "provider_reference" text, "account_number" text, "bank_name" text, "attempts" integer NOT NULL DEFAULT '0', "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9d2de5d07de6dd1d73d1be95198" PRIMARY KEY ("business_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "agreement_acceptances" ADD CONSTRAINT "FK_33ba1153d83648cb480a97ccbbf" FOREIGN KEY ("business_id") REFERENCES "pobo_businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "agreement_acceptances" ADD CONSTRAINT "FK_d9c85816c7f0808c9e81d2cc60e" FOREIGN KEY ("link_id") REFERENCES "agreement_links"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "business_status_history" ADD CONSTRAINT "FK_114ce13f1c995934aa55f46f7ee" FOREIGN KEY ("business_id") REFERENCES "pobo_businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "kyb_applications" ADD CONSTRAINT "FK_1fb5eaff3ddf1b9b508683b93c7" FOREIGN KEY ("business_id") REFERENCES "pobo_businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "kyb_documents" ADD CONSTRAINT "FK_b1fb2370c7c7c30901e41c144b3" FOREIGN KEY ("application_id") REFERENCES "kyb_applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "naira_accounts" ADD CONSTRAINT "FK_9d2de5d07de6dd1d73d1be95198" FOREIGN KEY ("business_id") REFERENCES "pobo_businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // The history is append-only: corrections are new rows, never edits.
    await queryRunner.query(
      `CREATE FUNCTION business_status_history_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'business_status_history is append-only'; END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER business_status_history_append_only BEFORE UPDATE OR DELETE ON "business_status_history" FOR EACH STATEMENT EXECUTE FUNCTION business_status_history_append_only()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER business_status_history_append_only ON "business_status_history"`);
    await queryRunner.query(`DROP FUNCTION business_status_history_append_only()`);
    await queryRunner.query(`ALTER TABLE "naira_accounts" DROP CONSTRAINT "FK_9d2de5d07de6dd1d73d1be95198"`);
    await queryRunner.query(`ALTER TABLE "kyb_documents" DROP CONSTRAINT "FK_b1fb2370c7c7c30901e41c144b3"`);
    await queryRunner.query(`ALTER TABLE "kyb_applications" DROP CONSTRAINT "FK_1fb5eaff3ddf1b9b508683b93c7"`);
    await queryRunner.query(`ALTER TABLE "business_status_history" DROP CONSTRAINT "FK_114ce13f1c995934aa55f46f7ee"`);
    await queryRunner.query(`ALTER TABLE "agreement_acceptances" DROP CONSTRAINT "FK_d9c85816c7f0808c9e81d2cc60e"`);
    await queryRunner.query(`ALTER TABLE "agreement_acceptances" DROP CONSTRAINT "FK_33ba1153d83648cb480a97ccbbf"`);
    await queryRunner.query(`DROP TABLE "naira_accounts"`);
    await queryRunner.query(`DROP INDEX "public"."idx_kyb_documents_application"`);
    await queryRunner.query(`DROP TABLE "kyb_documents"`);
    await queryRunner.query(`DROP INDEX "public"."idx_kyb_applications_status"`);
    await queryRunner.query(`DROP INDEX "public"."idx_kyb_applications_business"`);
    await queryRunner.query(`DROP TABLE "kyb_applications"`);
    await queryRunner.query(`DROP INDEX "public"."idx_business_status_history_business"`);
    await queryRunner.query(`DROP TABLE "business_status_history"`);
    await queryRunner.query(`DROP TABLE "agreement_acceptances"`);
  }
}
