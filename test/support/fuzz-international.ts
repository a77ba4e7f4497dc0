import fc from 'fast-check';
import { signRailPayload } from '../../sandbox/common/callbacks';
import { DEV_BANK_RAIL_WEBHOOK_SECRET, DEV_BRIDGE_RAIL_WEBHOOK_SECRET, DEV_PAYOUT_RAIL_WEBHOOK_SECRET } from '../../src/config/dev-secrets';
import { nastyString, oddPathSegment, RawResponse } from './fuzz';
import { keyValue, moneyPathSegment, moneyQuery } from './fuzz-money';

/**
 * Building blocks of the international routes' fuzzing: corridors and recipients a valid body is
 * built from, ids, cursors and receipt tokens near the real ones, and signatures for the
 * cross-border rails' callbacks (valid, stale, of another rail, of other bytes, garbage).
 */

/** A quote's destination: the served corridors (mostly), written as clients write them, and some no route serves. */
export const corridor: fc.Arbitrary<{ destinationCountry: string; currency: string; amount: number }> = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      { destinationCountry: 'US', currency: 'USD', amount: 100 },
      { destinationCountry: 'GB', currency: 'GBP', amount: 75.5 },
      { destinationCountry: 'DE', currency: 'EUR', amount: 80 },
      { destinationCountry: 'FR', currency: 'EUR', amount: 0.01 },
      { destinationCountry: 'GH', currency: 'GHS', amount: 1500 },
      { destinationCountry: 'KE', currency: 'KES', amount: 12_000.99 },
    ),
    weight: 8,
  },
  {
    arbitrary: fc.constantFrom(
      { destinationCountry: 'us', currency: 'usd', amount: 100 },
      { destinationCountry: ' US ', currency: ' USD ', amount: 100 },
      { destinationCountry: 'JP', currency: 'JPY', amount: 1000 },
      { destinationCountry: 'JP', currency: 'JPY', amount: 10.5 },
      { destinationCountry: 'US', currency: 'EUR', amount: 100 },
      { destinationCountry: 'NG', currency: 'NGN', amount: 100 },
      { destinationCountry: 'XK', currency: 'EUR', amount: 100 },
      { destinationCountry: 'US', currency: 'USD', amount: 99_999_999_999.99 },
      { destinationCountry: 'KE', currency: 'KES', amount: 100_000_000_000 },
    ),
    weight: 2,
  },
);

/**
 * A recipient's bank fields: SWIFT (settles, with a telex), IBAN (settles), ABA routing number,
 * another local code, and the sandboxes' fixed outcomes (compliance rejection for an account
 * ending 0000, a closed account for an IBAN ending 9999).
 */
export const RECIPIENTS: readonly Record<string, string | undefined>[] = [
  { bankCodeType: 'swift', bankCode: 'CHASUS33', accountNumber: '000123456789' },
  { bankCodeType: 'swift', bankCode: 'chas us33 xxx', accountNumber: '000123456789' },
  { bankCodeType: 'iban', bankCode: 'DE89 3704 0044 0532 0130 00', accountNumber: undefined },
  { bankCodeType: 'routing_number', bankCode: '021000021', accountNumber: '123456789' },
  { bankCodeType: 'other', bankCode: 'GH-030100', accountNumber: 'A1B2C3' },
  { bankCodeType: 'swift', bankCode: 'CHASUS33', accountNumber: '000123450000' },
  { bankCodeType: 'iban', bankCode: 'DE41100100100000009999', accountNumber: undefined },
];

/** Path ids of the international routes: the money routes' odd ones, and near misses of `qt_`/`qo_`/`ipi_` ids. */
export const internationalPathSegment: fc.Arbitrary<string> = fc.oneof(
  moneyPathSegment,
  fc.constantFrom(
    'qt_000000000000000000000000',
    'qo_000000000000000000000000',
    'ipi_000000000000000000000000',
    'qt_',
    'ipi_',
    'ipi',
    'QT_0123456789abcdef01234567',
    'ipi_0123456789ABCDEF01234567',
    'ipi_0123456789abcdef0123456',
    'ipi_0123456789abcdef012345678',
    'qt_0123456789abcdef0123456g',
    'qt_0123456789abcdef0123456%00',
    'ipi_0123456789abcdef012345%ff',
    'ipi_0123456789abcdef01234567%20',
    '%71t_000000000000000000000000',
    `qt_${'0'.repeat(500)}`,
    `ipi_${'f'.repeat(5_000)}`,
  ),
);

/** A list's query string: the money routes' odd ones, and cursors of the other id types. */
export const internationalQuery: fc.Arbitrary<string> = fc.oneof(
  moneyQuery,
  fc.constantFrom(
    'cursor=ipi_000000000000000000000000',
    'cursor=qt_000000000000000000000000',
    'cursor=IPI_000000000000000000000000',
    'cursor=ipi_0123456789abcdef0123456',
    'cursor[]=ipi_000000000000000000000000',
    'status=settled',
    'currency=USD',
    'poboUserId=pobo_000000000000000000000000',
  ),
);

/** A receipt token near `token`: one character changed, dropped, added or percent-encoded, its case flipped, padded. */
export function nearToken(token: string): fc.Arbitrary<string> {
  const at = fc.nat(token.length - 1);
  const swap = (s: string, i: number, c: string) => `${s.slice(0, i)}${c}${s.slice(i + 1)}`;
  return fc.oneof(
    fc.tuple(at, fc.constantFrom('A', 'z', '0', '-', '_')).map(([i, c]) => swap(token, i, c === token[i] ? (c === 'A' ? 'B' : 'A') : c)),
    at.map((i) => `${token.slice(0, i)}${token.slice(i + 1)}`),
    fc.tuple(at, fc.constantFrom('a', '-', '=', '%00', '%20', '%ff', '.')).map(([i, c]) => `${token.slice(0, i)}${c}${token.slice(i)}`),
    // The same token with one character percent-encoded: the same receipt.
    at.map((i) => swap(token, i, `%${token.charCodeAt(i).toString(16).toUpperCase()}`)),
    fc.constantFrom(
      token.toUpperCase(),
      token.toLowerCase(),
      `${token}=`,
      `${token}==`,
      `${token}%20`,
      `%20${token}`,
      `${token}.html`,
      `${token};x=1`,
      token.repeat(2),
    ),
  );
}

/** A token that has a receipt token's shape (22 base64url characters) and names no payment, or other odd segments. */
export const receiptSegment: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 22, maxLength: 22 }),
  oddPathSegment,
  internationalPathSegment,
);

/** What follows the token: the receipt, the telex, or paths near them that no route serves. */
export const receiptPage = fc.oneof(
  { arbitrary: fc.constantFrom('', '/telex'), weight: 6 },
  { arbitrary: fc.constantFrom('/', '/telex/', '/TELEX', '/telex/x', '/receipt', '/..', '/%2e%2e', '//telex', '/telex%00', '/tel%65x'), weight: 1 },
);

/**
 * A path answered by a receipt route itself (one token segment, the receipt or the telex, which
 * the router also finds percent-encoded): its 404 is a page. Other paths under `/receipts/` are no
 * route's: the API's JSON 404.
 */
export const isReceiptRoute = (path: string) => /^\/receipts\/[^/?]+(\/(telex|tel%65x))?(\?|$)/.test(path);

/** What is wrong with an answer of a receipt route beyond the contract: a page that is not HTML, a 200 for no payment. */
export function receiptViolation(res: RawResponse, routed: boolean, real: boolean): string | null {
  const type = String(res.headers['content-type'] ?? '');
  if (res.status === 200 && !real) return 'a receipt for a token that names no payment';
  if (routed && (res.status === 200 || res.status === 404) && !(type.startsWith('text/html') && res.text.startsWith('<!doctype html>')))
    return `a ${res.status} that is not an HTML page: ${type}`;
  return null;
}

export type Rail = 'bridge' | 'payout';
export const RAIL_SECRET: Record<Rail | 'bank', string> = {
  bridge: DEV_BRIDGE_RAIL_WEBHOOK_SECRET,
  payout: DEV_PAYOUT_RAIL_WEBHOOK_SECRET,
  bank: DEV_BANK_RAIL_WEBHOOK_SECRET,
};

/**
 * The `X-Rail-Signature` of a callback: `valid` signs these bytes now with the rail's secret, and
 * `reshaped` writes that signature otherwise (parts swapped, padded, repeated: still valid);
 * `stale`/`future` outside the five minutes; `other-rail` with another rail's secret; `other-bytes`
 * over other bytes; `absent`; `mangled` a valid one broken (case, length, separators, names);
 * `values` garbage header lines.
 */
export type SignaturePlan =
  | { kind: 'valid' | 'other-rail' | 'other-bytes' | 'absent' }
  | { kind: 'stale' | 'future'; seconds: number }
  | { kind: 'reshaped' | 'mangled'; shape: number }
  | { kind: 'values'; values: string[] };

export const signaturePlan: fc.Arbitrary<SignaturePlan> = fc.oneof(
  { arbitrary: fc.constant<SignaturePlan>({ kind: 'valid' }), weight: 10 },
  { arbitrary: fc.constantFrom<SignaturePlan>({ kind: 'other-rail' }, { kind: 'other-bytes' }, { kind: 'absent' }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constantFrom<'stale' | 'future'>('stale', 'future'), seconds: fc.integer({ min: 301, max: 10_000_000 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constantFrom<'reshaped' | 'mangled'>('reshaped', 'mangled', 'mangled'), shape: fc.nat(20) }), weight: 3 },
  { arbitrary: fc.array(keyValue, { minLength: 1, maxLength: 2 }).map((values): SignaturePlan => ({ kind: 'values', values })), weight: 2 },
);

/** Whether the app must take the signature of this plan: only then may a callback be acknowledged. */
export const signatureHolds = (plan: SignaturePlan) => plan.kind === 'valid' || plan.kind === 'reshaped';

/** The header lines of a signature plan for `bytes` posted to `rail`. */
export function signatureHeader(plan: SignaturePlan, rail: Rail, bytes: Buffer | undefined): Record<string, string | string[]> {
  const body = bytes?.toString() ?? '';
  const now = Math.floor(Date.now() / 1000);
  const sign = (secret: string, t: number, text = body) => signRailPayload(secret, t, text);
  switch (plan.kind) {
    case 'valid':
      return { 'x-rail-signature': sign(RAIL_SECRET[rail], now) };
    case 'other-rail':
      return { 'x-rail-signature': sign(RAIL_SECRET[rail === 'bridge' ? 'payout' : 'bank'], now) };
    case 'other-bytes':
      return { 'x-rail-signature': sign(RAIL_SECRET[rail], now, `${body} `) };
    case 'absent':
      return {};
    case 'stale':
    case 'future':
      return { 'x-rail-signature': sign(RAIL_SECRET[rail], plan.kind === 'stale' ? now - plan.seconds : now + plan.seconds) };
    case 'reshaped':
    case 'mangled': {
      const valid = sign(RAIL_SECRET[rail], now);
      const [t, v1] = valid.split(',');
      const shapes =
        plan.kind === 'reshaped'
          ? [`${v1},${t}`, `${t} , ${v1}`, `${t},\t${v1}`, `${t},${v1},${t}`, `${t},${v1},v0=00`]
          : [
              valid.toUpperCase(),
              `${t},v1=${v1.slice(3).toUpperCase()}`,
              `${t},${v1}00`,
              `${t},v1=${v1.slice(3, 66)}`,
              `t=${now}.5,${v1}`,
              `t=-${now},${v1}`,
              `t=0x${now.toString(16)},${v1}`,
              `${t},v0=${v1.slice(3)}`,
              `${t};${v1}`,
              `t=${'9'.repeat(13)},${v1}`,
              `${t},v1=${'0'.repeat(64)}`,
              `${t}`,
              `${v1}`,
              't=,v1=',
              ',,,',
            ];
      return { 'x-rail-signature': shapes[plan.shape % shapes.length] };
    }
    case 'values':
      return { 'x-rail-signature': plan.values.length === 1 ? plan.values[0] : plan.values };
  }
}

/** What marks the effects of forged events: in a rejection's note, a telex's sender reference. */
export const FORGED = 'FUZZFORGED';

/**
 * An event of the rail about the payment `reference`, as the rail posts it: a bridge transfer
 * completed or rejected, a payout completed (with its MT103 confirmation) or failed, or an event
 * type the app does not act on. Its ids start with `tr_`/`po_` and the event's id; what it says
 * carries FORGED.
 */
export function railEvent(rail: Rail, kind: number, eventId: string, reference: string): Record<string, unknown> {
  const created_at = new Date().toISOString();
  if (rail === 'bridge') {
    const data = [
      { id: `tr_${eventId}`, reference, status: 'completed', failure_code: null, failure_message: null },
      { id: `tr_${eventId}`, reference, status: 'rejected', failure_code: 'compliance_rejected', failure_message: `${FORGED} screening` },
      { id: `tr_${eventId}`, reference, status: 'pending' },
    ][kind % 3];
    const type = ['transfer.completed', 'transfer.rejected', 'transfer.updated'][kind % 3];
    return { id: eventId, type, created_at, data };
  }
  const confirmation = {
    uetr: '0f2b4c6d-8e1a-4b3c-9d5e-7f6a8b9c0d1e',
    sender_reference: `${FORGED}0001`,
    bank_operation_code: 'CRED',
    value_date: created_at.slice(0, 10),
    currency: 'USD',
    amount: '100.00',
    ordering_customer: 'Globex Exports Ltd, NG',
    account_with_institution: 'CHASUS33',
    beneficiary_account: '000123456789',
    beneficiary_name: 'Jane Doe',
    remittance_information: 'INV-2026-0042',
    details_of_charges: 'OUR',
  };
  const data = [
    { id: `po_${eventId}`, reference, status: 'completed', failure_code: null, failure_message: null, confirmation },
    {
      id: `po_${eventId}`,
      reference,
      status: 'failed',
      failure_code: 'beneficiary_account_closed',
      failure_message: `${FORGED} closed account`,
      confirmation: null,
    },
    { id: `po_${eventId}`, reference, status: 'processing', confirmation: null },
  ][kind % 3];
  const type = ['payout.completed', 'payout.failed', 'payout.updated'][kind % 3];
  return { id: eventId, type, created_at, data };
}

/** An event's base for `mutationOf`: every path a posted event has. */
export const RAIL_EVENT_SHAPE: Record<Rail, Record<string, unknown>> = {
  bridge: railEvent('bridge', 0, 'evt', 'ipi'),
  payout: railEvent('payout', 0, 'evt', 'ipi'),
};

/** A reference of a callback: a payment of the merchant's (mostly), or one no payment has. */
export const railReference = fc.oneof(
  { arbitrary: fc.nat(1_000).map((index) => ({ kind: 'own' as const, index })), weight: 3 },
  { arbitrary: fc.constantFrom({ kind: 'raw' as const, text: 'ipi_000000000000000000000000' }, { kind: 'raw' as const, text: '' }), weight: 1 },
  { arbitrary: nastyString(40).map((text) => ({ kind: 'raw' as const, text })), weight: 1 },
);
