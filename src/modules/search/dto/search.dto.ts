import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

/** What a search finds, as `kind` names it: the object's type, as its events name it. */
export const SEARCH_KINDS = ['pobo_business', 'payment_intent', 'withdrawal', 'international_payment_intent', 'vault_transfer'] as const;

export class SearchQuery {
  @ApiProperty({
    example: 'order-10045',
    description:
      'An id (whole, or its start with at least 4 hex digits), a merchant reference, the start of a name, the last digits of an account number, or an amount',
    maxLength: 100,
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  // No control character: nothing searched holds one, and PostgreSQL refuses NUL in text.
  @Matches(/^[^\p{Cc}]*[^\p{Cc}\s][^\p{Cc}]*$/u, { message: 'q must contain a visible character and no control characters' })
  q: string;
}

export class SearchResultDto {
  @ApiProperty({ enum: SEARCH_KINDS, example: 'payment_intent' })
  kind: string;

  @ApiProperty({ example: 'pi_3f9a1c2b4d5e6f708192a3b4' })
  id: string;

  @ApiProperty({ example: 'order-10045 · 125,000.50 NGN', description: 'What the dashboard shows of it' })
  label: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class SearchResultsEnvelopeDto {
  @ApiProperty({ example: 'Search results' })
  message: string;

  @ApiProperty({
    type: [SearchResultDto],
    description: 'Best match first (an id, then a reference, a name, an account number, an amount; newest first within each), at most 20',
  })
  response: SearchResultDto[];
}
