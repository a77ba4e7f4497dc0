import { formatMoney, minorFromColumn } from '../../common/money/money';
import type { SearchSource } from '../../common/search/search-source';

/**
 * International payment intents are found by id, payment reference, the start of the recipient's
 * name, the end of the account number, and the amount the recipient gets (every recipient
 * currency has two decimal places, so one amount in minor units serves them all).
 */
export const INTERNATIONAL_INTENT_SEARCH: SearchSource<'recipientName' | 'amount' | 'currency'> = {
  kind: 'international_payment_intent',
  table: 'international_payment_intents',
  idPrefix: 'ipi',
  reference: 'payment_reference',
  name: 'recipient_full_name',
  accountNumber: 'account_number',
  amount: { column: 'amount', currency: 'USD' },
  fields: { recipientName: 'recipient_full_name', amount: 'amount', currency: 'currency' },
  label: ({ recipientName, amount, currency }) => `${formatMoney(minorFromColumn(amount), currency)} to ${recipientName}`,
};
