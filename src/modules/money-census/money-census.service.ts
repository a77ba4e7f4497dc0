import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { MONEY_OBJECT_SOURCES } from './money-census.sources';
import { CensusRow, MoneyCensusRepository, ObjectHistory, StuckRow } from './money-census.repository';

/** The most stuck objects the view lists at once, oldest first. */
export const STUCK_LIST_LIMIT = 200;

/**
 * Payment intents, withdrawals, international payment intents and vault transfers counted by
 * status, the oldest unfinished one of each kind, and those stuck: still in a step
 * `STUCK_AFTER_MS` after its clock started (see `MoneyObjectSource`).
 */
@Injectable()
export class MoneyCensusService {
  /** The kinds counted, as their events name them. */
  readonly kinds = MONEY_OBJECT_SOURCES.map((source) => source.kind);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: MoneyCensusRepository,
  ) {}

  census(): Promise<CensusRow[]> {
    return this.repository.census(this.stuckBefore());
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
