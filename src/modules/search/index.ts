/** What other modules may use of the search module. */
export { SearchModule } from './search.module';
