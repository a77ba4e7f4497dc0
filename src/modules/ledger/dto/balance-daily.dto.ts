import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsTimeZoneName } from '../../../common/validation/time-zone.validator';

/** The longest window the daily figures cover. */
export const MAX_DAILY_DAYS = 90;

export class DailyActivityQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_DAILY_DAYS, default: 30, description: 'How many days, today included' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_DAILY_DAYS)
  days?: number;

  @ApiPropertyOptional({ example: 'Africa/Lagos', default: 'UTC', description: 'The IANA time zone whose calendar days the figures follow' })
  @IsOptional()
  @IsTimeZoneName()
  timeZone?: string;
}

export class DailyActivityDto {
  @ApiProperty({ example: '2026-11-20', format: 'date', description: 'The calendar day, in the time zone asked for' })
  date: string;

  @ApiProperty({ example: 250000, description: 'Payments and Naira account collections credited, in major units' })
  collected: number;

  @ApiProperty({ example: 3 })
  collectedCount: number;

  @ApiProperty({ example: 50000, description: 'Withdrawn, less withdrawals that failed and came back' })
  paidOut: number;

  @ApiProperty({ example: 1 })
  paidOutCount: number;

  @ApiProperty({ example: 160250.75, description: 'Paid abroad, less international payments rejected and returned' })
  sentAbroad: number;

  @ApiProperty({ example: 1 })
  sentAbroadCount: number;

  @ApiProperty({ example: 100 })
  fees: number;

  @ApiProperty({ example: 1250000.5, description: "The available balance at the day's end (today: now)" })
  closingAvailable: number;
}

export class DailyActivityListDto {
  @ApiProperty({ example: 'NGN' })
  currency: string;

  @ApiProperty({ example: 'Africa/Lagos' })
  timeZone: string;

  @ApiProperty({ type: [DailyActivityDto], description: 'One per day, oldest first, today last (days without activity too)' })
  days: DailyActivityDto[];
}

export class DailyActivityEnvelopeDto {
  @ApiProperty({ example: 'Daily activity retrieved' })
  message: string;

  @ApiProperty({ type: DailyActivityListDto })
  response: DailyActivityListDto;
}
