import { randomBytes, randomInt } from 'node:crypto';
import { fastify, FastifyInstance } from 'fastify';
import { installSandboxCommon } from '../common/faults';
import { isNonEmptyString, isRecord, requireIdempotencyKey, ValidationIssue } from '../common/validation';

/** Sandbox bank rail: opens NGN virtual accounts. See sandbox/README.md for the API. */

export interface BankRailServerOptions {
  apiKey: string;
  logger?: boolean;
}

export const SANDBOX_BANK_NAME = 'Sandbox Microfinance Bank';

export interface VirtualAccountView {
  id: string;
  reference: string;
  account_number: string;
  bank_name: string;
  currency: 'NGN';
  status: 'active';
  created_at: string;
}

interface StoredAccount extends VirtualAccountView {
  account_name: string;
  idempotency_key: string;
}

interface ValidRequest {
  reference: string;
  accountName: string;
}

function validateRequest(body: unknown): { value: ValidRequest } | { issues: ValidationIssue[] } {
  if (!isRecord(body)) return { issues: [{ field: '(body)', message: 'must be a JSON object' }] };
  const issues: ValidationIssue[] = [];
  const { reference, account_name, currency } = body;
  if (!isNonEmptyString(reference)) issues.push({ field: 'reference', message: 'is required: a non-empty string of at most 255 characters' });
  if (!isNonEmptyString(account_name)) issues.push({ field: 'account_name', message: 'is required: a non-empty string of at most 255 characters' });
  if (currency !== 'NGN') issues.push({ field: 'currency', message: 'must be "NGN"' });
  if (issues.length > 0) return { issues };
  return { value: { reference: reference as string, accountName: account_name as string } };
}

export function createBankRailServer(options: BankRailServerOptions): FastifyInstance {
  const app = fastify({ logger: options.logger ?? false });

  const accounts = new Map<string, StoredAccount>();
  const byIdempotencyKey = new Map<string, string>();
  const accountNumbers = new Set<string>();
  let requests = 0;

  installSandboxCommon(app, {
    apiKey: options.apiKey,
    onReset: () => {
      accounts.clear();
      byIdempotencyKey.clear();
      accountNumbers.clear();
      requests = 0;
    },
  });

  const newAccountNumber = (): string => {
    for (;;) {
      const candidate = randomInt(0, 10_000_000_000).toString().padStart(10, '0');
      if (!accountNumbers.has(candidate)) {
        accountNumbers.add(candidate);
        return candidate;
      }
    }
  };

  const view = ({ id, reference, account_number, bank_name, currency, status, created_at }: StoredAccount): VirtualAccountView => ({
    id,
    reference,
    account_number,
    bank_name,
    currency,
    status,
    created_at,
  });

  app.post('/v1/virtual-accounts', async (request, reply) => {
    const idempotencyKey = requireIdempotencyKey(request, reply);
    if (idempotencyKey === undefined) return reply;
    const result = validateRequest(request.body);
    if ('issues' in result) return reply.code(422).send({ error: 'invalid_request', details: result.issues });

    requests += 1;
    // Lookup and insert run in one synchronous step, so concurrent retries cannot both create.
    const existingId = byIdempotencyKey.get(idempotencyKey);
    const existing = existingId === undefined ? undefined : accounts.get(existingId);
    if (existing) return reply.code(200).header('idempotent-replayed', 'true').send(view(existing));

    const account: StoredAccount = {
      id: `va_${randomBytes(12).toString('hex')}`,
      reference: result.value.reference,
      account_number: newAccountNumber(),
      bank_name: SANDBOX_BANK_NAME,
      currency: 'NGN',
      status: 'active',
      created_at: new Date().toISOString(),
      account_name: result.value.accountName,
      idempotency_key: idempotencyKey,
    };
    accounts.set(account.id, account);
    byIdempotencyKey.set(idempotencyKey, account.id);
    return reply.code(201).send(view(account));
  });

  app.get<{ Params: { id: string } }>('/v1/virtual-accounts/:id', async (request, reply) => {
    const account = accounts.get(request.params.id);
    if (!account) return reply.code(404).send({ error: 'not_found' });
    return view(account);
  });

  app.get('/_sandbox/accounts', () => ({
    requests,
    accounts: [...accounts.values()].map((account) => ({ ...view(account), account_name: account.account_name, idempotency_key: account.idempotency_key })),
  }));

  return app;
}
