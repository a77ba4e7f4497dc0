/** What other modules may use of the money census. */
export { MoneyCensusModule } from './money-census.module';
export { MoneyCensusService, STUCK_LIST_LIMIT } from './money-census.service';
export type { CensusRow, HistoryRow, ObjectHistory, StuckRow } from './money-census.repository';
