/** What other modules may use of the Naira module. */
export { NairaModule } from './naira.module';
export { NairaService } from './naira.service';
export { NairaCollectionsService } from './naira-collections.service';
