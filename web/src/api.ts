/** What the service answers when it refuses: its message, its stable code, and the request id to quote. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    readonly details: { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

/** A page of a list: its items, and the cursor of the next page when there is one. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

let csrfToken = '';

/** The session's CSRF token, from the answers that carry it (sign-up, login, `me`). */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

async function call<T>(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<{ data: T; headers: Headers }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  const text = await response.text();
  const parsed = text
    ? (JSON.parse(text) as { response?: T; message?: string; error?: { code: string; details?: { field: string; message: string }[] }; requestId?: string })
    : {};
  if (!response.ok) {
    throw new ApiError(
      response.status,
      parsed.error?.code ?? 'unknown',
      parsed.message ?? `The service answered ${response.status}`,
      parsed.requestId ?? response.headers.get('x-request-id') ?? undefined,
      parsed.error?.details ?? [],
    );
  }
  return { data: parsed.response as T, headers: response.headers };
}

/** The dashboard's own endpoints: the session cookie goes with every call, and the CSRF token with every change. */
export const api = {
  get: async <T>(path: string): Promise<T> => (await call<T>('GET', `/api/dashboard${path}`)).data,
  post: async <T>(path: string, body?: unknown): Promise<T> => (await call<T>('POST', `/api/dashboard${path}`, body)).data,
  /**
   * A money-moving change, with the Idempotency-Key of this one operation: sent twice (a double
   * click, a retry after a lost answer), it happens once and answers the same.
   */
  postOnce: async <T>(path: string, body: unknown, idempotencyKey: string): Promise<T> =>
    (await call<T>('POST', `/api/dashboard${path}`, body, idempotencyKey)).data,
  put: async <T>(path: string, body?: unknown): Promise<T> => (await call<T>('PUT', `/api/dashboard${path}`, body)).data,
  patch: async <T>(path: string, body?: unknown): Promise<T> => (await call<T>('PATCH', `/api/dashboard${path}`, body)).data,
  delete: async <T>(path: string, body?: unknown): Promise<T> => (await call<T>('DELETE', `/api/dashboard${path}`, body)).data,
  /** A page of a list, `query` carrying the filters and the cursor; the next cursor comes from the `Link` header. */
  page: async <T>(path: string, query: URLSearchParams): Promise<Page<T>> => {
    const search = query.toString();
    const { data, headers } = await call<T[]>('GET', `/api/dashboard${path}${search ? `?${search}` : ''}`);
    const next = /<([^>]+)>;\s*rel="next"/.exec(headers.get('link') ?? '')?.[1];
    return { items: data, nextCursor: next ? (new URL(next).searchParams.get('cursor') ?? undefined) : undefined };
  },
};

export interface Account {
  user: { userId: string; email: string; role: 'owner' | 'developer' | 'viewer'; emailVerified: boolean; twoFactorEnabled: boolean };
  /** `mode`: the service's keys are test keys (sandbox money only): the test helpers are offered. */
  merchant: { merchantId: string; name: string; mode: 'test' | 'live' };
  csrfToken: string;
}

export type ApiKeyPermission = 'read' | 'write' | 'move_money';

export interface ApiKey {
  apiKeyId: string;
  name: string;
  prefix: string;
  lastFour: string;
  permissions: ApiKeyPermission[];
  status: 'active' | 'expiring' | 'expired' | 'revoked';
  createdBy: { userId: string; email: string } | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface IssuedApiKey extends ApiKey {
  apiKey: string;
}

export interface Member {
  userId: string;
  email: string;
  role: string;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  createdAt: string;
}

export interface Invitation {
  invitationId: string;
  email: string;
  role: string;
  invitedBy: string;
  status: 'pending' | 'accepted' | 'revoked' | 'expired';
  createdAt: string;
  expiresAt: string;
}

export interface Session {
  sessionId: string;
  current: boolean;
  ip: string;
  userAgent: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

export interface AuditEntry {
  auditEntryId: string;
  action: string;
  objectId: string | null;
  user: { userId: string | null; email: string | null } | null;
  ip: string;
  details: Record<string, unknown>;
  createdAt: string;
}

export interface Balance {
  currency: string;
  available: number;
  reserved: number;
}

export interface BalanceTransaction {
  balanceTransactionId: string;
  type: string;
  amount: number;
  currency: string;
  sourceId: string;
  poboUserId: string | null;
  createdAt: string;
}

export interface Business {
  poboUserId: string;
  businessName: string;
  country: string;
  allowNairaCollection: boolean;
  nairaCollectionStatus: string;
  nairaAccount: { accountNumber: string; accountName: string; bankName: string; bankCode: string } | null;
  wallets: { evm: { address: string }; svm: { address: string } };
  agreement: { status: string; url?: string };
  kyb: { status: string; pendingRequirements: { code: string; field: string; message: string }[]; lastSyncedAt: string | null };
  createdAt: string;
  updatedAt: string;
}

export interface PaymentIntent {
  paymentIntentId: string;
  merchantReference: string;
  amount: number;
  currency: string;
  status: string;
  amountReceived: number;
  virtualAccount: { accountNumber: string; accountName: string; bankName: string; bankCode: string };
  payments: {
    paymentId: string;
    amount: number;
    senderBankName: string;
    senderAccountNumber: string;
    status: string;
    returnReason: string | null;
    receivedAt: string;
  }[];
  expiresAt: string;
  fundedAt: string | null;
  confirmedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Withdrawal {
  withdrawalId: string;
  merchantReference: string;
  amount: number;
  fee: number;
  currency: string;
  status: string;
  bankCode: string;
  accountNumber: string;
  accountName: string;
  failureMessage: string | null;
  createdAt: string;
  completedAt: string | null;
}

export interface InternationalIntent {
  intentId: string;
  status: string;
  quoteId: string;
  quoteOptionId: string;
  poboUserId: string;
  paymentReference?: string;
  amount: number;
  currency: string;
  sourceAmount: number;
  sourceCurrency: string;
  recipientFullName: string;
  recipientEmail?: string;
  destinationCountry: string;
  bankCode: string;
  bankCodeType: string;
  accountNumber?: string;
  purposeOfTransfer: string;
  routeType: string;
  adminNote?: string;
  processedAt: string | null;
  settledAt: string | null;
  receiptUrl?: string;
  telexUrl?: string;
  createdAt: string;
  updatedAt: string;
}

/** One move of an international payment intent through the pipeline. */
export interface TimelineEntry {
  status: string;
  previousStatus: string;
  cause: string;
  at: string;
}

export interface Quote {
  quoteId: string;
  poboUserId: string;
  destinationCountry: string;
  currency: string;
  amount: number;
  expiresAt: string;
  options: { quoteOptionId: string; routeType: string; sourceCurrency: string; sourceAmount: number; exchangeRate: string; fee: number }[];
  createdAt: string;
}

export interface TestTransfer {
  transferId: string;
  paymentIntentId: string;
  amount: number;
}

export interface Vault {
  poboUserId: string;
  wallets: { chain: string; address: string }[];
  balances: { chain: string; asset: string; available: number; pending: number }[];
}

export interface VaultTransaction {
  vaultTransactionId: string;
  direction: 'deposit' | 'transfer';
  chain: string;
  asset: string;
  amount: number;
  networkFee: number;
  fromAddress: string | null;
  toAddress: string;
  txHash: string | null;
  confirmations: number;
  status: string;
  merchantReference: string | null;
  createdAt: string;
  confirmedAt: string | null;
}

export interface VaultTransfer {
  vaultTransferId: string;
  chain: string;
  amount: number;
  networkFee: number;
  toAddress: string;
  merchantReference: string;
  status: string;
  failureReason: string | null;
}
