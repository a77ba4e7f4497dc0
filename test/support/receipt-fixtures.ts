/**
 * The figures of one international payment intent the receipt specs render: USD 1,500.00 at
 * 1650.25 NGN per USD, 2,475,375.00 NGN converted and a fee of 12,376.88 NGN (columns as stored).
 */
export const USD_1500_INTENT = {
  destinationCountry: 'US',
  amount: '150000',
  currency: 'USD',
  sourceAmount: '248775188',
  sourceCurrency: 'NGN',
  convertedAmount: '247537500',
  fee: '1237688',
  exchangeRate: '1650.25',
} as const;

/** The payout rail's MT103-style confirmation of that intent's payout (`PayoutConfirmation`). */
export const USD_1500_CONFIRMATION = {
  uetr: '8f0c2a3e-5b7d-4e1f-9a2b-3c4d5e6f7a8b',
  senderReference: 'SBX0A1B2C3D4E5F6',
  bankOperationCode: 'CRED',
  valueDate: '2026-11-20',
  currency: 'USD',
  amount: '1500.00',
  orderingCustomer: 'Adaeze Textiles Ltd, NG',
  accountWithInstitution: 'CHASUS33',
  beneficiaryAccount: '000123456789',
  beneficiaryName: 'Jane Doe',
  remittanceInformation: 'INV-2026-0042',
  detailsOfCharges: 'OUR',
} as const;
