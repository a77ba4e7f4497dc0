import { randomInt } from 'node:crypto';
import { fastify, FastifyInstance } from 'fastify';
import { isValidNuban, nubanFor } from '../../src/common/banking/nuban';
import { EventLog, newSandboxId } from '../common/event-log';
import { installSandboxCommon, registerControlRoutes } from '../common/faults';
import { isNonEmptyString, isRecord, requireIdempotencyKey, ValidationIssue } from '../common/validation';
import { callbackUrlProblem, DEFAULT_BANK_RAIL_WEBHOOK_SECRET, RailEventType } from './rail-callbacks';

export {
  DEFAULT_BANK_RAIL_WEBHOOK_SECRET,
  DELIVERY_TIMEOUT_MS,
  MAX_DELIVERY_ATTEMPTS,
  RAIL_EVENT_ID_HEADER,
  RAIL_SIGNATURE_HEADER,
  signRailPayload,
} from './rail-callbacks';
export type { DeliveryRecord, RailEvent, RailEventType, WebhookState } from './rail-callbacks';

/**
 * Sandbox bank rail: NGN virtual accounts, simulated inbound transfers and their returns, payouts,
 * and the events they raise (listed and sent as signed callbacks). See sandbox/README.md for the API.
 */

export interface BankRailServerOptions {
  apiKey: string;
  logger?: boolean;
  /** HMAC key of the `X-Rail-Signature` header on callbacks. */
  webhookSecret?: string;
  /** Where events are posted; none by default (they are still listed by `GET /v1/events`). */
  callbackUrl?: string | null;
  /** How long a payout stays `processing` before its outcome (and again before a return). */
  payoutDelayMs?: number;
  /** First wait between callback attempts; it doubles after each failed attempt. */
  deliveryRetryMs?: number;
}

export const SANDBOX_BANK_NAME = 'Sandbox Microfinance Bank';
export const SANDBOX_BANK_CODE = '999';
export const DEFAULT_PAYOUT_DELAY_MS = 200;
export const DEFAULT_DELIVERY_RETRY_MS = 100;
/** The largest amount (kobo) any request may carry: ₦100 billion. */
export const MAX_AMOUNT_KOBO = 10_000_000_000_000;

/** Payouts to these accounts at bank 058 have a fixed outcome; every other payout succeeds. */
export const MAGIC_PAYOUT_BANK_CODE = '058';
export const PAYOUT_ACCOUNT_NOT_FOUND = '0000000025';
export const PAYOUT_STAYS_PROCESSING = '0000000032';
export const PAYOUT_SUCCEEDS_THEN_RETURNED = '0000000049';

export type VirtualAccountType = 'static' | 'dynamic';

export interface VirtualAccountView {
  id: string;
  reference: string;
  account_number: string;
  bank_code: string;
  bank_name: string;
  account_name: string;
  currency: 'NGN';
  type: VirtualAccountType;
  amount: number | null;
  expires_at: string | null;
  status: 'active';
  created_at: string;
}

export interface TransferView {
  id: string;
  virtual_account_id: string;
  account_number: string;
  amount: number;
  currency: 'NGN';
  sender_bank_name: string;
  sender_account_number: string;
  sender_name: string | null;
  /** What the sender wrote on the transfer. */
  narration: string | null;
  status: 'received' | 'returned';
  received_at: string;
}

export interface TransferReturnView {
  id: string;
  transfer_id: string;
  amount: number;
  currency: 'NGN';
  reason: string;
  status: 'returned';
  created_at: string;
}

export type PayoutStatus = 'processing' | 'succeeded' | 'failed' | 'returned';

export interface PayoutView {
  id: string;
  reference: string;
  amount: number;
  currency: 'NGN';
  bank_code: string;
  account_number: string;
  account_name: string;
  narration: string | null;
  status: PayoutStatus;
  failure_code: 'account_not_found' | 'payout_returned' | null;
  created_at: string;
  updated_at: string;
}

interface StoredAccount extends VirtualAccountView {
  idempotency_key: string;
}

interface StoredPayout extends PayoutView {
  idempotency_key: string;
}

type Validated<T> = { value: T } | { issues: ValidationIssue[] };

const MAX_AMOUNT_MESSAGE = `must be an integer number of kobo from 1 to ${MAX_AMOUNT_KOBO}`;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function isAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_AMOUNT_KOBO;
}

function isDigits(value: unknown, length: number): value is string {
  return typeof value === 'string' && value.length === length && /^\d+$/.test(value);
}

function isOptionalText(value: unknown, maxLength: number): value is string | null | undefined {
  return value === undefined || value === null || (typeof value === 'string' && value.length <= maxLength);
}

function validateAccountRequest(body: unknown): Validated<{
  reference: string;
  accountName: string;
  type: VirtualAccountType;
  amount: number | null;
  expiresAt: string | null;
}> {
  if (!isRecord(body)) return { issues: [{ field: '(body)', message: 'must be a JSON object' }] };
  const issues: ValidationIssue[] = [];
  const { reference, account_name, currency, type = 'static', amount = null, expires_at = null } = body;
  if (!isNonEmptyString(reference)) issues.push({ field: 'reference', message: 'is required: a non-empty string of at most 255 characters' });
  if (!isNonEmptyString(account_name)) issues.push({ field: 'account_name', message: 'is required: a non-empty string of at most 255 characters' });
  if (currency !== 'NGN') issues.push({ field: 'currency', message: 'must be "NGN"' });
  if (type !== 'static' && type !== 'dynamic') issues.push({ field: 'type', message: 'must be "static" or "dynamic"' });
  // An amount or expiry on a static account would be silently meaningless; refusing it catches the mix-up.
  if (amount !== null) {
    if (type === 'static') issues.push({ field: 'amount', message: 'is only allowed on a dynamic account' });
    else if (!isAmount(amount)) issues.push({ field: 'amount', message: MAX_AMOUNT_MESSAGE });
  }
  if (expires_at !== null) {
    if (type === 'static') issues.push({ field: 'expires_at', message: 'is only allowed on a dynamic account' });
    else if (typeof expires_at !== 'string' || !ISO_DATE_TIME.test(expires_at) || Number.isNaN(Date.parse(expires_at))) {
      issues.push({ field: 'expires_at', message: 'must be an ISO 8601 date-time with a time zone, e.g. 2030-01-31T12:00:00Z' });
    }
  }
  if (issues.length > 0) return { issues };
  return {
    value: {
      reference: reference as string,
      accountName: account_name as string,
      type: type as VirtualAccountType,
      amount: amount as number | null,
      expiresAt: expires_at === null ? null : new Date(expires_at as string).toISOString(),
    },
  };
}

function validateInboundTransfer(
  body: unknown,
  isOurAccount: (accountNumber: string) => boolean,
): Validated<{
  accountNumber: string;
  amount: number;
  senderBankName: string;
  senderAccountNumber: string;
  senderName: string | null;
  narration: string | null;
}> {
  if (!isRecord(body)) return { issues: [{ field: '(body)', message: 'must be a JSON object' }] };
  const issues: ValidationIssue[] = [];
  const { account_number, amount, sender_bank_name, sender_account_number, sender_name, narration } = body;
  if (!isDigits(account_number, 10)) issues.push({ field: 'account_number', message: 'must be 10 digits' });
  else if (!isOurAccount(account_number)) issues.push({ field: 'account_number', message: 'is not an account of this bank' });
  if (!isAmount(amount)) issues.push({ field: 'amount', message: MAX_AMOUNT_MESSAGE });
  if (!isNonEmptyString(sender_bank_name, 100))
    issues.push({ field: 'sender_bank_name', message: 'is required: a non-empty string of at most 100 characters' });
  if (!isDigits(sender_account_number, 10)) issues.push({ field: 'sender_account_number', message: 'must be 10 digits' });
  if (!isOptionalText(sender_name, 100)) issues.push({ field: 'sender_name', message: 'must be a string of at most 100 characters' });
  if (!isOptionalText(narration, 100)) issues.push({ field: 'narration', message: 'must be a string of at most 100 characters' });
  if (issues.length > 0) return { issues };
  return {
    value: {
      accountNumber: account_number as string,
      amount: amount as number,
      senderBankName: sender_bank_name as string,
      senderAccountNumber: sender_account_number as string,
      senderName: (sender_name as string | null | undefined) ?? null,
      narration: (narration as string | null | undefined) ?? null,
    },
  };
}

function validateReturnRequest(body: unknown): Validated<{ reason: string }> {
  if (!isRecord(body)) return { issues: [{ field: '(body)', message: 'must be a JSON object' }] };
  if (!isNonEmptyString(body.reason, 100)) return { issues: [{ field: 'reason', message: 'is required: a non-empty string of at most 100 characters' }] };
  return { value: { reason: body.reason } };
}

function validatePayoutRequest(
  body: unknown,
): Validated<Pick<PayoutView, 'reference' | 'amount' | 'bank_code' | 'account_number' | 'account_name' | 'narration'>> {
  if (!isRecord(body)) return { issues: [{ field: '(body)', message: 'must be a JSON object' }] };
  const issues: ValidationIssue[] = [];
  const { reference, amount, currency, bank_code, account_number, account_name, narration } = body;
  if (!isNonEmptyString(reference)) issues.push({ field: 'reference', message: 'is required: a non-empty string of at most 255 characters' });
  if (!isAmount(amount)) issues.push({ field: 'amount', message: MAX_AMOUNT_MESSAGE });
  if (currency !== 'NGN') issues.push({ field: 'currency', message: 'must be "NGN"' });
  const bankCodeValid = isDigits(bank_code, 3);
  if (!bankCodeValid) issues.push({ field: 'bank_code', message: 'must be a 3-digit CBN bank code' });
  if (!isDigits(account_number, 10)) issues.push({ field: 'account_number', message: 'must be 10 digits' });
  else if (bankCodeValid && !isValidNuban(bank_code, account_number)) {
    issues.push({ field: 'account_number', message: `is not a valid NUBAN for bank_code ${bank_code} (wrong check digit)` });
  }
  if (!isNonEmptyString(account_name, 200)) issues.push({ field: 'account_name', message: 'is required: a non-empty string of at most 200 characters' });
  if (!isOptionalText(narration, 100)) issues.push({ field: 'narration', message: 'must be a string of at most 100 characters, or null' });
  if (issues.length > 0) return { issues };
  return {
    value: {
      reference: reference as string,
      amount: amount as number,
      bank_code: bank_code as string,
      account_number: account_number as string,
      account_name: account_name as string,
      narration: (narration as string | null | undefined) ?? null,
    },
  };
}

function nonNegativeInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`bank rail: ${name} must be a non-negative integer`);
  return value;
}

export function createBankRailServer(options: BankRailServerOptions): FastifyInstance {
  const payoutDelayMs = nonNegativeInteger('payoutDelayMs', options.payoutDelayMs, DEFAULT_PAYOUT_DELAY_MS);
  const deliveryRetryMs = nonNegativeInteger('deliveryRetryMs', options.deliveryRetryMs, DEFAULT_DELIVERY_RETRY_MS);
  const callbackUrl = options.callbackUrl ?? null;
  if (callbackUrl !== null) {
    const problem = callbackUrlProblem(callbackUrl);
    if (problem !== null) throw new Error(`bank rail: callbackUrl ${problem}`);
  }
  const app = fastify({ logger: options.logger ?? false });

  const accounts = new Map<string, StoredAccount>();
  const accountsByKey = new Map<string, string>();
  const accountsByNumber = new Map<string, string>();
  let accountRequests = 0;

  const transfers = new Map<string, TransferView>();
  const transfersByKey = new Map<string, string>();
  const returnsByTransfer = new Map<string, TransferReturnView>();
  let returnRequests = 0;

  const payouts = new Map<string, StoredPayout>();
  const payoutsByKey = new Map<string, string>();
  const payoutTimers = new Set<NodeJS.Timeout>();
  let payoutRequests = 0;

  const events = new EventLog<RailEventType>({ secret: options.webhookSecret ?? DEFAULT_BANK_RAIL_WEBHOOK_SECRET, url: callbackUrl, retryMs: deliveryRetryMs });

  const clearPayoutTimers = () => {
    for (const timer of payoutTimers) clearTimeout(timer);
    payoutTimers.clear();
  };

  installSandboxCommon(app, {
    apiKey: options.apiKey,
    onReset: () => {
      clearPayoutTimers();
      events.reset();
      accounts.clear();
      accountsByKey.clear();
      accountsByNumber.clear();
      accountRequests = 0;
      transfers.clear();
      transfersByKey.clear();
      returnsByTransfer.clear();
      returnRequests = 0;
      payouts.clear();
      payoutsByKey.clear();
      payoutRequests = 0;
    },
  });

  app.addHook('preClose', (done) => {
    clearPayoutTimers();
    events.close();
    done();
  });

  const newAccountNumber = (): string => {
    for (;;) {
      const candidate = nubanFor(SANDBOX_BANK_CODE, randomInt(0, 1_000_000_000).toString().padStart(9, '0'));
      if (!accountsByNumber.has(candidate)) return candidate;
    }
  };

  const accountView = ({ idempotency_key: _key, ...account }: StoredAccount): VirtualAccountView => account;
  const payoutView = ({ idempotency_key: _key, ...payout }: StoredPayout): PayoutView => payout;

  app.post('/v1/virtual-accounts', async (request, reply) => {
    const idempotencyKey = requireIdempotencyKey(request, reply);
    if (idempotencyKey === undefined) return reply;
    const result = validateAccountRequest(request.body);
    if ('issues' in result) return reply.code(422).send({ error: 'invalid_request', details: result.issues });

    accountRequests += 1;
    // Lookup and insert run in one synchronous step, so concurrent retries cannot both create.
    const existingId = accountsByKey.get(idempotencyKey);
    const existing = existingId === undefined ? undefined : accounts.get(existingId);
    if (existing) return reply.code(200).header('idempotent-replayed', 'true').send(accountView(existing));

    const { reference, accountName, type, amount, expiresAt } = result.value;
    const account: StoredAccount = {
      id: newSandboxId('va'),
      reference,
      account_number: newAccountNumber(),
      bank_code: SANDBOX_BANK_CODE,
      bank_name: SANDBOX_BANK_NAME,
      account_name: accountName,
      currency: 'NGN',
      type,
      amount,
      expires_at: expiresAt,
      status: 'active',
      created_at: new Date().toISOString(),
      idempotency_key: idempotencyKey,
    };
    accounts.set(account.id, account);
    accountsByKey.set(idempotencyKey, account.id);
    accountsByNumber.set(account.account_number, account.id);
    return reply.code(201).send(accountView(account));
  });

  app.get<{ Params: { id: string } }>('/v1/virtual-accounts/:id', async (request, reply) => {
    const account = accounts.get(request.params.id);
    if (!account) return reply.code(404).send({ error: 'not_found' });
    return accountView(account);
  });

  // The rail credits any amount to any account it issued, a dynamic one past its expiry or for a
  // different amount included: matching a transfer to what was expected is the receiver's job.
  app.post('/v1/simulations/inbound-transfers', async (request, reply) => {
    const idempotencyKey = requireIdempotencyKey(request, reply);
    if (idempotencyKey === undefined) return reply;
    const result = validateInboundTransfer(request.body, (number) => accountsByNumber.has(number));
    if ('issues' in result) return reply.code(422).send({ error: 'invalid_request', details: result.issues });

    const existingId = transfersByKey.get(idempotencyKey);
    const existing = existingId === undefined ? undefined : transfers.get(existingId);
    if (existing)
      return reply
        .code(200)
        .header('idempotent-replayed', 'true')
        .send({ ...existing });

    const { accountNumber, amount, senderBankName, senderAccountNumber, senderName, narration } = result.value;
    const transfer: TransferView = {
      id: newSandboxId('trf'),
      virtual_account_id: accountsByNumber.get(accountNumber) as string,
      account_number: accountNumber,
      amount,
      currency: 'NGN',
      sender_bank_name: senderBankName,
      sender_account_number: senderAccountNumber,
      sender_name: senderName,
      narration,
      status: 'received',
      received_at: new Date().toISOString(),
    };
    transfers.set(transfer.id, transfer);
    transfersByKey.set(idempotencyKey, transfer.id);
    events.emit('transfer.received', { ...transfer }, reply.raw);
    return reply.code(201).send({ ...transfer });
  });

  // A transfer is returned at most once whatever the key: the transfer itself is what makes a
  // second request a replay. The key is still required, as on every POST.
  app.post<{ Params: { id: string } }>('/v1/transfers/:id/return', async (request, reply) => {
    const idempotencyKey = requireIdempotencyKey(request, reply);
    if (idempotencyKey === undefined) return reply;
    const result = validateReturnRequest(request.body);
    if ('issues' in result) return reply.code(422).send({ error: 'invalid_request', details: result.issues });

    returnRequests += 1;
    const transfer = transfers.get(request.params.id);
    if (!transfer) return reply.code(404).send({ error: 'not_found' });
    const existing = returnsByTransfer.get(transfer.id);
    if (existing)
      return reply
        .code(200)
        .header('idempotent-replayed', 'true')
        .send({ ...existing });

    const transferReturn: TransferReturnView = {
      id: newSandboxId('ret'),
      transfer_id: transfer.id,
      amount: transfer.amount,
      currency: 'NGN',
      reason: result.value.reason,
      status: 'returned',
      created_at: new Date().toISOString(),
    };
    returnsByTransfer.set(transfer.id, transferReturn);
    transfer.status = 'returned';
    events.emit('transfer.returned', { ...transferReturn }, reply.raw);
    return reply.code(201).send({ ...transferReturn });
  });

  const settle = (payout: StoredPayout, status: PayoutStatus, failureCode: PayoutView['failure_code']) => {
    payout.status = status;
    payout.failure_code = failureCode;
    payout.updated_at = new Date().toISOString();
    events.emit(`payout.${status}` as RailEventType, payoutView(payout));
  };

  const afterPayoutDelay = (run: () => void) => {
    const timer = setTimeout(() => {
      payoutTimers.delete(timer);
      run();
    }, payoutDelayMs);
    payoutTimers.add(timer);
  };

  const decidePayout = (payout: StoredPayout) => {
    const magic = payout.bank_code === MAGIC_PAYOUT_BANK_CODE ? payout.account_number : undefined;
    if (magic === PAYOUT_STAYS_PROCESSING) return;
    if (magic === PAYOUT_ACCOUNT_NOT_FOUND) {
      settle(payout, 'failed', 'account_not_found');
      return;
    }
    settle(payout, 'succeeded', null);
    if (magic === PAYOUT_SUCCEEDS_THEN_RETURNED) afterPayoutDelay(() => settle(payout, 'returned', 'payout_returned'));
  };

  app.post('/v1/payouts', async (request, reply) => {
    const idempotencyKey = requireIdempotencyKey(request, reply);
    if (idempotencyKey === undefined) return reply;
    const result = validatePayoutRequest(request.body);
    if ('issues' in result) return reply.code(422).send({ error: 'invalid_request', details: result.issues });

    payoutRequests += 1;
    const existingId = payoutsByKey.get(idempotencyKey);
    const existing = existingId === undefined ? undefined : payouts.get(existingId);
    if (existing) return reply.code(200).header('idempotent-replayed', 'true').send(payoutView(existing));

    const now = new Date().toISOString();
    const payout: StoredPayout = {
      id: newSandboxId('po'),
      ...result.value,
      currency: 'NGN',
      status: 'processing',
      failure_code: null,
      created_at: now,
      updated_at: now,
      idempotency_key: idempotencyKey,
    };
    payouts.set(payout.id, payout);
    payoutsByKey.set(idempotencyKey, payout.id);
    afterPayoutDelay(() => decidePayout(payout));
    return reply.code(201).send(payoutView(payout));
  });

  app.get<{ Params: { id: string } }>('/v1/payouts/:id', async (request, reply) => {
    const payout = payouts.get(request.params.id);
    if (!payout) return reply.code(404).send({ error: 'not_found' });
    return payoutView(payout);
  });

  app.get<{ Querystring: Record<string, unknown> }>('/v1/payouts', async (request, reply) => {
    const { reference } = request.query;
    if (!isNonEmptyString(reference)) {
      return reply.code(400).send({ error: 'bad_request', message: 'the reference query parameter is required (1 to 255 characters)' });
    }
    return { payouts: [...payouts.values()].filter((payout) => payout.reference === reference).map(payoutView) };
  });

  events.registerListRoute(app);

  registerControlRoutes(app, (control) => {
    control.get('/_sandbox/accounts', () => ({
      requests: accountRequests,
      accounts: [...accounts.values()].map((account) => ({ ...account })),
    }));

    control.get('/_sandbox/transfers', () => ({
      transfers: [...transfers.values()].map((transfer) => ({ ...transfer })),
      returns: [...returnsByTransfer.values()].map((transferReturn) => ({ ...transferReturn })),
      return_requests: returnRequests,
    }));

    control.get('/_sandbox/payouts', () => ({
      requests: payoutRequests,
      payouts: [...payouts.values()].map((payout) => ({ ...payout })),
    }));

    events.registerControlRoutes(control);
  });

  return app;
}
