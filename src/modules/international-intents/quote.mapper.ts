import { SOURCE_CURRENCY } from './fx';
import { minorFromColumn, toMajorUnits } from '../../common/money/money';
import type { QuoteDto } from './dto/quote.response';
import type { QuoteEntity } from './quote.entity';

export type QuoteRecord = Pick<QuoteEntity, 'id' | 'poboUserId' | 'destinationCountry' | 'currency' | 'amount' | 'options' | 'expiresAt' | 'createdAt'>;

export function mapQuote(row: QuoteRecord): QuoteDto {
  return {
    quoteId: row.id,
    poboUserId: row.poboUserId,
    destinationCountry: row.destinationCountry,
    currency: row.currency,
    amount: toMajorUnits(minorFromColumn(row.amount), row.currency),
    expiresAt: row.expiresAt.toISOString(),
    options: row.options.map((option) => ({
      quoteOptionId: option.id,
      routeType: option.routeType,
      sourceCurrency: SOURCE_CURRENCY,
      sourceAmount: toMajorUnits(option.sourceAmount, SOURCE_CURRENCY),
      exchangeRate: option.exchangeRate,
      fee: toMajorUnits(option.fee, SOURCE_CURRENCY),
    })),
    createdAt: row.createdAt.toISOString(),
  };
}
