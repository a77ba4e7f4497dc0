/**
 * The values OwlPay Harbor recommends for a transfer's `destination.transfer_purpose`, spelt as
 * its developer docs list them ("Purpose of Transfer",
 * https://harbor-developers.owlpay.com/docs/purpose-of-transfer). Harbor asks for the field for
 * AML/CTF screening and cross-border reporting, and a purpose it recognises avoids compliance
 * delays. Its v2 transfer schema types the field as any string, so the list is a recommendation:
 * whether to accept only these is the caller's choice.
 */
export const TRANSFER_PURPOSES: readonly string[] = Object.freeze([
  'Transfer to own account',
  'Family Maintenance',
  'Education-related student expenses',
  'Medical Treatment',
  'Hotel Accommodation',
  'Travel',
  'Utility Bills',
  'Repayment of Loans',
  'Tax Payment',
  'Purchase of Residential Property',
  'Payment of Property Rental',
  'Insurance Premium',
  'Product indemnity insurance',
  'Insurance Claims Payment',
  'Mutual Fund Investment',
  'Investment in Shares',
  'Donations',
  'Salary',
  'Information Service Charges',
  'Advertising & Public relations-related expenses',
  'Royalty fees, trademark fees, patent fees, and copyright fees',
  'Fees for brokers, front end fee, commitment fee, guarantee fee and custodian fee',
  'Fees for advisors, technical assistance, and academic knowledge, including remuneration for specialists',
  'Representative office expenses',
  'Construction costs/expenses',
  'Transportation fees for goods',
  'For payment of exported goods',
  'Delivery fees for goods',
  'General Goods Trades - Offline trade',
]);

const BY_KEY = new Map(TRANSFER_PURPOSES.map((purpose) => [purpose.toLowerCase(), purpose]));

/**
 * The listed spelling of `input` ("  family maintenance " → "Family Maintenance"), matched
 * without regard to case and surrounding white space, or undefined when it is not on the list.
 */
export function canonicalTransferPurpose(input: string): string | undefined {
  return BY_KEY.get(input.trim().toLowerCase());
}
