import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { COUNTRY_CODE, isMinorAmount, MINOR_AMOUNT_MESSAGE, recipientAccount, RecipientView, Validated, validateRecipient } from '../common/cross-border';
import { createCrossBorderRailServer, CrossBorderRailServerOptions, ReturnView } from '../common/cross-border-server';
import { newSandboxId } from '../common/event-log';
import { isNonEmptyString, isRecord, ValidationIssue } from '../common/validation';

export { DEFAULT_SETTLEMENT_STEP_MS, MAX_MINOR_AMOUNT } from '../common/cross-border';
export type { RecipientView } from '../common/cross-border';
export { RAIL_EVENT_ID_HEADER, RAIL_SIGNATURE_HEADER, signRailPayload } from '../common/callbacks';

/**
 * Sandbox payout rail: pays a recipient abroad in the destination currency and confirms each
 * completed payout with the fields of a SWIFT MT103; outcomes are events (listed and sent as
 * signed callbacks). See sandbox/README.md.
 */

export type PayoutRailServerOptions = CrossBorderRailServerOptions;

export const DEFAULT_PAYOUT_RAIL_API_KEY = 'sandbox-payout-rail-key';
export const DEFAULT_PAYOUT_RAIL_WEBHOOK_SECRET = 'sandbox-payout-rail-webhook-secret';

/** A payout to an account number (or, for `iban`, an IBAN) ending with this is accepted, then fails: the account is closed. */
export const ACCOUNT_CLOSED_SUFFIX = '9999';
export const ACCOUNT_CLOSED_CODE = 'beneficiary_account_closed';
export const ACCOUNT_CLOSED_MESSAGE = "The beneficiary's bank reports the account closed";
/** A payout to an account number (or IBAN) ending with this stays `processing` for ever: a payout that never completes. */
export const PAYOUT_HELD_SUFFIX = '2222';
/** A payout to an account number (or IBAN) ending with this cannot be returned: the rail refuses. */
export const RETURN_REFUSED_SUFFIX = '4444';
export const RETURN_REFUSED_CODE = 'return_refused';

/** Currencies the rail pays out in, with their decimal places. */
export const PAYOUT_RAIL_CURRENCIES: Readonly<Record<string, number>> = { USD: 2, GBP: 2, EUR: 2, GHS: 2, KES: 2 };
/** :23B: of every confirmation. */
export const BANK_OPERATION_CODE = 'CRED';
/** :71A: of every confirmation: the sender pays all charges, so the beneficiary receives the whole amount. */
export const DETAILS_OF_CHARGES = 'OUR';

/** `returned`: the payout cancelled, recalled or failed, its money back at the bridge side. */
export type PayoutStatus = 'processing' | 'completed' | 'failed' | 'returned';
export type PayoutEventType = 'payout.completed' | 'payout.failed' | 'payout.returned' | 'payout.return_refused';

/** The fields of the MT103 that paid the recipient. */
export interface ConfirmationView {
  /** Field 121: a UUID v4. */
  uetr: string;
  /** :20: the rail's 16-character reference. */
  sender_reference: string;
  /** :23B: always `CRED`. */
  bank_operation_code: string;
  /** :32A: YYYY-MM-DD (UTC day of completion), currency, amount as a decimal string (e.g. "1234.50"). */
  value_date: string;
  currency: string;
  amount: string;
  /** :50K: "<name>, <country>". */
  ordering_customer: string;
  /** :57A: the recipient's bank code. */
  account_with_institution: string;
  /** :59: the IBAN for `iban`, else the account number; and the recipient's name. */
  beneficiary_account: string;
  beneficiary_name: string;
  /** :70: `payment_reference`, or `purpose_of_transfer` when it is null. */
  remittance_information: string;
  /** :71A: always `OUR`. */
  details_of_charges: string;
}

export interface PayoutView {
  id: string;
  reference: string;
  currency: string;
  /** Minor units of `currency`. */
  amount: number;
  recipient: RecipientView;
  purpose_of_transfer: string;
  payment_reference: string | null;
  ordering_customer: { name: string; country: string };
  status: PayoutStatus;
  failure_code: typeof ACCOUNT_CLOSED_CODE | null;
  failure_message: string | null;
  confirmation: ConfirmationView | null;
  /** The return of its money to the bridge side, once asked for; `amount` in minor units of `currency`. */
  return: ReturnView | null;
  created_at: string;
  updated_at: string;
}

type PayoutRequest = Pick<PayoutView, 'reference' | 'currency' | 'amount' | 'recipient' | 'purpose_of_transfer' | 'payment_reference' | 'ordering_customer'>;

/** `amount` minor units as a decimal string with `decimals` places: 123456, 2 → "1234.56". */
export function formatMinorAmount(amount: number, decimals: number): string {
  if (decimals === 0) return String(amount);
  const digits = String(amount).padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

function validatePayoutRequest(body: unknown, idempotencyKey: string): Validated<PayoutRequest> {
  if (!isRecord(body)) return { issues: [{ field: '(body)', message: 'must be a JSON object' }] };
  const issues: ValidationIssue[] = [];
  const { reference, currency, amount, purpose_of_transfer, payment_reference = null, ordering_customer } = body;
  if (!isNonEmptyString(reference)) issues.push({ field: 'reference', message: 'is required: a non-empty string of at most 255 characters' });
  else if (reference !== idempotencyKey) issues.push({ field: 'reference', message: 'must equal the Idempotency-Key header' });
  if (typeof currency !== 'string' || !Object.hasOwn(PAYOUT_RAIL_CURRENCIES, currency)) {
    issues.push({ field: 'currency', message: `must be one of ${Object.keys(PAYOUT_RAIL_CURRENCIES).join(', ')}` });
  }
  if (!isMinorAmount(amount)) issues.push({ field: 'amount', message: MINOR_AMOUNT_MESSAGE });
  const recipient = validateRecipient(body.recipient);
  if ('issues' in recipient) issues.push(...recipient.issues);
  if (!isNonEmptyString(purpose_of_transfer, 140))
    issues.push({ field: 'purpose_of_transfer', message: 'is required: a non-empty string of at most 140 characters' });
  if (payment_reference !== null && !isNonEmptyString(payment_reference, 140)) {
    issues.push({ field: 'payment_reference', message: 'must be a non-empty string of at most 140 characters, or null' });
  }
  if (!isRecord(ordering_customer)) {
    issues.push({ field: 'ordering_customer', message: 'is required: a JSON object with name and country' });
  } else {
    if (!isNonEmptyString(ordering_customer.name, 200))
      issues.push({ field: 'ordering_customer.name', message: 'is required: a non-empty string of at most 200 characters' });
    if (typeof ordering_customer.country !== 'string' || !COUNTRY_CODE.test(ordering_customer.country)) {
      issues.push({ field: 'ordering_customer.country', message: 'must be an ISO 3166-1 alpha-2 code in capitals, e.g. NG' });
    }
  }
  if (issues.length > 0 || !('value' in recipient)) return { issues };
  const customer = ordering_customer as { name: string; country: string };
  return {
    value: {
      reference: reference as string,
      currency: currency as string,
      amount: amount as number,
      recipient: recipient.value,
      purpose_of_transfer: purpose_of_transfer as string,
      payment_reference: payment_reference as string | null,
      ordering_customer: { name: customer.name, country: customer.country },
    },
  };
}

function confirmationFor(payout: PayoutView, at: Date): ConfirmationView {
  return {
    uetr: randomUUID(),
    sender_reference: `SBX${randomBytes(7).toString('hex').toUpperCase().slice(0, 13)}`,
    bank_operation_code: BANK_OPERATION_CODE,
    value_date: at.toISOString().slice(0, 10),
    currency: payout.currency,
    amount: formatMinorAmount(payout.amount, PAYOUT_RAIL_CURRENCIES[payout.currency]),
    ordering_customer: `${payout.ordering_customer.name}, ${payout.ordering_customer.country}`,
    account_with_institution: payout.recipient.bank_code,
    beneficiary_account: recipientAccount(payout.recipient),
    beneficiary_name: payout.recipient.full_name,
    remittance_information: payout.payment_reference ?? payout.purpose_of_transfer,
    details_of_charges: DETAILS_OF_CHARGES,
  };
}

/** The payout's outcome: `failed` for a closed account, else `completed` with its confirmation. */
function decide(payout: PayoutView): void {
  const at = new Date();
  if (recipientAccount(payout.recipient).endsWith(ACCOUNT_CLOSED_SUFFIX)) {
    payout.status = 'failed';
    payout.failure_code = ACCOUNT_CLOSED_CODE;
    payout.failure_message = ACCOUNT_CLOSED_MESSAGE;
  } else {
    payout.status = 'completed';
    payout.confirmation = confirmationFor(payout, at);
  }
  payout.updated_at = at.toISOString();
}

export function createPayoutRailServer(options: PayoutRailServerOptions): FastifyInstance {
  return createCrossBorderRailServer<PayoutRequest, PayoutView>(options, {
    name: 'payout rail',
    defaultWebhookSecret: DEFAULT_PAYOUT_RAIL_WEBHOOK_SECRET,
    collection: 'payouts',
    eventPrefix: 'payout',
    unsettled: 'processing',
    validate: validatePayoutRequest,
    // Every payout is accepted as processing, a closed account included: the bank finds out later.
    create: (request) => {
      const now = new Date().toISOString();
      return {
        id: newSandboxId('fpo'),
        ...request,
        status: 'processing',
        failure_code: null,
        failure_message: null,
        confirmation: null,
        return: null,
        created_at: now,
        updated_at: now,
      };
    },
    settle: decide,
    holds: (payout) => payout.status === 'processing' && recipientAccount(payout.recipient).endsWith(PAYOUT_HELD_SUFFIX),
    // Whatever became of the payout (processing: cancelled; failed: its money came back; completed:
    // recalled), its amount goes back to the bridge side, in the payout's currency.
    returnable: () => true,
    returnOutcome: (payout) =>
      recipientAccount(payout.recipient).endsWith(RETURN_REFUSED_SUFFIX)
        ? { refused: { code: RETURN_REFUSED_CODE, message: 'The payout rail cannot return these funds' } }
        : { amount: payout.amount },
    returnedStatus: 'returned',
    // Until paid, and once a failed payout's money is back at the rail, the rail holds it; a paid
    // payout only while it is being recalled.
    held: (payout) =>
      payout.status === 'processing' || payout.status === 'failed' || (payout.status === 'completed' && payout.return?.status === 'pending')
        ? { currency: payout.currency, amount: payout.amount }
        : null,
    view: (payout) => ({
      ...payout,
      recipient: { ...payout.recipient },
      ordering_customer: { ...payout.ordering_customer },
      confirmation: payout.confirmation && { ...payout.confirmation },
      return: payout.return && { ...payout.return },
    }),
  });
}
