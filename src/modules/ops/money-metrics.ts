import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { LedgerService } from '../ledger';
import { LedgerVerificationService } from '../ledger-verification';
import { MoneyCensusService } from '../money-census';
import { ageSeconds } from './queue-metrics';
import { oncePerScrape, OpsMetrics } from '../metrics';

/**
 * The money, read from PostgreSQL at each scrape (on the worker's port only, so running more API
 * processes does not multiply the reads): money objects by status, the oldest unfinished and the
 * stuck ones of each kind, the open receivables, and the last verification of the ledger.
 */
@Injectable()
export class MoneyMetrics {
  constructor(metrics: OpsMetrics, census: MoneyCensusService, ledger: LedgerService, verification: LedgerVerificationService) {
    const registers = [metrics.registry];
    const readCensus = oncePerScrape(() => census.census());
    new Gauge({
      name: 'money_objects',
      help: 'Payment intents, withdrawals, international payment intents and vault transfers by kind and status',
      labelNames: ['kind', 'status'],
      registers,
      async collect() {
        this.reset();
        for (const row of await readCensus()) this.set({ kind: row.kind, status: row.status }, row.count);
      },
    });
    new Gauge({
      name: 'money_objects_oldest_unfinished_seconds',
      help: 'Age of the oldest money object of each kind not yet in a final status (0 when none)',
      labelNames: ['kind'],
      registers,
      async collect() {
        for (const [kind, rows] of byKind(census.kinds, await readCensus())) {
          const times = rows.flatMap((row) => (row.oldest_unfinished ? [row.oldest_unfinished.getTime()] : []));
          this.set({ kind }, ageSeconds(times.length > 0 ? Math.min(...times) : null));
        }
      },
    });
    new Gauge({
      name: 'money_objects_stuck',
      help: 'Money objects of each kind still in a step STUCK_AFTER_MS after it began (listed on /stuck)',
      labelNames: ['kind'],
      registers,
      async collect() {
        for (const [kind, rows] of byKind(census.kinds, await readCensus()))
          this.set(
            { kind },
            rows.reduce((sum, row) => sum + row.stuck, 0),
          );
      },
    });

    const readReceivables = oncePerScrape(() => ledger.openReceivables());
    new Gauge({
      name: 'ledger_open_receivables',
      help: 'Receivables still open (money a rail owes back after a late rejection), by who owes it and currency',
      labelNames: ['owed_by', 'currency'],
      registers,
      async collect() {
        this.reset();
        for (const r of await readReceivables()) this.inc({ owed_by: r.owedBy, currency: r.currency });
      },
    });
    new Gauge({
      name: 'ledger_open_receivables_oldest_seconds',
      help: 'Age of the oldest open receivable (0 when none)',
      registers,
      async collect() {
        const [oldest] = await readReceivables();
        this.set(ageSeconds(oldest ? Date.parse(oldest.openedAt) : null));
      },
    });

    const readVerification = oncePerScrape(() => verification.latest());
    new Gauge({
      name: 'ledger_verify_ok',
      help: 'The last verification of the ledger (scheduled or ledger:verify): 1 when everything held, 0 when not; absent before the first',
      registers,
      async collect() {
        this.reset();
        const last = await readVerification();
        if (last) this.set(last.ok ? 1 : 0);
      },
    });
    new Gauge({
      name: 'ledger_verify_last_run_timestamp_seconds',
      help: 'When the last verification of the ledger finished (Unix time)',
      registers,
      async collect() {
        this.reset();
        const last = await readVerification();
        if (last) this.set(last.finished_at.getTime() / 1000);
      },
    });
    new Gauge({
      name: 'ledger_verify_problems',
      help: 'What the last verification of the ledger found, by problem (0 for each that held)',
      labelNames: ['problem'],
      registers,
      async collect() {
        this.reset();
        const last = await readVerification();
        for (const [problem, count] of Object.entries(last?.problems ?? {})) this.set({ problem }, count);
      },
    });
  }
}

/** The rows of each kind, every kind present (a kind with no objects yet reads 0, not nothing). */
function byKind<R extends { kind: string }>(kinds: readonly string[], rows: R[]): Map<string, R[]> {
  const grouped = new Map<string, R[]>(kinds.map((kind) => [kind, []]));
  for (const row of rows) grouped.get(row.kind)?.push(row);
  return grouped;
}
