import { MigrationInterface, QueryRunner } from 'typeorm';

const HISTORIES = ['vault_transfer_status_history', 'vault_transaction_status_history'];

/** The moves each vault table's status may make, as its machine declares them when this migration was written. */
const MOVES: Record<string, [string, string][]> = {
  vault_transfers: [
    ['pending', 'submitted'],
    ['pending', 'failed'],
    ['submitted', 'pending'],
    ['submitted', 'confirmed'],
    ['submitted', 'failed'],
  ],
  vault_transactions: [
    ['pending', 'submitted'],
    ['pending', 'confirmed'],
    ['pending', 'failed'],
    ['pending', 'dropped'],
    ['submitted', 'pending'],
    ['submitted', 'confirmed'],
    ['submitted', 'failed'],
    ['dropped', 'pending'],
  ],
};

export class VaultStatusHistory1795776366828 implements MigrationInterface {
  name = 'VaultStatusHistory1795776366828';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "vault_transfer_status_history" ("id" BIGSERIAL NOT NULL, "from_status" text NOT NULL, "to_status" text NOT NULL, "cause" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "vault_transfer_id" text NOT NULL, CONSTRAINT "PK_44a30dfa5055aff33bdfdcba848" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_vault_transfer_status_history_transfer" ON "vault_transfer_status_history" ("vault_transfer_id", "id") `);
    await queryRunner.query(
      `CREATE TABLE "vault_transaction_status_history" ("id" BIGSERIAL NOT NULL, "from_status" text NOT NULL, "to_status" text NOT NULL, "cause" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "vault_transaction_id" text NOT NULL, CONSTRAINT "PK_46bdc2496396dad4a4b4e9eae43" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_vault_transaction_status_history_transaction" ON "vault_transaction_status_history" ("vault_transaction_id", "id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "vault_transfer_status_history" ADD CONSTRAINT "FK_288fcfdeb98b753cea7f5184df7" FOREIGN KEY ("vault_transfer_id") REFERENCES "vault_transfers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "vault_transaction_status_history" ADD CONSTRAINT "FK_3af5e48fc0cd4c68beae8e61c4d" FOREIGN KEY ("vault_transaction_id") REFERENCES "vault_transactions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // Append-only, as every status history.
    for (const table of HISTORIES) {
      await queryRunner.query(`CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`);
      await queryRunner.query(`CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only()`);
    }
    // The vault's statuses are moved by set-based statements: the database refuses, loudly, any
    // move their machines (VAULT_TRANSFER_STATES, VAULT_TRANSACTION_STATES) do not declare,
    // whoever writes it. A medium spec tries every pair against the machines.
    for (const [table, moves] of Object.entries(MOVES)) {
      const allowed = moves.map(([from, to]) => `('${from}', '${to}')`).join(', ');
      await queryRunner.query(
        `CREATE FUNCTION ${table}_status_move() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                   IF (OLD.status, NEW.status) NOT IN (${allowed}) THEN
                     RAISE EXCEPTION '% status cannot move from % to %', TG_TABLE_NAME, OLD.status, NEW.status USING ERRCODE = 'check_violation';
                   END IF;
                   RETURN NEW;
                 END $$`,
      );
      await queryRunner.query(
        `CREATE TRIGGER ${table}_status_move BEFORE UPDATE OF status ON "${table}" FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION ${table}_status_move()`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of Object.keys(MOVES)) {
      await queryRunner.query(`DROP TRIGGER ${table}_status_move ON "${table}"`);
      await queryRunner.query(`DROP FUNCTION ${table}_status_move()`);
    }
    await queryRunner.query(`ALTER TABLE "vault_transaction_status_history" DROP CONSTRAINT "FK_3af5e48fc0cd4c68beae8e61c4d"`);
    await queryRunner.query(`ALTER TABLE "vault_transfer_status_history" DROP CONSTRAINT "FK_288fcfdeb98b753cea7f5184df7"`);
    await queryRunner.query(`DROP INDEX "public"."idx_vault_transaction_status_history_transaction"`);
    await queryRunner.query(`DROP TABLE "vault_transaction_status_history"`);
    await queryRunner.query(`DROP INDEX "public"."idx_vault_transfer_status_history_transfer"`);
    await queryRunner.query(`DROP TABLE "vault_transfer_status_history"`);
  }
}
