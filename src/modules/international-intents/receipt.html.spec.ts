import { escapeHtml } from '../../common/html/html';
import type { PayoutConfirmation } from '../cross-border-rails';
import { USD_1500_CONFIRMATION, USD_1500_INTENT } from '../../../test/support/receipt-fixtures';
import { countryName, field32A, ReceiptIntent, renderReceiptMessagePage, renderReceiptPage, renderTelexPage } from './receipt.html';

const HOSTILE = `<img src=x onerror="alert(1)">&'`;

const confirmation = (overrides: Partial<PayoutConfirmation> = {}): PayoutConfirmation => ({
  ...USD_1500_CONFIRMATION,
  ...overrides,
});

const intent = (overrides: Partial<ReceiptIntent> = {}): ReceiptIntent => ({
  id: 'ipi_5c4b3a29181706f5e4d3c2b1',
  status: 'settled',
  quoteId: 'qt_0a1b2c3d4e5f60718293a4b5',
  ...USD_1500_INTENT,
  recipientFullName: 'Jane Doe',
  recipientEmail: 'jane@example.com',
  bankCodeType: 'swift',
  bankCode: 'CHASUS33',
  accountNumber: '000123456789',
  purposeOfTransfer: 'Information Service Charges',
  paymentReference: 'INV-2026-0042',
  bridgeTransferId: 'brt_7f6e5d4c3b2a1908',
  payoutId: 'po_1a2b3c4d5e6f7081',
  payoutConfirmation: confirmation(),
  createdAt: new Date('2026-11-20T09:51:58.000Z'),
  processedAt: new Date('2026-11-20T09:52:01.000Z'),
  settledAt: new Date('2026-11-20T09:52:04.000Z'),
  ...overrides,
});

const sender = { name: 'Adaeze Textiles Ltd', country: 'NG' };

const ELEMENTS = new Set([
  'html',
  'head',
  'meta',
  'title',
  'style',
  'body',
  'main',
  'div',
  'p',
  'h1',
  'h2',
  'table',
  'tr',
  'th',
  'td',
  'bdi',
  'time',
  'pre',
  'span',
]);
const ATTRIBUTES = new Set(['lang', 'charset', 'name', 'content', 'class', 'scope', 'datetime', 'aria-label', 'aria-hidden']);

/** What a page may never hold: script, event handlers, links, anything loaded from elsewhere. Every tag is one of a few, with a few attributes. */
const expectSelfContained = (page: string) => {
  expect(page).toMatch(/^<!doctype html>/);
  for (const [, element, attributes] of page.slice('<!doctype html>'.length).matchAll(/<([a-z0-9]+)([^>]*)>/gi)) {
    expect(ELEMENTS).toContain(element);
    // Attribute values are always double-quoted by the templates (and escaped, so a quote cannot end one).
    expect(attributes).toMatch(/^(\s[a-z-]+="[^"]*")*$/);
    for (const [, attribute] of attributes.matchAll(/\s([a-z-]+)="[^"]*"/g)) expect(ATTRIBUTES).toContain(attribute);
  }
  expect(page).not.toMatch(/url\(|@import/i);
};

describe('renderReceiptPage', () => {
  it('shows every field of the payment, exactly', () => {
    const page = renderReceiptPage({ intent: intent(), sender });
    for (const text of [
      // Sender.
      '<bdi>Adaeze Textiles Ltd</bdi>',
      'Nigeria (NG)',
      // Recipient.
      '<bdi>Jane Doe</bdi>',
      'jane@example.com',
      'United States (US)',
      'SWIFT / BIC',
      'CHASUS33',
      // The account masked to its last four characters: the link is all it takes to open the page.
      '<td class="mono">•••• 6789</td>',
      // Amounts, to the kobo and cent.
      '<td>1,500.00 USD</td>',
      '<p class="total">1,500.00 USD</p>',
      '<td>1 USD = 1650.25 NGN</td>',
      '<td>2,475,375.00 NGN</td>',
      '<td>12,376.88 NGN</td>',
      '<td>2,487,751.88 NGN</td>',
      // Purpose and reference.
      'Information Service Charges',
      'INV-2026-0042',
      // References.
      'ipi_5c4b3a29181706f5e4d3c2b1',
      'qt_0a1b2c3d4e5f60718293a4b5',
      'brt_7f6e5d4c3b2a1908',
      'po_1a2b3c4d5e6f7081',
      '8f0c2a3e-5b7d-4e1f-9a2b-3c4d5e6f7a8b',
      // Times.
      '<time datetime="2026-11-20T09:51:58.000Z">20 November 2026 at 09:51:58 UTC</time>',
      '<time datetime="2026-11-20T09:52:01.000Z">20 November 2026 at 09:52:01 UTC</time>',
      '<time datetime="2026-11-20T09:52:04.000Z">20 November 2026 at 09:52:04 UTC</time>',
      // Status.
      '<p class="status">Settled</p>',
    ]) {
      expect(page).toContain(text);
    }
    for (const label of [
      'Business',
      'Country',
      'Name',
      'Email',
      'Bank code type',
      'Bank code',
      'Account number',
      'Recipient amount',
      'Exchange rate',
      'Fee',
      'Purpose',
      'Payment reference',
      'Payment intent ID',
      'Quote ID',
      'Bridge transfer ID',
      'Payout ID',
      'UETR',
      'Created',
      'Processed',
      'Settled',
      'Status',
    ]) {
      expect(page).toContain(`<th scope="row">${label}</th>`);
    }
    expect(page).toContain(`<title>Payment receipt ipi_5c4b3a29181706f5e4d3c2b1 – \u2068Adaeze Textiles Ltd\u2069</title>`);
    expect(page).not.toContain('000123456789');
  });

  it('masks an IBAN, which is the account itself, to its last four characters', () => {
    const page = renderReceiptPage({ intent: intent({ accountNumber: null, bankCodeType: 'iban', bankCode: 'GB82WEST12345698765432' }), sender });
    expect(page).toContain('<tr><th scope="row">IBAN</th><td class="mono">•••• 5432</td></tr>');
    expect(page).not.toContain('12345698765432');
  });

  it('is self-contained and printable on A4', () => {
    const page = renderReceiptPage({ intent: intent(), sender });
    expectSelfContained(page);
    expect(page).toContain('@page{size:A4');
    expect(page).toContain('@media print{');
    expect(page).toContain('<meta name="robots" content="noindex, nofollow">');
  });

  it('escapes and isolates hostile names and references wherever they appear', () => {
    const page = renderReceiptPage({
      intent: intent({
        recipientFullName: HOSTILE,
        recipientEmail: `a"b@x.test`,
        purposeOfTransfer: '</td><script>x</script>',
        paymentReference: 'R\u202Eevil',
      }),
      sender: { name: `${HOSTILE}\u202E`, country: 'NG' },
    });
    expectSelfContained(page);
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<script>');
    const escaped = escapeHtml(HOSTILE);
    expect(page).toContain(`<bdi>${escaped}</bdi>`);
    expect(page).toContain(`<bdi>${escaped}\u202E</bdi>`);
    expect(page).toContain(`<title>Payment receipt ipi_5c4b3a29181706f5e4d3c2b1 – \u2068${escaped}\u202E\u2069</title>`);
    expect(page).toContain('a&quot;b@x.test');
    expect(page).toContain('&lt;/td&gt;&lt;script&gt;x&lt;/script&gt;');
    expect(page).toContain('<bdi>R\u202Eevil</bdi>');
  });

  it('shows what a payment does not have as a dash, and no UETR row without a confirmation', () => {
    const page = renderReceiptPage({
      intent: intent({
        recipientEmail: null,
        paymentReference: null,
        accountNumber: null,
        bankCodeType: 'iban',
        bankCode: 'GB82WEST12345698765432',
        payoutConfirmation: null,
      }),
      sender,
    });
    expect(page).toContain('<tr><th scope="row">Email</th><td>—</td></tr>');
    expect(page).toContain('<tr><th scope="row">Payment reference</th><td>—</td></tr>');
    expect(page).toContain('<tr><th scope="row">Account number (in the IBAN)</th><td class="mono">—</td></tr>');
    expect(page).toContain('<td>IBAN</td>');
    expect(page).not.toContain('UETR');
  });
});

describe('field32A', () => {
  it('writes YYMMDD, the currency and the amount with a decimal comma, as SWIFT does', () => {
    expect(field32A(confirmation())).toBe('261120USD1500,00');
    expect(field32A({ valueDate: '2027-01-05', currency: 'EUR', amount: '0.5' })).toBe('270105EUR0,5');
    expect(field32A({ valueDate: '2027-01-05', currency: 'GBP', amount: '1500' })).toBe('270105GBP1500,');
  });

  it('refuses a confirmation it cannot write faithfully', () => {
    expect(() => field32A({ valueDate: '20261120', currency: 'USD', amount: '1500.00' })).toThrow();
    expect(() => field32A({ valueDate: '2026-11-20', currency: 'USD', amount: '1,500.00' })).toThrow();
    expect(() => field32A({ valueDate: '2026-11-20', currency: 'USD', amount: '-1' })).toThrow();
  });
});

describe('renderTelexPage', () => {
  const block = (page: string) => /<pre aria-label="MT103 fields">([\s\S]*?)<\/pre>/.exec(page)?.[1] ?? '';

  it('shows the MT103 fields with their tags, one per line, in a monospace block', () => {
    const page = renderTelexPage({ intent: { id: 'ipi_5c4b3a29181706f5e4d3c2b1', status: 'settled' }, confirmation: confirmation() });
    expectSelfContained(page);
    expect(block(page).split('\n')).toEqual([
      '{3:{121:8f0c2a3e-5b7d-4e1f-9a2b-3c4d5e6f7a8b}}',
      '{4:',
      ':20:SBX0A1B2C3D4E5F6',
      ':23B:CRED',
      ':32A:261120USD1500,00',
      ':50K:<bdi>Adaeze Textiles Ltd, NG</bdi>',
      ':57A:CHASUS33',
      ':59:/000123456789',
      '<bdi>Jane Doe</bdi>',
      ':70:<bdi>INV-2026-0042</bdi>',
      ':71A:OUR',
      '-}',
    ]);
    expect(page).toContain('<h1>Telex for payment ipi_5c4b3a29181706f5e4d3c2b1</h1>');
    expect(page).toContain('<p class="status">Settled</p>');
    expect(page).toContain('<title>Payment confirmation (MT103) ipi_5c4b3a29181706f5e4d3c2b1</title>');
    for (const tag of ['121', ':20:', ':23B:', ':32A:', ':50K:', ':57A:', ':59:', ':70:', ':71A:']) expect(page).toContain(`<th scope="row">${tag}</th>`);
    expect(page).toContain('pre{font-family:ui-monospace');
  });

  it('escapes hostile values, and a line break in one cannot forge another field', () => {
    const page = renderTelexPage({
      intent: { id: 'ipi_1', status: 'withdrawal_confirmed' },
      confirmation: confirmation({
        beneficiaryName: `${HOSTILE}\n:71A:BEN`,
        remittanceInformation: 'x\r\n:32A:990101USD1,',
        orderingCustomer: '</pre><script>1</script>',
      }),
    });
    expectSelfContained(page);
    expect(page).toContain('<p class="status">Withdrawal confirmed</p>');
    const lines = block(page).split('\n');
    expect(lines.filter((l) => l.startsWith(':71A:'))).toEqual([':71A:OUR']);
    expect(lines.filter((l) => l.startsWith(':32A:'))).toEqual([':32A:261120USD1500,00']);
    expect(lines).toContain(`<bdi>${escapeHtml(HOSTILE)} :71A:BEN</bdi>`);
    expect(lines).toContain(':50K:<bdi>&lt;/pre&gt;&lt;script&gt;1&lt;/script&gt;</bdi>');
  });
});

describe('renderReceiptMessagePage and countryName', () => {
  it('renders a message page, escaped', () => {
    const page = renderReceiptMessagePage({ title: 'Nothing to show at this link', message: '<b>x</b> (Reference: req_1)' });
    expectSelfContained(page);
    expect(page).toContain('<h1>Nothing to show at this link</h1>');
    expect(page).toContain('&lt;b&gt;x&lt;/b&gt; (Reference: req_1)');
  });

  it('names countries, and falls back to the code', () => {
    expect(countryName('NG')).toBe('Nigeria (NG)');
    expect(countryName('ZZ')).toBe('ZZ');
    expect(countryName('N')).toBe('N');
  });
});
