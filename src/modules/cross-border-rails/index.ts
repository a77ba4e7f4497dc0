/** What other modules may use of the cross-border rails module. */
export { CrossBorderRailsModule } from './cross-border-rails.module';
export { RATE_PROVIDER, ROUTE_TYPES } from './rate-provider';
export type { CorridorRate, RateProvider, RouteType } from './rate-provider';
export { BRIDGE_RAIL } from './bridge-rail';
export type {
  BridgeEvent,
  BridgeRail,
  BridgeTransfer,
  BridgeTransferRequest,
  BridgeTransferStatus,
  RailAmount,
  RailHoldings,
  RailLeg,
  RailReturn,
  Recipient,
} from './bridge-rail';
export { PAYOUT_RAIL } from './payout-rail';
export type { ForeignPayout, ForeignPayoutRequest, ForeignPayoutStatus, PayoutConfirmation, PayoutEvent, PayoutRail } from './payout-rail';
