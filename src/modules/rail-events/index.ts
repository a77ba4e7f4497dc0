/** What other modules may use of the rail events module. */
export { RailEventsModule } from './rail-events.module';
export { BANK_RAIL_CALLBACK_PATH, BRIDGE_RAIL_CALLBACK_PATH, PAYOUT_RAIL_CALLBACK_PATH } from './rail-events.routes';
