import { formatMoney, minorFromColumn } from '../../common/money/money';
import type { SearchSource } from '../../common/search/search-source';

/** Vault transfers are found by id, reference and amount (USDC). */
export const VAULT_TRANSFER_SEARCH: SearchSource<'reference' | 'amount' | 'asset' | 'chain'> = {
  kind: 'vault_transfer',
  table: 'vault_transfers',
  idPrefix: 'vtr',
  reference: 'merchant_reference',
  amount: { column: 'amount', currency: 'USDC' },
  fields: { reference: 'merchant_reference', amount: 'amount', asset: 'asset', chain: 'chain' },
  label: ({ reference, amount, asset, chain }) => `${reference} · ${formatMoney(minorFromColumn(amount), asset)} on ${chain}`,
};
