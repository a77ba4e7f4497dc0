import type { MoneyObjectSource } from '../../common/census/money-object-source';
import { INTERNATIONAL_INTENT_CENSUS } from '../international-intents';
import { PAYMENT_INTENT_CENSUS } from '../payment-intents';
import { VAULT_TRANSFER_CENSUS } from '../vault';
import { WITHDRAWAL_CENSUS } from '../withdrawals';

/** Every kind of money object the operator port counts, as its owner declares it. */
export const MONEY_OBJECT_SOURCES: readonly MoneyObjectSource[] = [
  PAYMENT_INTENT_CENSUS,
  WITHDRAWAL_CENSUS,
  INTERNATIONAL_INTENT_CENSUS,
  VAULT_TRANSFER_CENSUS,
];
