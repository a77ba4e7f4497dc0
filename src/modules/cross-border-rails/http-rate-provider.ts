import { Type } from 'class-transformer';
import { IsArray, IsInt, IsString, Matches, Max, Min, ValidateNested } from 'class-validator';
import { parseProviderBody, ProviderError, ProviderHttpClient } from '../../common/providers/provider-http-client';
import type { CallOptions } from '../../common/providers/provider-http-client';
import { CorridorRate, RateProvider, ROUTE_TYPES } from './rate-provider';

export const BRIDGE_RAIL_NAME = 'bridge rail';

class RouteRateBody {
  @IsString()
  route_type: string;

  /** A positive decimal with at most 8 places (zero is refused below). */
  @Matches(/^\d{1,12}(\.\d{1,8})?$/)
  rate: string;

  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  fixed_fee: number;

  @IsInt()
  @Min(0)
  @Max(10_000)
  fee_bps: number;
}

class RatesBody {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => RouteRateBody)
  routes: RouteRateBody[];
}

/** Exchange rates and fees as the bridge rail quotes them (`GET /v1/rates`), on the bridge rail's client. */
export class HttpRateProvider implements RateProvider {
  constructor(private readonly client: ProviderHttpClient) {}

  async rates(country: string, currency: string, options: CallOptions): Promise<CorridorRate[]> {
    const query = new URLSearchParams({ country, currency });
    const { body } = await this.client.request({ method: 'GET', path: `/v1/rates?${query.toString()}`, ...options });
    const { routes } = parseProviderBody(BRIDGE_RAIL_NAME, RatesBody, body);
    const rates: CorridorRate[] = [];
    // A route this version does not know is not offered; one quoted twice or at zero is not to be trusted.
    for (const routeType of ROUTE_TYPES) {
      const quoted = routes.filter((route) => route.route_type === routeType);
      if (quoted.length === 0) continue;
      if (quoted.length > 1) throw new ProviderError(`${BRIDGE_RAIL_NAME}: quoted route ${routeType} more than once`, true);
      const [route] = quoted;
      if (!/[1-9]/.test(route.rate)) throw new ProviderError(`${BRIDGE_RAIL_NAME}: quoted route ${routeType} at a zero rate`, true);
      rates.push({ routeType, rate: route.rate, fixedFee: route.fixed_fee, feeBps: route.fee_bps });
    }
    return rates;
  }
}
