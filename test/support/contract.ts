/** Field-by-field checks of the business object, the success envelope and the error body, as docs/api.md describes them. */

const KYB = ['agreement_pending', 'not_started', 'processing', 'action_required', 'verified', 'declined'];
const NAIRA = ['not_requested', 'pending', 'active', 'failed'];
const AGREEMENT = ['pending', 'accepted'];
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export function expectDateTime(value: unknown): void {
  expect(typeof value).toBe('string');
  expect(value).toMatch(ISO_DATE_TIME);
  expect(Number.isNaN(Date.parse(value as string))).toBe(false);
}

export function expectPoboBusiness(business: any, options: { withAgreementUrl: boolean }): void {
  const allowed = [
    'poboUserId',
    'businessName',
    'country',
    'allowNairaCollection',
    'nairaCollectionStatus',
    'nairaAccount',
    'wallets',
    'agreement',
    'kyb',
    'createdAt',
    'updatedAt',
  ];
  expect(Object.keys(business).sort()).toEqual([...allowed].sort());
  expect(typeof business.poboUserId).toBe('string');
  expect(typeof business.businessName).toBe('string');
  expect(typeof business.country).toBe('string');
  expect(typeof business.allowNairaCollection).toBe('boolean');
  expect(NAIRA).toContain(business.nairaCollectionStatus);
  // The account's details exactly while collection is active.
  if (business.nairaCollectionStatus === 'active') {
    expect(Object.keys(business.nairaAccount).sort()).toEqual(['accountName', 'accountNumber', 'bankCode', 'bankName']);
    expect(business.nairaAccount.accountNumber).toMatch(/^\d{10}$/);
  } else {
    expect(business.nairaAccount).toBeNull();
  }
  expect(Object.keys(business.wallets).sort()).toEqual(['evm', 'svm']);
  expect(business.wallets.evm.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  expect(business.wallets.svm.address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  expect(AGREEMENT).toContain(business.agreement.status);
  if (options.withAgreementUrl) {
    expect(Object.keys(business.agreement).sort()).toEqual(['status', 'url']);
    expect(() => new URL(business.agreement.url)).not.toThrow();
  } else {
    expect(Object.keys(business.agreement)).toEqual(['status']);
  }
  expect(Object.keys(business.kyb).sort()).toEqual(['lastSyncedAt', 'pendingRequirements', 'status']);
  expect(KYB).toContain(business.kyb.status);
  expect(Array.isArray(business.kyb.pendingRequirements)).toBe(true);
  if (business.kyb.lastSyncedAt !== null) expectDateTime(business.kyb.lastSyncedAt);
  expectDateTime(business.createdAt);
  expectDateTime(business.updatedAt);
}

export function expectEnvelope(body: any, kind: 'object' | 'array'): void {
  expect(Object.keys(body).sort()).toEqual(['message', 'response']);
  expect(typeof body.message).toBe('string');
  if (kind === 'array') expect(Array.isArray(body.response)).toBe(true);
  else expect(typeof body.response === 'object' && !Array.isArray(body.response)).toBe(true);
}

export function expectErrorBody(result: { status: number; headers: Headers; body: any }, status: number, code: string): void {
  expect(result.status).toBe(status);
  expect(Object.keys(result.body).sort()).toEqual(['error', 'message', 'requestId']);
  expect(typeof result.body.message).toBe('string');
  expect(result.body.error.code).toBe(code);
  expect(Array.isArray(result.body.error.details)).toBe(true);
  expect(result.body.requestId).toMatch(/^req_[0-9a-f]{32}$/);
  expect(result.headers.get('x-request-id')).toBe(result.body.requestId);
}

const INTERNATIONAL_STATUSES = [
  'pending',
  'processing',
  'bridge_initiated',
  'bridge_confirmed',
  'withdrawal_initiated',
  'withdrawal_confirmed',
  'settled',
  'rejected',
];

/**
 * The seed's InternationalPaymentIntent table, field by field: the required ones present with
 * their types, enums and formats, the optional ones absent or well-formed, the nullable
 * date-times null or ISO; and no keys beyond the table's and the three the contract adds.
 */
export function expectInternationalIntent(intent: any): void {
  const seedFields = [
    'intentId',
    'status',
    'quoteId',
    'quoteOptionId',
    'paymentReference',
    'routeType',
    'destinationCountry',
    'amount',
    'currency',
    'recipientFullName',
    'recipientEmail',
    'bankCode',
    'bankCodeType',
    'accountNumber',
    'purposeOfTransfer',
    'adminNote',
    'quoteExpiresAt',
    'processedAt',
    'settledAt',
    'receiptUrl',
    'telexUrl',
    'createdAt',
    'updatedAt',
  ];
  const extras = ['poboUserId', 'sourceAmount', 'sourceCurrency'];
  for (const key of Object.keys(intent)) expect([...seedFields, ...extras]).toContain(key);
  for (const key of ['intentId', 'status', 'quoteId', 'quoteOptionId', 'destinationCountry', 'amount', 'currency', 'createdAt', 'updatedAt', ...extras]) {
    expect(intent).toHaveProperty(key);
  }
  for (const key of ['intentId', 'quoteId', 'quoteOptionId', 'destinationCountry', 'currency', 'poboUserId', 'sourceCurrency'])
    expect(typeof intent[key]).toBe('string');
  expect(INTERNATIONAL_STATUSES).toContain(intent.status);
  expect(typeof intent.amount).toBe('number');
  expect(typeof intent.sourceAmount).toBe('number');
  for (const key of ['paymentReference', 'recipientFullName', 'bankCode', 'accountNumber', 'purposeOfTransfer', 'adminNote']) {
    if (key in intent) expect(typeof intent[key]).toBe('string');
  }
  if ('routeType' in intent) expect(['ngn', 'usdc']).toContain(intent.routeType);
  if ('bankCodeType' in intent) expect(['swift', 'iban', 'routing_number', 'other']).toContain(intent.bankCodeType);
  if ('recipientEmail' in intent) expect(intent.recipientEmail).toMatch(/^[^@\s]+@[^@\s]+\.[^@\s]+$/);
  for (const key of ['quoteExpiresAt', 'processedAt', 'settledAt']) {
    if (key in intent && intent[key] !== null) expectDateTime(intent[key]);
  }
  for (const key of ['receiptUrl', 'telexUrl']) {
    if (key in intent) expect(() => new URL(intent[key])).not.toThrow();
  }
  expectDateTime(intent.createdAt);
  expectDateTime(intent.updatedAt);
}
