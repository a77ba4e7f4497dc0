import { html, isolated, isolatedText, pageDocument, SafeHtml } from '../../common/html/html';
import { formatMoney, minorFromColumn } from '../../common/money/money';
import type { BankCodeType } from '../../common/banking/recipient-bank';
import type { PayoutConfirmation } from '../cross-border-rails';
import type { ReceiptRecord } from './international-intents.repository';

/**
 * The receipt and telex pages: pure functions from stored values to a whole HTML document. No
 * script, nothing loaded from elsewhere (the page's CSP forbids both), printable on A4.
 */

/** What the receipt shows of the intent. */
export type ReceiptIntent = Pick<
  ReceiptRecord,
  | 'id'
  | 'status'
  | 'quoteId'
  | 'destinationCountry'
  | 'amount'
  | 'currency'
  | 'sourceAmount'
  | 'sourceCurrency'
  | 'convertedAmount'
  | 'fee'
  | 'exchangeRate'
  | 'recipientFullName'
  | 'recipientEmail'
  | 'bankCodeType'
  | 'bankCode'
  | 'accountNumber'
  | 'purposeOfTransfer'
  | 'paymentReference'
  | 'bridgeTransferId'
  | 'payoutId'
  | 'payoutConfirmation'
  | 'createdAt'
  | 'processedAt'
  | 'settledAt'
>;

/** The business the payment was made on behalf of. */
export interface ReceiptSender {
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface ReceiptView {
  intent: ReceiptIntent;
  sender: ReceiptSender;
}

export interface TelexView {
  intent: Pick<ReceiptRecord, 'id' | 'status'>;
  confirmation: PayoutConfirmation;
}

const STYLE = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#f3f4f6;color:#111827;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:48rem;margin:0 auto;padding:1.25rem .875rem 3rem}
.brand{font-size:.8125rem;font-weight:600;letter-spacing:.06em;text-transform:uppercase;color:#4b5563;margin:0 0 .75rem .25rem}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:1.25rem}
.eyebrow{font-size:.875rem;color:#4b5563;margin:0 0 .25rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 .5rem;overflow-wrap:anywhere}
h2{font-size:.8125rem;font-weight:700;letter-spacing:.05em;text-transform:uppercase;color:#374151;margin:1.5rem 0 .375rem}
.status{display:inline-block;font-size:.8125rem;font-weight:600;color:#166534;background:#dcfce7;border-radius:999px;padding:.125rem .625rem;margin:0}
.total{font-size:1.75rem;font-weight:700;margin:.75rem 0 0;overflow-wrap:anywhere}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;vertical-align:top;padding:.375rem 0;border-top:1px solid #eef0f3}
th{width:38%;font-weight:500;color:#4b5563;padding-right:1rem}
td{overflow-wrap:anywhere}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.92em}
pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.875rem;line-height:1.6;background:#f9fafb;border:1px solid #e5e7eb;border-radius:8px;padding:1rem;margin:1rem 0 0;white-space:pre-wrap;overflow-wrap:anywhere}
.icon{display:flex;align-items:center;justify-content:center;width:3rem;height:3rem;border-radius:50%;font-size:1.5rem;font-weight:700;margin:0 0 1rem;background:#fef3c7;color:#92400e}
.message{margin:0;color:#374151}
.fine{font-size:.8125rem;color:#4b5563;margin:1.25rem 0 0}
@media (min-width:40rem){main{padding-top:3rem}.card{padding:2rem}h1{font-size:1.75rem}}
@page{size:A4;margin:16mm 14mm}
@media print{
body{background:#fff;font-size:9.5pt;line-height:1.35}
main{max-width:none;padding:0}
.brand{margin:0 0 .5rem}
.card{border:0;border-radius:0;padding:0}
h1{font-size:15pt;margin:0 0 .25rem}
h2{font-size:8pt;margin:.875rem 0 .125rem;break-after:avoid}
.total{font-size:16pt;margin:.375rem 0 0}
.status{border:1px solid #166534}
th,td{padding:.2rem 0}
pre{font-size:9pt;line-height:1.45}
table,tr,pre{break-inside:avoid}
.fine{margin:.875rem 0 0}
.screen{display:none}
}
`;

const layout = (title: string, content: SafeHtml): string => pageDocument(title, STYLE, content);

/** A bigint column's amount, formatted. */
const money = (column: string, currency: string) => formatMoney(minorFromColumn(column), currency);

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'medium', timeZone: 'UTC' });

function timestamp(date: Date | null): SafeHtml | null {
  return date === null ? null : html`<time datetime="${date.toISOString()}">${DATE_FORMAT.format(date)} UTC</time>`;
}

const REGIONS = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** "Nigeria (NG)"; the code alone when it names no region. */
export function countryName(code: string): string {
  let name: string | undefined;
  try {
    name = REGIONS.of(code);
  } catch {
    name = undefined;
  }
  return name === undefined || name === code || name === 'Unknown Region' ? code : `${name} (${code})`;
}

const BANK_CODE_TYPES: Record<BankCodeType, string> = {
  swift: 'SWIFT / BIC',
  iban: 'IBAN',
  routing_number: 'ABA routing number',
  other: 'Other bank code',
};

/** `withdrawal_confirmed` → "Withdrawal confirmed". */
function statusLabel(status: string): string {
  const words = status.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const NONE = '—';

/** One line of a section; an absent value reads as a dash. */
function row(label: string, value: string | SafeHtml | null, mono = false): SafeHtml {
  const shown = value ?? NONE;
  return html`<tr><th scope="row">${label}</th><td${mono ? new SafeHtml(' class="mono"') : ''}>${shown}</td></tr>\n`;
}

/**
 * The receipt is a page anyone holding its link can open, so the recipient's account is shown as
 * its last four characters, as card and bank receipts do; the telex, a bank's payout
 * confirmation, keeps it whole. An IBAN is the account itself, so it is masked the same way.
 */
export function maskAccount(value: string | null): string | null {
  if (value === null) return null;
  const compact = value.replace(/\s+/g, '');
  return `•••• ${compact.slice(-4)}`;
}

function section(title: string, rows: SafeHtml[]): SafeHtml {
  return html`<h2>${title}</h2>
<table>
${rows}</table>
`;
}

/** The printable receipt of a settled international payment. */
export function renderReceiptPage({ intent, sender }: ReceiptView): string {
  const uetr = intent.payoutConfirmation?.uetr ?? null;
  const recipientAmount = money(intent.amount, intent.currency);
  return layout(
    `Payment receipt ${intent.id} – ${isolatedText(sender.name)}`,
    html`<p class="eyebrow">International payment receipt</p>
<h1>${isolated(sender.name)} paid ${isolated(intent.recipientFullName)}</h1>
<p class="status">${statusLabel(intent.status)}</p>
<p class="total">${recipientAmount}</p>
${section('Sender', [row('Business', isolated(sender.name)), row('Country', countryName(sender.country))])}
${section('Recipient', [
  row('Name', isolated(intent.recipientFullName)),
  row('Email', intent.recipientEmail),
  row('Country', countryName(intent.destinationCountry)),
  row('Bank code type', BANK_CODE_TYPES[intent.bankCodeType] ?? intent.bankCodeType),
  row(intent.bankCodeType === 'iban' ? 'IBAN' : 'Bank code', intent.bankCodeType === 'iban' ? maskAccount(intent.bankCode) : intent.bankCode, true),
  row(intent.bankCodeType === 'iban' ? 'Account number (in the IBAN)' : 'Account number', maskAccount(intent.accountNumber), true),
])}
${section('Amounts', [
  row('Recipient amount', recipientAmount),
  row('Exchange rate', `1 ${intent.currency} = ${intent.exchangeRate} ${intent.sourceCurrency}`),
  row('Converted amount', money(intent.convertedAmount, intent.sourceCurrency)),
  row('Fee', money(intent.fee, intent.sourceCurrency)),
  row('Total debited (source amount)', money(intent.sourceAmount, intent.sourceCurrency)),
])}
${section('Payment', [
  row('Purpose', intent.purposeOfTransfer),
  row('Payment reference', intent.paymentReference === null ? null : isolated(intent.paymentReference)),
  row('Status', statusLabel(intent.status)),
])}
${section('References', [
  row('Payment intent ID', intent.id, true),
  row('Quote ID', intent.quoteId, true),
  row('Bridge transfer ID', intent.bridgeTransferId, true),
  row('Payout ID', intent.payoutId, true),
  ...(uetr === null ? [] : [row('UETR', uetr, true)]),
])}
${section('Timeline', [row('Created', timestamp(intent.createdAt)), row('Processed', timestamp(intent.processedAt)), row('Settled', timestamp(intent.settledAt))])}
<p class="fine">All times are UTC. Amounts in NGN were debited from the merchant's balance; the recipient amount was paid in ${intent.currency}.
<span class="screen">Use your browser's print command to print this receipt or save it as a PDF.</span></p>`,
  );
}

/** :32A: value date (YYMMDD), currency and amount with a decimal comma, as SWIFT writes them: "2026-11-20", USD, "1500.00" → "261120USD1500,00". */
export function field32A(confirmation: Pick<PayoutConfirmation, 'valueDate' | 'currency' | 'amount'>): string {
  const date = /^\d{2}(\d{2})-(\d{2})-(\d{2})$/.exec(confirmation.valueDate);
  const amount = /^(\d+)(?:\.(\d+))?$/.exec(confirmation.amount);
  if (!date || !amount) throw new Error('receipt: the payout confirmation has no valid value date or amount');
  // The decimal comma is always written, even without decimals ("1500,").
  return `${date[1]}${date[2]}${date[3]}${confirmation.currency}${amount[1]},${amount[2] ?? ''}`;
}

/** A value on one telex line: line breaks in it cannot start a line that looks like another field. */
function line(value: string): string {
  return value.replace(/[\r\n\v\f\u0085\u2028\u2029]+/g, ' ');
}

/** The MT103 fields, one per line, in the message's own layout (field 121 in the user header, block 3). */
function telexText(c: PayoutConfirmation): SafeHtml {
  return html`{3:{121:${line(c.uetr)}}}
{4:
:20:${line(c.senderReference)}
:23B:${line(c.bankOperationCode)}
:32A:${field32A(c)}
:50K:${isolated(line(c.orderingCustomer))}
:57A:${line(c.accountWithInstitution)}
:59:/${line(c.beneficiaryAccount)}
${isolated(line(c.beneficiaryName))}
:70:${isolated(line(c.remittanceInformation))}
:71A:${line(c.detailsOfCharges)}
-}`;
}

const TELEX_FIELDS: [string, string][] = [
  ['121', 'Unique end-to-end transaction reference (UETR)'],
  [':20:', "Sender's reference"],
  [':23B:', 'Bank operation code'],
  [':32A:', 'Value date (YYMMDD), currency, interbank settled amount'],
  [':50K:', 'Ordering customer'],
  [':57A:', 'Account with institution (beneficiary bank)'],
  [':59:', 'Beneficiary customer: account, name'],
  [':70:', 'Remittance information'],
  [':71A:', 'Details of charges'],
];

/** The payout confirmation of a SWIFT payment, as the MT103 fields that paid the recipient. */
export function renderTelexPage({ intent, confirmation }: TelexView): string {
  return layout(
    `Payment confirmation (MT103) ${intent.id}`,
    html`<p class="eyebrow">Payout confirmation · SWIFT MT103</p>
<h1>Telex for payment ${intent.id}</h1>
<p class="status">${statusLabel(intent.status)}</p>
${section('Summary', [
  row('Payment intent ID', intent.id, true),
  row('UETR', confirmation.uetr, true),
  row("Sender's reference", confirmation.senderReference, true),
  row('Value date', confirmation.valueDate),
])}
<pre aria-label="MT103 fields">${telexText(confirmation)}</pre>
${section(
  'Fields',
  TELEX_FIELDS.map(([tag, meaning]) => row(tag, meaning)),
)}
<p class="fine">The fields of the SWIFT MT103 message with which the recipient's bank was paid, as the payout network confirmed them.</p>`,
  );
}

/** Every page of these routes that is not a receipt or a telex: the 404 of any link that leads to none, and failures. */
export function renderReceiptMessagePage(view: { title: string; message: string }): string {
  return layout(
    view.title,
    html`<div class="icon" aria-hidden="true">!</div>
<h1>${view.title}</h1>
<p class="message">${view.message}</p>`,
  );
}
