import type { FastifyInstance } from 'fastify';
import {
  COUNTRY_CODE,
  CURRENCY_CODE,
  isMinorAmount,
  MAX_MINOR_AMOUNT,
  MINOR_AMOUNT_MESSAGE,
  recipientAccount,
  RecipientView,
  Validated,
  validateRecipient,
} from '../common/cross-border';
import { createCrossBorderRailServer, CrossBorderRailServerOptions, ReturnOutcome, ReturnView } from '../common/cross-border-server';
import { newSandboxId } from '../common/event-log';
import { isNonEmptyString, isRecord, ValidationIssue } from '../common/validation';

export { DEFAULT_SETTLEMENT_STEP_MS, MAX_MINOR_AMOUNT } from '../common/cross-border';
export type { RecipientView } from '../common/cross-border';
export { RAIL_EVENT_ID_HEADER, RAIL_SIGNATURE_HEADER, signRailPayload } from '../common/callbacks';

/**
 * Sandbox bridge rail: quotes NGN exchange rates per corridor and route, screens the recipient,
 * converts NGN into the destination currency (directly or through USDC) and reports each
 * transfer's outcome as events (listed and sent as signed callbacks). See sandbox/README.md.
 */

export type BridgeRailServerOptions = CrossBorderRailServerOptions;

export const DEFAULT_BRIDGE_RAIL_API_KEY = 'sandbox-bridge-rail-key';
export const DEFAULT_BRIDGE_RAIL_WEBHOOK_SECRET = 'sandbox-bridge-rail-webhook-secret';

/** A recipient whose account number (or, for `iban`, whose IBAN) ends with this is rejected by compliance screening. */
export const COMPLIANCE_REJECTED_SUFFIX = '0000';
export const COMPLIANCE_REJECTED_CODE = 'compliance_rejected';
export const COMPLIANCE_REJECTED_MESSAGE = 'The recipient did not pass compliance screening';
/** A recipient whose account number (or IBAN) ends with this stays `in_review`: a compliance review that never ends. */
export const REVIEW_HELD_SUFFIX = '1111';
/** A transfer to a recipient whose account number (or IBAN) ends with this cannot be returned: the rail refuses. */
export const RETURN_REFUSED_SUFFIX = '3333';
export const RETURN_REFUSED_CODE = 'return_refused';
/**
 * A completed transfer is converted back to NGN at the route's rate less this spread (basis
 * points), rounded down to the kobo: what the platform gets back differs from what it sent.
 */
export const RETURN_SPREAD_BPS = 50;

export type BridgeRouteType = 'ngn' | 'usdc';
export const BRIDGE_ROUTE_TYPES: readonly BridgeRouteType[] = ['ngn', 'usdc'];

export interface RouteRateView {
  route_type: BridgeRouteType;
  /** NGN per one unit of the destination currency, at most 8 decimal places. */
  rate: string;
  /** Kobo. */
  fixed_fee: number;
  fee_bps: number;
}

export interface SandboxCorridor {
  countries: readonly string[];
  routes: readonly RouteRateView[];
}

/** The 20 euro-area countries (ISO 3166-1 alpha-2) served in EUR. */
export const EURO_AREA_COUNTRIES = [
  'AT',
  'BE',
  'CY',
  'DE',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PT',
  'SI',
  'SK',
] as const;

/**
 * The fixed rate table, by destination currency: the countries served in it and its routes in
 * `BRIDGE_ROUTE_TYPES` order. Every destination currency here has 2 decimal places, as NGN has,
 * so `rate` is also kobo per minor unit of the destination currency.
 */
export const BRIDGE_RAIL_RATES = {
  USD: {
    countries: ['US'],
    routes: [
      { route_type: 'ngn', rate: '1550.75', fixed_fee: 50_000, fee_bps: 150 },
      { route_type: 'usdc', rate: '1542.3', fixed_fee: 25_000, fee_bps: 80 },
    ],
  },
  GBP: {
    countries: ['GB'],
    routes: [{ route_type: 'ngn', rate: '2085.4', fixed_fee: 75_000, fee_bps: 175 }],
  },
  EUR: {
    countries: EURO_AREA_COUNTRIES,
    routes: [
      { route_type: 'ngn', rate: '1690.125', fixed_fee: 60_000, fee_bps: 160 },
      { route_type: 'usdc', rate: '1681.5', fixed_fee: 30_000, fee_bps: 90 },
    ],
  },
  GHS: {
    countries: ['GH'],
    routes: [{ route_type: 'ngn', rate: '128.6543', fixed_fee: 20_000, fee_bps: 200 }],
  },
  KES: {
    countries: ['KE'],
    routes: [{ route_type: 'ngn', rate: '11.98765432', fixed_fee: 15_000, fee_bps: 220 }],
  },
} as const satisfies Record<string, SandboxCorridor>;

/** The routes serving `country`/`currency` (copies, in `BRIDGE_ROUTE_TYPES` order); empty when none does. */
export function corridorRoutes(country: string, currency: string): RouteRateView[] {
  if (!Object.hasOwn(BRIDGE_RAIL_RATES, currency)) return [];
  const corridor: SandboxCorridor = BRIDGE_RAIL_RATES[currency as keyof typeof BRIDGE_RAIL_RATES];
  return corridor.countries.includes(country) ? corridor.routes.map((route) => ({ ...route })) : [];
}

/** `in_review`: held by compliance review before the conversion starts (`REVIEW_HELD_SUFFIX`); `returned`: its money given back. */
export type BridgeTransferStatus = 'in_review' | 'pending' | 'completed' | 'rejected' | 'returned';
export type BridgeEventType = 'transfer.completed' | 'transfer.rejected' | 'transfer.returned' | 'transfer.return_refused';

export interface BridgeTransferView {
  id: string;
  reference: string;
  route_type: BridgeRouteType;
  /** Kobo. */
  source_amount: number;
  source_currency: 'NGN';
  destination_currency: string;
  /** Minor units of `destination_currency`. */
  destination_amount: number;
  /** The route's rate when the transfer was created. */
  rate: string;
  recipient: RecipientView;
  status: BridgeTransferStatus;
  failure_code: typeof COMPLIANCE_REJECTED_CODE | null;
  failure_message: string | null;
  /** The return of its NGN, once asked for; `amount` in kobo. */
  return: ReturnView | null;
  created_at: string;
  updated_at: string;
}

/** Kobo back for a transfer: what was sent when nothing was converted yet, else the destination amount converted back (see RETURN_SPREAD_BPS). */
function returnOutcome(transfer: BridgeTransferView): ReturnOutcome {
  if (recipientAccount(transfer.recipient).endsWith(RETURN_REFUSED_SUFFIX)) {
    return { refused: { code: RETURN_REFUSED_CODE, message: 'The bridge rail cannot return these funds' } };
  }
  if (transfer.status !== 'completed') return { amount: transfer.source_amount };
  const [whole, fraction = ''] = transfer.rate.split('.');
  const kobo =
    (BigInt(transfer.destination_amount) * BigInt(whole + fraction) * BigInt(10_000 - RETURN_SPREAD_BPS)) / (10n ** BigInt(fraction.length) * 10_000n);
  return { amount: Number(kobo) };
}

type TransferRequest = Pick<BridgeTransferView, 'reference' | 'route_type' | 'source_amount' | 'destination_currency' | 'destination_amount' | 'recipient'> & {
  rate: string;
};

function validateTransferRequest(body: unknown, idempotencyKey: string): Validated<TransferRequest> {
  if (!isRecord(body)) return { issues: [{ field: '(body)', message: 'must be a JSON object' }] };
  const issues: ValidationIssue[] = [];
  const { reference, route_type, source_amount, destination_currency, destination_amount } = body;
  if (!isNonEmptyString(reference)) issues.push({ field: 'reference', message: 'is required: a non-empty string of at most 255 characters' });
  else if (reference !== idempotencyKey) issues.push({ field: 'reference', message: 'must equal the Idempotency-Key header' });
  const routeValid = (BRIDGE_ROUTE_TYPES as readonly unknown[]).includes(route_type);
  if (!routeValid) issues.push({ field: 'route_type', message: `must be one of ${BRIDGE_ROUTE_TYPES.join(', ')}` });
  if (!isMinorAmount(source_amount)) issues.push({ field: 'source_amount', message: `must be an integer number of kobo from 1 to ${MAX_MINOR_AMOUNT}` });
  const currencyValid = typeof destination_currency === 'string' && CURRENCY_CODE.test(destination_currency);
  if (!currencyValid) issues.push({ field: 'destination_currency', message: 'must be an ISO 4217 code in capitals, e.g. USD' });
  if (!isMinorAmount(destination_amount)) issues.push({ field: 'destination_amount', message: MINOR_AMOUNT_MESSAGE });
  const recipient = validateRecipient(body.recipient);
  if ('issues' in recipient) issues.push(...recipient.issues);

  let rate = '';
  if (currencyValid && 'value' in recipient) {
    const { country } = recipient.value;
    const routes = corridorRoutes(country, destination_currency);
    const route = routes.find((candidate) => candidate.route_type === route_type);
    if (routes.length === 0) issues.push({ field: 'destination_currency', message: `is not served for recipient country ${country}` });
    else if (routeValid && !route) {
      issues.push({
        field: 'route_type',
        message: `is not offered for ${country}/${destination_currency} (offered: ${routes.map((r) => r.route_type).join(', ')})`,
      });
    } else if (route) rate = route.rate;
  }
  if (issues.length > 0 || !('value' in recipient)) return { issues };
  return {
    value: {
      reference: reference as string,
      route_type: route_type as BridgeRouteType,
      source_amount: source_amount as number,
      destination_currency: destination_currency as string,
      destination_amount: destination_amount as number,
      recipient: recipient.value,
      rate,
    },
  };
}

export function createBridgeRailServer(options: BridgeRailServerOptions): FastifyInstance {
  return createCrossBorderRailServer<TransferRequest, BridgeTransferView>(options, {
    name: 'bridge rail',
    defaultWebhookSecret: DEFAULT_BRIDGE_RAIL_WEBHOOK_SECRET,
    collection: 'transfers',
    eventPrefix: 'transfer',
    unsettled: 'pending',
    validate: validateTransferRequest,
    // Screening happens when the transfer is created: a rejection is its outcome at once, whatever the step.
    create: (request, settlementStepMs) => {
      const now = new Date().toISOString();
      const account = recipientAccount(request.recipient);
      const rejected = account.endsWith(COMPLIANCE_REJECTED_SUFFIX);
      const held = account.endsWith(REVIEW_HELD_SUFFIX);
      return {
        id: newSandboxId('btr'),
        reference: request.reference,
        route_type: request.route_type,
        source_amount: request.source_amount,
        source_currency: 'NGN',
        destination_currency: request.destination_currency,
        destination_amount: request.destination_amount,
        rate: request.rate,
        recipient: request.recipient,
        status: rejected ? 'rejected' : held ? 'in_review' : settlementStepMs === 0 ? 'completed' : 'pending',
        failure_code: rejected ? COMPLIANCE_REJECTED_CODE : null,
        failure_message: rejected ? COMPLIANCE_REJECTED_MESSAGE : null,
        return: null,
        created_at: now,
        updated_at: now,
      };
    },
    settle: (transfer) => {
      transfer.status = 'completed';
      transfer.updated_at = new Date().toISOString();
    },
    holds: (transfer) => transfer.status === 'in_review',
    // A transfer the rail rejected never took the money.
    returnable: (transfer) => transfer.status !== 'rejected',
    returnOutcome,
    returnedStatus: 'returned',
    // Unconverted NGN is held until the transfer completes; once it has, the converted money was
    // delivered to the payout side, unless it is on its way back.
    held: (transfer) => {
      if (transfer.status === 'in_review' || transfer.status === 'pending') return { currency: 'NGN', amount: transfer.source_amount };
      if (transfer.status === 'completed' && transfer.return?.status === 'pending')
        return { currency: transfer.destination_currency, amount: transfer.destination_amount };
      return null;
    },
    view: (transfer) => ({ ...transfer, recipient: { ...transfer.recipient }, return: transfer.return && { ...transfer.return } }),
    routes: (app) => {
      app.get<{ Querystring: Record<string, unknown> }>('/v1/rates', async (request, reply) => {
        const { country, currency } = request.query;
        if (typeof country !== 'string' || !COUNTRY_CODE.test(country) || typeof currency !== 'string' || !CURRENCY_CODE.test(currency)) {
          return reply
            .code(400)
            .send({ error: 'bad_request', message: 'country (ISO 3166-1 alpha-2, e.g. US) and currency (ISO 4217, e.g. USD) are required, in capitals' });
        }
        return { country, currency, routes: corridorRoutes(country, currency) };
      });
    },
  });
}
