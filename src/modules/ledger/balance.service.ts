import { BALANCE_TRANSACTIONS_PATH } from './ledger.routes';
import { Inject, Injectable } from '@nestjs/common';
import { listPage, Page, PageRequest } from '../../common/paging';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { BalanceTransactionView, LedgerService, MerchantBalance } from './ledger.service';

/** Collections, balances and withdrawals are in NGN in this version. */
export const BALANCE_CURRENCIES = ['NGN'] as const;

/** The merchant's view of the ledger. */
@Injectable()
export class BalanceService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly ledger: LedgerService,
  ) {}

  get(merchantId: string): Promise<MerchantBalance[]> {
    return Promise.all(BALANCE_CURRENCIES.map((currency) => this.ledger.balance(merchantId, currency)));
  }

  /** `path`: the list's own route, which the next page's URL names (the merchant API's or the dashboard's). */
  transactions(merchantId: string, query: PageRequest, path = BALANCE_TRANSACTIONS_PATH): Promise<Page<BalanceTransactionView>> {
    return listPage(
      query,
      'btx',
      (limit, after) => this.ledger.balanceTransactions(merchantId, limit, after),
      (row) => row,
      (item) => item.balanceTransactionId,
      `${this.config.publicBaseUrl}${path}`,
    );
  }
}
