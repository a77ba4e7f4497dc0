import { AGREEMENT_STATES, KYB_STATES, NAIRA_COLLECTION_STATES } from '../pobo-business.states';

/**
 * JSON Schema of the one-business success envelope, given to Fastify as the response schema of
 * the hot single-business routes: it serialises with a compiled serializer instead of
 * JSON.stringify. It mirrors the documented business object (and `PoboBusinessDto`, which
 * documents it in OpenAPI). The list has no response schema on purpose: for a page of 100 the
 * compiled serializer costs the same CPU as JSON.stringify but concatenates ~180 KB of
 * intermediate strings where JSON.stringify writes one, and under load that garbage is what
 * survives into the old generation (higher p99 and RSS).
 */
const address = { type: 'object', required: ['address'], properties: { address: { type: 'string' } } } as const;

export const POBO_BUSINESS_JSON_SCHEMA = {
  type: 'object',
  required: [
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
  ],
  properties: {
    poboUserId: { type: 'string' },
    businessName: { type: 'string' },
    country: { type: 'string' },
    allowNairaCollection: { type: 'boolean' },
    nairaCollectionStatus: { type: 'string', enum: [...NAIRA_COLLECTION_STATES.states] },
    nairaAccount: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['accountNumber', 'accountName', 'bankName', 'bankCode'],
          properties: { accountNumber: { type: 'string' }, accountName: { type: 'string' }, bankName: { type: 'string' }, bankCode: { type: 'string' } },
        },
      ],
    },
    wallets: { type: 'object', required: ['evm', 'svm'], properties: { evm: address, svm: address } },
    agreement: {
      type: 'object',
      required: ['status'],
      properties: { status: { type: 'string', enum: [...AGREEMENT_STATES.states] }, url: { type: 'string' } },
    },
    kyb: {
      type: 'object',
      required: ['status', 'pendingRequirements', 'lastSyncedAt'],
      properties: {
        status: { type: 'string', enum: [...KYB_STATES.states] },
        pendingRequirements: {
          type: 'array',
          items: {
            type: 'object',
            required: ['code', 'field', 'message'],
            properties: { code: { type: 'string' }, field: { type: 'string' }, message: { type: 'string' } },
          },
        },
        lastSyncedAt: { type: ['string', 'null'] },
      },
    },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
} as const;

export const POBO_BUSINESS_RESPONSE = {
  response: {
    200: { type: 'object', required: ['message', 'response'], properties: { message: { type: 'string' }, response: POBO_BUSINESS_JSON_SCHEMA } },
  },
};
