import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { ParameterObject, SchemaObject } from '@nestjs/swagger';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { AppConfig } from './config/app.config';
import { describeEventTypes } from './modules/events';

const TAGS = [
  { name: 'POBO businesses', description: 'Business customers a merchant pays on behalf of, and their agreement links' },
  { name: 'KYB onboarding', description: "A business's KYB application and its review by the verification provider" },
  { name: 'Payment intents', description: 'Naira collections: a dynamic virtual account per intent, matched transfers, confirmation' },
  {
    name: 'Collections',
    description: "A business's own Naira account: every transfer into it, credited to the merchant's balance once (or returned once the account was closed)",
  },
  { name: 'Balance', description: "The merchant's NGN balance and every change of it, from the double-entry ledger" },
  { name: 'Withdrawals', description: 'Payouts of the available balance to Nigerian bank accounts' },
  {
    name: 'International payment intents',
    description: 'Quotes, payments to recipients abroad settled through the bridge and payout rails, and their receipts',
  },
  {
    name: 'Vault',
    description:
      "A business's USDC wallets on ethereum, polygon, base and solana: balances, deposits credited once at each chain's confirmation count, transfers out",
  },
  {
    name: 'Events',
    description: 'Every change a merchant cares about, recorded with the change itself and kept 30 days: what a webhook sends, and a list to catch up from',
  },
  { name: 'Test helpers', description: 'Test keys only: make the sandbox third parties act, as real ones would' },
  {
    name: 'Dashboard: account',
    description:
      "The Merchant Dashboard's sign-up, login, sessions, passwords, e-mail verification and second factor: for the dashboard itself, with a session " +
      'cookie, never an API key',
  },
  { name: 'Dashboard: team', description: 'Members and their roles, invitations by e-mail, and the team settings (owners change them)' },
  { name: 'Dashboard: API keys', description: "The merchant's API keys: create, roll, revoke (owners and developers); the secret is shown once" },
  {
    name: 'Dashboard: money',
    description:
      "The merchant's balance, payment intents, withdrawals, quotes, international payment intents and the vaults, read with a session; owners confirm payments and withdraw",
  },
  {
    name: 'Dashboard: search',
    description:
      "One box for every object: the merchant's businesses, payments, withdrawals, international payments and vault transfers by id, reference, name, account number or amount",
  },
  { name: 'Dashboard: events', description: "The merchant's events and their payloads, read with a session; resending one to an endpoint" },
  {
    name: 'Dashboard: webhooks',
    description:
      "The merchant's webhook endpoints: create, change, rotate the secret, test, delete (owners and developers), their deliveries, and recovering what an endpoint missed",
  },
  { name: 'Dashboard: businesses', description: "The merchant's businesses, read with a session; owners issue fresh agreement links" },
  { name: 'Dashboard: test helpers', description: 'Test mode only: sandbox money for trying an integration from the dashboard' },
  { name: 'Dashboard: audit log', description: 'Every change made from the dashboard, and every login, with who, what, when and from where (owners)' },
  { name: 'Health', description: 'Liveness and readiness for orchestrators and load balancers; no key needed' },
];

/**
 * How class-validator rules the generic converters cannot know read in JSON Schema: the rule of
 * each decorator the request DTOs use is written once here, next to nothing else.
 */
type Converters = NonNullable<NonNullable<Parameters<typeof validationMetadatasToSchemas>[0]>['additionalConverters']>;

const CONVERTERS: Converters = {
  isISO31661Alpha2: { type: 'string', pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2' },
  isIso8601: { type: 'string', format: 'date' },
  isTimestamp: { type: 'string', format: 'date-time' },
  isTimeZone: { type: 'string', description: 'An IANA time zone, e.g. Africa/Lagos' },
  isUrl: { type: 'string', format: 'uri' },
  isPhoneNumber: {},
  isDisplayText: { description: 'Needs a visible character; no bidirectional control characters' },
  isNotFutureDate: { description: 'Not in the future' },
  // Its pattern is on the property already (see the KYB application's `OneOf`).
  isOneOfAnyCase: {},
  isMoneyAmount: { type: 'number', description: 'A positive amount in major units, at most 2 decimal places for NGN and 6 for USDC' },
  isMoneyAmountIn: { type: 'number', description: "A positive amount in major units of the body's `currency`, at most 2 decimal places" },
  isISO4217CurrencyCode: { type: 'string', pattern: '^[A-Za-z]{3}$', description: 'ISO 4217' },
  isBankCodeFor: {
    type: 'string',
    maxLength: 35,
    description: 'Checked against `bankCodeType`: BIC, IBAN (mod-97 and length), ABA routing number (checksum), or a local code',
  },
};

const DESCRIPTION = `Merchant API for POBO (pay-on-behalf-of) businesses (creation, the agreement link and KYB onboarding), for moving Naira (payment intents, the balance and withdrawals) and for paying recipients abroad on behalf of a verified business (quotes and international payment intents).

**Authentication**: the API key in \`x-api-key\` or as \`Authorization: Bearer\` (both may carry the same key; two different keys are a 401 \`conflicting_credentials\`). Test keys start \`mk_test_\`, live keys \`mk_live_\`.

**Errors**: every error body is \`{ message, error: { code, details }, requestId }\`; branch on \`error.code\` (each response lists its codes). Every answer carries \`X-Request-Id\`; merchant answers carry \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`.

**Onboarding a business**
1. \`POST /api/merchant/pobo/users\` creates it; \`response.agreement.url\` is its agreement link.
2. Send the link to the business. It opens an HTML page (no login), reads the terms and accepts them; the link then stops working. \`POST …/agreement-link\` issues a fresh link and voids the old one. After acceptance \`agreement.status\` is \`accepted\` and \`kyb.status\` \`not_started\`.
3. \`POST …/{poboUserId}/onboarding\` submits the KYB application (202, \`kyb.status\` \`processing\`).
4. Poll \`GET …/{poboUserId}/onboarding\` while \`kyb.status\` is \`processing\`: it ends \`verified\`, \`declined\` or \`action_required\` (then correct with \`PATCH …/onboarding\` or submit again).

**Sandbox** (test keys): the verification provider decides by the suffix of \`company.registration_number\`: \`-DECLINE\` → \`declined\`; \`-ACTION\` → \`action_required\` with a pending requirement, and a resubmission is then \`verified\`; \`-HOLD\` → stays \`processing\`; anything else → \`verified\`. A review takes about two seconds.

**Idempotency**: creating a payment intent, confirming one and creating a withdrawal need an \`Idempotency-Key\` (16 to 255 printable ASCII characters, unique per operation); other POSTs honour one when sent. A retry of the same request with the same key replays the first answer byte for byte with \`Idempotent-Replayed: true\`; the same key with other data is a 409 \`idempotency_key_reused\` (do not retry); while the first is still running, 423 \`idempotency_request_in_progress\` with \`Retry-After\`. A request refused by validation stores nothing, so it can be corrected and sent with the same key. Keys are kept 24 hours.

**Money**: \`amount\` is a JSON number in major units (NGN: at most 2 decimal places), stored as integer kobo. Every movement is a balanced double-entry transaction; the available balance never goes below zero.

**Collecting and paying out in the sandbox** (test keys)
1. \`POST /api/merchant/payment-intents\` gives a virtual account; \`POST /api/merchant/test-helpers/payment-intents/{id}/fund\` makes the sandbox rail send a transfer into it (any amount or sender: a mismatch is returned to the sender).
2. The intent shows \`funds_received\` within a second or two; \`POST …/{id}/confirm\` credits the balance.
3. \`POST /api/merchant/withdrawals\` pays out. At bank \`058\`, account \`0000000025\` fails (\`account_not_found\`), \`0000000032\` stays \`processing\`, \`0000000049\` succeeds and is then returned (\`failed\`, \`payout_returned\`); every other valid NUBAN succeeds.

**Paying a recipient abroad** (a verified business, an NGN balance)
1. \`POST /api/merchant/quotes\` prices the payment: one option per route (\`ngn\` or \`usdc\`) with its rate, fee and \`sourceAmount\` (fee included, rounded up to the kobo); a quote holds 15 minutes and pays for one intent.
2. \`POST /api/merchant/international-payment-intents\` with the quote, one of its options and the recipient reserves \`sourceAmount\` (Idempotency-Key required).
3. Poll \`GET /api/merchant/international-payment-intents/{intentId}\`: \`pending → processing → bridge_initiated → bridge_confirmed → withdrawal_initiated → withdrawal_confirmed → settled\`, or \`rejected\` with \`adminNote\` and the reservation returned. \`telexUrl\` (SWIFT recipients) appears at \`withdrawal_confirmed\`, \`receiptUrl\` at \`settled\`.
In the sandbox each leg takes about a second; a recipient account number (or IBAN) ending \`0000\` is rejected at \`processing\` by compliance screening, one ending \`9999\` fails at the payout leg after \`withdrawal_initiated\`.`;

/** Keywords of a validation rule, copied from the class-validator schema onto the document's property. */
const RULE_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'format', 'enum', 'minimum', 'maximum', 'minItems', 'maxItems', 'uniqueItems'] as const;

/** The operations of the rails' document; every other one is the merchants'. */
const RAIL_CALLBACKS_TAG = 'Rail callbacks';

const RAILS_DESCRIPTION = `The callbacks the bank, bridge and payout rails send to the service. Each request is signed: \`X-Rail-Signature: t=<unix seconds>,v1=<hex>\`, the HMAC-SHA256 of \`"<t>.<raw body>"\` with the rail's webhook secret; a request more than five minutes old, or whose no \`v1\` value verifies, is refused with 401. An event is acknowledged (200) once its effects are committed; an event id seen before is acknowledged again without effect, so a rail may deliver at least once.

This document is for the rails' operators. Merchants never call these operations; the merchant API's document is at \`/openapi.json\`.`;

export interface OpenApiDocuments {
  /** The merchant API: served at /openapi.json, linted in CI, merchants' clients are generated from it. */
  merchant: OpenAPIObject;
  /** The rails' callbacks, served apart at /openapi.rails.json so that no merchant SDK offers them. */
  rails: OpenAPIObject;
}

/** Both documents, from one description of the application split by audience. */
export function buildOpenApiDocuments(app: INestApplication, config: AppConfig): OpenApiDocuments {
  const whole = buildOpenApiDocument(app, config);
  const isRails = (item: object) => Object.values(item).some((operation: { tags?: string[] }) => operation.tags?.includes(RAIL_CALLBACKS_TAG));
  const merchant = only(whole, (item) => !isRails(item));
  const rails = only(whole, isRails);
  rails.info = { ...rails.info, title: 'Merchant Payments API: rail callbacks', description: RAILS_DESCRIPTION };
  rails.tags = [{ name: RAIL_CALLBACKS_TAG, description: 'Signed callbacks of the bank, bridge and payout rails' }];
  delete rails.components?.securitySchemes;
  return { merchant, rails };
}

/** `document` with the paths `keep` accepts and only the components those paths reach. */
function only(document: OpenAPIObject, keep: (item: object) => boolean): OpenAPIObject {
  const paths = Object.fromEntries(Object.entries(document.paths).filter(([, item]) => keep(item)));
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  const reached = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
        const name = child.slice('#/components/schemas/'.length);
        if (!reached.has(name)) {
          reached.add(name);
          visit(schemas[name]);
        }
      } else visit(child);
    }
  };
  visit(paths);
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name)));
  return { ...document, paths, components: { ...document.components, schemas: kept as never } };
}

function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Merchant Payments API')
      .setDescription(DESCRIPTION)
      .setVersion('1.0.0')
      .setLicense('Proprietary', `${config.publicBaseUrl}/docs`)
      .addServer(config.publicBaseUrl)
      .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The API key, `mk_test_…` or `mk_live_…`' }, 'MerchantApiKey')
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'The API key as a bearer token' }, 'MerchantBearer')
      .addCookieAuth(
        'dashboard_session',
        {
          type: 'apiKey',
          in: 'cookie',
          name: 'dashboard_session',
          description:
            'A Merchant Dashboard session, set by sign-up and login (`__Host-dashboard_session` over HTTPS); unsafe requests also send its `X-CSRF-Token`',
        },
        'DashboardSession',
      )
      .build(),
    // Every operation names its tag (`Operation`), one per caller: a controller's name is no tag.
    { autoTagControllers: false },
  );
  document.tags = TAGS;
  for (const path of Object.values(document.paths)) {
    for (const operation of [path.get, path.post, path.put, path.patch, path.delete]) {
      // Public operations say so explicitly rather than by leaving security out.
      if (operation && !operation.security) operation.security = [];
    }
  }
  applyValidationRules(document);
  describeEventTypes(document);
  return document;
}

/**
 * Every rule the validation pipe enforces is in the schemas: class-validator's metadata, turned
 * into JSON Schema by `class-validator-jsonschema`, is merged into the schemas Nest generated
 * from the same classes. Request objects refuse unknown fields, as the pipe does. A default is a
 * description, not a `default`: generators read `default` as "always present".
 */
function applyValidationRules(document: OpenAPIObject): void {
  const rules = validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/', additionalConverters: CONVERTERS }) as Record<string, SchemaObject>;
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  for (const [name, target] of Object.entries(schemas)) {
    const rule = rules[name];
    if (!rule?.properties) continue;
    target.additionalProperties = false;
    if (rule.required?.length) target.required = rule.required;
    else delete target.required;
    for (const [property, ruleProperty] of Object.entries(rule.properties)) {
      const targetProperty = target.properties?.[property] as SchemaObject | undefined;
      if (targetProperty) mergeRule(targetProperty, ruleProperty as SchemaObject);
    }
  }
  for (const path of Object.values(document.paths)) {
    for (const operation of [path.get, path.post, path.put, path.patch, path.delete]) {
      for (const parameter of (operation?.parameters ?? []) as ParameterObject[]) {
        if (parameter.in !== 'query' || !parameter.schema) continue;
        const rule = Object.entries(rules).find(([name, schema]) => name.endsWith('Query') && schema.properties?.[parameter.name])?.[1];
        if (rule) mergeRule(parameter.schema as SchemaObject, rule.properties![parameter.name] as SchemaObject);
      }
    }
  }
}

function mergeRule(target: SchemaObject, rule: SchemaObject): void {
  if (rule.type === 'integer') target.type = 'integer';
  for (const keyword of RULE_KEYWORDS) if (rule[keyword] !== undefined) (target as Record<string, unknown>)[keyword] = rule[keyword];
  if (rule.description && !target.description?.includes(rule.description))
    target.description = [target.description, rule.description].filter(Boolean).join('. ');
  if (target.default !== undefined) {
    target.description = [target.description, `Default: \`${JSON.stringify(target.default)}\``].filter(Boolean).join('. ');
    delete target.default;
  }
  const ruleItems = rule.items as SchemaObject | undefined;
  const targetItems = target.items as SchemaObject | undefined;
  if (ruleItems && targetItems && !('$ref' in ruleItems) && !('$ref' in targetItems)) mergeRule(targetItems, ruleItems);
}
