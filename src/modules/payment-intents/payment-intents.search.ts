import { formatMoney, minorFromColumn } from '../../common/money/money';
import type { SearchSource } from '../../common/search/search-source';

/** Payment intents are found by id, reference, the end of their virtual account number, and amount. */
export const PAYMENT_INTENT_SEARCH: SearchSource<'reference' | 'amount' | 'currency'> = {
  kind: 'payment_intent',
  table: 'payment_intents',
  idPrefix: 'pi',
  reference: 'merchant_reference',
  accountNumber: 'account_number',
  amount: { column: 'amount', currency: 'NGN' },
  fields: { reference: 'merchant_reference', amount: 'amount', currency: 'currency' },
  label: ({ reference, amount, currency }) => `${reference} · ${formatMoney(minorFromColumn(amount), currency)}`,
};
