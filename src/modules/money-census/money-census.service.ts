import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { MONEY_OBJECT_SOURCES } from './money-census.sources';
import { CensusRow, MoneyCensusRepository, ObjectHistory, StuckRow } from './money-census.repository';

/** How long the counts of finished objects are reused: they only grow, and counting them reads every table. */
export const FINISHED_COUNTS_TTL_MS = 60_000;

/** The most stuck objects the view lists at once, oldest first. */
export const STUCK_LIST_LIMIT = 200;

/**
 * Payment intents, withdrawals, international payment intents and vault transfers counted by
 * status, the oldest unfinished one of each kind, and those stuck: still in a step
 * `STUCK_AFTER_MS` after its clock started (see `MoneyObjectSource`).
 */
@Injectable()
export class MoneyCensusService {
  private finished?: { at: number; rows: Promise<CensusRow[]> };

  /** The kinds counted, as their events name them. */
  readonly kinds = MONEY_OBJECT_SOURCES.map((source) => source.kind);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: MoneyCensusRepository,
  ) {}

  /**
   * Every kind by status: the unfinished statuses exact at each call, the finished ones as counted
   * at most `FINISHED_COUNTS_TTL_MS` ago (counting them reads every table whole: at a million
   * objects of each kind, half a second of PostgreSQL).
   */
  async census(): Promise<CensusRow[]> {
    const [unfinished, finished] = await Promise.all([this.repository.unfinished(this.stuckBefore()), this.finishedCounts()]);
    return [...unfinished, ...finished];
  }

  private finishedCounts(): Promise<CensusRow[]> {
    if (!this.finished || Date.now() - this.finished.at > FINISHED_COUNTS_TTL_MS) {
      const rows = this.repository.finished();
      this.finished = { at: Date.now(), rows };
      // A failed count is not kept: the next scrape asks again.
      rows.catch(() => {
        if (this.finished?.rows === rows) this.finished = undefined;
      });
    }
    return this.finished.rows;
  }

  stuck(): Promise<StuckRow[]> {
    return this.repository.stuck(this.stuckBefore(), STUCK_LIST_LIMIT);
  }

  history(kind: string, id: string): Promise<ObjectHistory | null> {
    return this.repository.history(kind, id);
  }

  private stuckBefore(): Date {
    return new Date(Date.now() - this.config.ops.stuckAfterMs);
  }
}
