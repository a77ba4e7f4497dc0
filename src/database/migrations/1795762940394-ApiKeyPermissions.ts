import { MigrationInterface, QueryRunner } from 'typeorm';

export class ApiKeyPermissions1795762940394 implements MigrationInterface {
  name = 'ApiKeyPermissions1795762940394';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "permissions" text array NOT NULL DEFAULT '{read,write,move_money}'`);
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "chk_api_keys_permissions" CHECK (permissions <@ ARRAY['read', 'write', 'move_money']::text[] AND cardinality(permissions) > 0)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "chk_api_keys_permissions"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "permissions"`);
  }
}
