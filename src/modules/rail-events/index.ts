/** What other modules may use of the rail events module. */
export { RailEventsModule } from './rail-events.module';
