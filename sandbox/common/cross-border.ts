import type { FastifyInstance } from 'fastify';
import { isNonEmptyString, isRecord, ValidationIssue } from './validation';

/**
 * What the two cross-border sandbox rails (bridge and payout) share: the recipient abroad, the
 * settlement step with its `/_sandbox/settings` route, and the per-reference call counts of
 * `/_sandbox/calls`. See the "Bridge rail" and "Payout rail" sections of sandbox/README.md.
 */

export type Validated<T> = { value: T } | { issues: ValidationIssue[] };

/** The largest amount in minor units any request may carry (10^13, ₦100 billion in kobo). */
export const MAX_MINOR_AMOUNT = 10_000_000_000_000;
/** How long each step of a transfer or payout takes unless the server is told otherwise. */
export const DEFAULT_SETTLEMENT_STEP_MS = 1_000;
export const MAX_SETTLEMENT_STEP_MS = 3_600_000;
export const DEFAULT_CROSS_BORDER_DELIVERY_RETRY_MS = 100;

export const BANK_CODE_TYPES = ['swift', 'iban', 'routing_number', 'other'] as const;
export type BankCodeType = (typeof BANK_CODE_TYPES)[number];

export interface RecipientView {
  full_name: string;
  email: string | null;
  country: string;
  bank_code_type: BankCodeType;
  bank_code: string;
  /** Required unless `iban`, where the IBAN (`bank_code`) is the account (one given anyway is kept, not used). */
  account_number: string | null;
}

export const COUNTRY_CODE = /^[A-Z]{2}$/;
export const CURRENCY_CODE = /^[A-Z]{3}$/;
const BANK_CODE_FORMATS: Record<BankCodeType, { pattern: RegExp; message: string }> = {
  swift: { pattern: /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/, message: 'must be a BIC: 8 or 11 characters, e.g. CHASUS33 or DEUTDEFF500' },
  iban: { pattern: /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/, message: 'must be an IBAN: country code, 2 check digits and 11 to 30 letters or digits, no spaces' },
  routing_number: { pattern: /^\d{9}$/, message: 'must be a 9-digit ABA routing number' },
  other: {
    pattern: /^[\x21-\x7e](?:[\x20-\x7e]{0,33}[\x21-\x7e])?$/,
    message: 'must be 1 to 35 printable ASCII characters, not starting or ending with a space',
  },
};
const ACCOUNT_NUMBER = /^[A-Za-z0-9]{1,34}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function isMinorAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_MINOR_AMOUNT;
}

export const MINOR_AMOUNT_MESSAGE = `must be an integer number of minor units from 1 to ${MAX_MINOR_AMOUNT}`;

/** The recipient's account as the rails screen and pay it: the IBAN for `iban`, else the account number. */
export function recipientAccount(recipient: RecipientView): string {
  return recipient.bank_code_type === 'iban' || recipient.account_number === null ? recipient.bank_code : recipient.account_number;
}

/** Validates `body[field]` as a recipient, reporting issues as `<field>.<name>`. */
export function validateRecipient(value: unknown, field = 'recipient'): Validated<RecipientView> {
  if (!isRecord(value)) return { issues: [{ field, message: 'is required: a JSON object' }] };
  const issues: ValidationIssue[] = [];
  const { full_name, email = null, country, bank_code_type, bank_code, account_number = null } = value;
  if (!isNonEmptyString(full_name, 140)) issues.push({ field: `${field}.full_name`, message: 'is required: a non-empty string of at most 140 characters' });
  if (email !== null && !(typeof email === 'string' && email.length <= 254 && EMAIL.test(email))) {
    issues.push({ field: `${field}.email`, message: 'must be an email address of at most 254 characters, or null' });
  }
  if (typeof country !== 'string' || !COUNTRY_CODE.test(country))
    issues.push({ field: `${field}.country`, message: 'must be an ISO 3166-1 alpha-2 code in capitals, e.g. US' });
  const type = (BANK_CODE_TYPES as readonly unknown[]).includes(bank_code_type) ? (bank_code_type as BankCodeType) : undefined;
  if (type === undefined) {
    issues.push({ field: `${field}.bank_code_type`, message: `must be one of ${BANK_CODE_TYPES.join(', ')}` });
  } else {
    const format = BANK_CODE_FORMATS[type];
    if (typeof bank_code !== 'string' || !format.pattern.test(bank_code)) issues.push({ field: `${field}.bank_code`, message: format.message });
    const accountValid = typeof account_number === 'string' && ACCOUNT_NUMBER.test(account_number);
    if (type === 'iban' ? account_number !== null && !accountValid : !accountValid) {
      issues.push({
        field: `${field}.account_number`,
        message: type === 'iban' ? 'must be 1 to 34 letters or digits, or null (the IBAN is the account)' : 'is required: 1 to 34 letters or digits',
      });
    }
  }
  if (issues.length > 0) return { issues };
  return {
    value: {
      full_name: full_name as string,
      email: email as string | null,
      country: country as string,
      bank_code_type: type as BankCodeType,
      bank_code: bank_code as string,
      account_number: account_number as string | null,
    },
  };
}

export function nonNegativeInteger(rail: string, name: string, value: number | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0 || value > max) throw new Error(`${rail}: ${name} must be an integer from 0 to ${max}`);
  return value;
}

export interface CallCounts {
  /** Create requests for the reference past auth, key and validation, replays included. */
  createRequests: number;
  /** Resources created for it: never more than 1. */
  created: number;
}

/** Create requests and creations per reference, for `GET /_sandbox/calls`. */
export class CallCounter {
  private readonly counts = new Map<string, CallCounts>();

  private entry(reference: string): CallCounts {
    let counts = this.counts.get(reference);
    if (!counts) {
      counts = { createRequests: 0, created: 0 };
      this.counts.set(reference, counts);
    }
    return counts;
  }

  request(reference: string): void {
    this.entry(reference).createRequests += 1;
  }

  created(reference: string): void {
    this.entry(reference).created += 1;
  }

  /** One reference's counts, or the totals over every reference. */
  get(reference?: string): CallCounts {
    if (reference !== undefined) return { ...(this.counts.get(reference) ?? { createRequests: 0, created: 0 }) };
    let createRequests = 0;
    let created = 0;
    for (const counts of this.counts.values()) {
      createRequests += counts.createRequests;
      created += counts.created;
    }
    return { createRequests, created };
  }

  reset(): void {
    this.counts.clear();
  }
}

/** Timers of pending steps, cleared all at once on reset and close. */
export class StepTimers {
  private readonly timers = new Set<NodeJS.Timeout>();

  after(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }

  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

/**
 * `GET /_sandbox/calls?reference=…` and `GET|POST /_sandbox/settings` (call inside
 * `registerControlRoutes`). The step is read when a resource is created: changing it does not
 * move steps already scheduled.
 */
export function registerCrossBorderControlRoutes(
  control: FastifyInstance,
  calls: CallCounter,
  settings: { get: () => number; set: (settlementStepMs: number) => void },
): void {
  control.get<{ Querystring: Record<string, unknown> }>('/_sandbox/calls', (request, reply) => {
    const { reference } = request.query;
    if (reference !== undefined && !isNonEmptyString(reference)) {
      return reply.code(400).send({ error: 'bad_request', message: 'reference must be 1 to 255 characters (or absent, for the totals)' });
    }
    return calls.get(reference);
  });

  control.get('/_sandbox/settings', () => ({ settlement_step_ms: settings.get() }));

  control.post('/_sandbox/settings', (request, reply) => {
    const body = request.body ?? {};
    const issues: ValidationIssue[] = [];
    if (!isRecord(body)) {
      issues.push({ field: '(body)', message: 'must be a JSON object' });
    } else {
      for (const key of Object.keys(body)) {
        if (key !== 'settlement_step_ms') issues.push({ field: key, message: 'unknown setting; expected settlement_step_ms' });
      }
      const step = body.settlement_step_ms;
      if (step !== undefined && !(typeof step === 'number' && Number.isInteger(step) && step >= 0 && step <= MAX_SETTLEMENT_STEP_MS)) {
        issues.push({ field: 'settlement_step_ms', message: `must be an integer from 0 to ${MAX_SETTLEMENT_STEP_MS}` });
      }
      if (issues.length === 0 && step !== undefined) settings.set(step as number);
    }
    if (issues.length > 0) return reply.code(400).send({ error: 'invalid_settings', details: issues });
    return { settlement_step_ms: settings.get() };
  });
}
