import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { RailReconciliationService } from '../international-intents';
import { LedgerService, LedgerVerification, OpenReceivable } from '../ledger';
import { VaultReconciliationService } from '../vault';
import { LedgerVerificationRepository, VerificationRow } from './ledger-verification.repository';

/** What a verification found: each problem's list (empty when it holds), and what it compared. */
export interface LedgerVerificationReport {
  ok: boolean;
  problems: Record<string, unknown[]>;
  /** How much of the ledger's history the run read: see `LedgerService.verify`. */
  checked: LedgerVerification['checked'];
  openReceivables: OpenReceivable[];
  rails: { balances: unknown; compared: unknown; recent: unknown } | null;
  vaults: { compared: unknown };
}

export type VerificationTrigger = 'schedule' | 'cli';

/**
 * The ledger's verification: every ledger transaction balances, every account's balance is the sum
 * of its entries, no merchant account is negative, each merchant's balance transactions add up to
 * its available balance, no receivable (money a rail owes back after a late rejection) has been
 * open longer than `LEDGER_RECEIVABLE_MAX_AGE_HOURS`; where the ledger has international payments'
 * money, it agrees with what the bridge and payout rails report (`railDifferences`; asked only once
 * the ledger ever placed money at a rail), and each vault's USDC on its chain is what the ledger
 * holds for it plus its pending deposits (`vaultDifferences`; asked of the chains only once a vault
 * received a deposit). Each run is recorded, so the operator port can tell the last one's result.
 * The ledger's own checks read only what was written since the last run that held (`full`: all of
 * it, which the operator runs now and then, as the append-only tables' triggers can be bypassed by
 * a superuser and a kept sum edited by hand would otherwise go unseen).
 */
@Injectable()
export class LedgerVerificationService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly ledger: LedgerService,
    private readonly rails: RailReconciliationService,
    private readonly vaults: VaultReconciliationService,
    private readonly repository: LedgerVerificationRepository,
  ) {}

  async verify(trigger: VerificationTrigger, options: { full: boolean } = { full: false }): Promise<LedgerVerificationReport> {
    const startedAt = new Date();
    const ledger = await this.ledger.verify(options);
    const openReceivables = await this.ledger.openReceivables();
    const overdueReceivables = openReceivables.filter((r) => Date.now() - Date.parse(r.openedAt) > this.config.receivableMaxAgeMs).map((r) => r.sourceId);
    const rails = await this.rails.reconcile();
    const vaults = await this.vaults.reconcile();
    const problems: Record<string, unknown[]> = {
      ...ledger.problems,
      overdueReceivables,
      railDifferences: rails?.differences ?? [],
      vaultDifferences: vaults.differences,
    };
    const ok = Object.values(problems).every((found) => found.length === 0);
    await this.repository.record({
      trigger,
      ok,
      problems: Object.fromEntries(Object.entries(problems).map(([name, found]) => [name, found.length])),
      open_receivables: openReceivables.length,
      started_at: startedAt,
      finished_at: new Date(),
    });
    const railReport = rails && { balances: rails.balances, compared: rails.compared, recent: rails.recent };
    return { ok, problems, checked: ledger.checked, openReceivables, rails: railReport ?? null, vaults: { compared: vaults.compared } };
  }

  /** The last run's result, whoever ran it; null before the first. */
  latest(): Promise<VerificationRow | null> {
    return this.repository.latest();
  }
}
