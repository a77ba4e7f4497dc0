import { formatMoney, minorFromColumn } from '../../common/money/money';
import type { SearchSource } from '../../common/search/search-source';

/** Withdrawals are found by id, reference, the start of the recipient's name, the end of the account number, and amount. */
export const WITHDRAWAL_SEARCH: SearchSource<'reference' | 'accountName' | 'amount' | 'currency'> = {
  kind: 'withdrawal',
  table: 'withdrawals',
  idPrefix: 'wd',
  reference: 'merchant_reference',
  name: 'account_name',
  accountNumber: 'account_number',
  amount: { column: 'amount', currency: 'NGN' },
  fields: { reference: 'merchant_reference', accountName: 'account_name', amount: 'amount', currency: 'currency' },
  label: ({ reference, accountName, amount, currency }) => `${reference} · ${formatMoney(minorFromColumn(amount), currency)} to ${accountName}`,
};
