import type { CallOptions } from '../../common/providers/provider-http-client';

/** How an international payment reaches the recipient: NGN sold straight into the destination currency, or through USDC. */
export type RouteType = 'ngn' | 'usdc';
export const ROUTE_TYPES: readonly RouteType[] = ['ngn', 'usdc'];

/** The price of one route of a corridor (a destination country and currency). */
export interface CorridorRate {
  routeType: RouteType;
  /** NGN per one unit of the destination currency: a decimal string, at most 8 decimal places. */
  rate: string;
  /** Flat fee of the route, in kobo. */
  fixedFee: number;
  /** Fee on the converted NGN amount, in basis points. */
  feeBps: number;
}

/** Where exchange rates and fees come from (the bridge rail quotes them). */
export interface RateProvider {
  /** The routes that serve `country`/`currency`, in `ROUTE_TYPES` order; empty when none does. */
  rates(country: string, currency: string, options: CallOptions): Promise<CorridorRate[]>;
}

export const RATE_PROVIDER = Symbol('RATE_PROVIDER');
