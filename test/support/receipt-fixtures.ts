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
