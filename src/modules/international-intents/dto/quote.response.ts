import { ApiProperty } from '@nestjs/swagger';
import { ROUTE_TYPES } from '../../cross-border-rails';

export class QuoteOptionDto {
  @ApiProperty({ example: 'qo_0a1b2c3d4e5f60718293a4b5', pattern: '^qo_[0-9a-f]{24}$' })
  quoteOptionId: string;

  @ApiProperty({ enum: ROUTE_TYPES, description: '`ngn`: NGN sold straight into the currency; `usdc`: through the USDC stablecoin' })
  routeType: string;

  @ApiProperty({ enum: ['NGN'] })
  sourceCurrency: string;

  @ApiProperty({ example: 1574511.25, description: 'What your NGN balance pays, fee included, rounded up to the kobo' })
  sourceAmount: number;

  @ApiProperty({ example: '1550.75', pattern: '^\\d+(\\.\\d{1,8})?$', description: "NGN per one unit of the quote's currency, a decimal string" })
  exchangeRate: string;

  @ApiProperty({ example: 23761.25, description: 'NGN, part of `sourceAmount`' })
  fee: number;
}

export class QuoteDto {
  @ApiProperty({ example: 'qt_5c4b3a29181706f5e4d3c2b1', pattern: '^qt_[0-9a-f]{24}$' })
  quoteId: string;

  @ApiProperty({ example: 'pobo_3f9a1c2b4d5e6f708192a3b4' })
  poboUserId: string;

  @ApiProperty({ example: 'US' })
  destinationCountry: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ example: 1000, description: 'What the recipient receives, in `currency`' })
  amount: number;

  @ApiProperty({ format: 'date-time', description: 'Fifteen minutes after creation; an intent must be created before' })
  expiresAt: string;

  @ApiProperty({ type: [QuoteOptionDto], description: 'One per route serving the corridor' })
  options: QuoteOptionDto[];

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class QuoteEnvelopeDto {
  @ApiProperty({ example: 'Quote created' })
  message: string;

  @ApiProperty({ type: QuoteDto })
  response: QuoteDto;
}

export class QuoteListEnvelopeDto {
  @ApiProperty({ example: 'Quotes retrieved' })
  message: string;

  @ApiProperty({ type: [QuoteDto] })
  response: QuoteDto[];
}

export const QUOTE_EXAMPLE: QuoteDto = {
  quoteId: 'qt_5c4b3a29181706f5e4d3c2b1',
  poboUserId: 'pobo_3f9a1c2b4d5e6f708192a3b4',
  destinationCountry: 'US',
  currency: 'USD',
  amount: 1000,
  expiresAt: '2026-11-20T10:05:00.000Z',
  options: [
    { quoteOptionId: 'qo_0a1b2c3d4e5f60718293a4b5', routeType: 'ngn', sourceCurrency: 'NGN', sourceAmount: 1574511.25, exchangeRate: '1550.75', fee: 23761.25 },
    { quoteOptionId: 'qo_1b2c3d4e5f60718293a4b5c6', routeType: 'usdc', sourceCurrency: 'NGN', sourceAmount: 1554888.4, exchangeRate: '1542.3', fee: 12588.4 },
  ],
  createdAt: '2026-11-20T09:50:00.000Z',
};
