import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ListQuery } from '../../../common/http/list.query';
import { IsTimestamp } from '../../../common/validation/timestamp.validator';
import { EVENT_TYPES, EventType } from '../event.types';

/** `?type=` may be given once or repeated: either way a list. */
const asList = ({ value }: { value: unknown }): unknown => (value === undefined || Array.isArray(value) ? value : [value]);

/** `?limit=&cursor=` and the list's filters. */
export class EventListQuery extends ListQuery {
  @ApiPropertyOptional({
    type: [String],
    enum: EVENT_TYPES,
    description: 'Only events of these types (repeat the parameter for several)',
    example: ['payment_intent.succeeded'],
  })
  @IsOptional()
  @Transform(asList)
  @ArrayMaxSize(EVENT_TYPES.length)
  @IsIn(EVENT_TYPES, { each: true })
  type?: EventType[];

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-01T00:00:00Z', description: 'Only events created at or after this time' })
  @IsOptional()
  @IsTimestamp()
  createdAfter?: string;

  @ApiPropertyOptional({
    example: 'we_0a1b2c3d4e5f60718293a4b5',
    description: 'Only the events of the types this webhook endpoint takes that it has not acknowledged with a 2xx (to catch up after an outage)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  undeliveredTo?: string;
}

export class EventDataDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "The object the event is about, exactly as its GET answered right after the change (a payment intent's, a withdrawal's, …)",
    example: { withdrawalId: 'wd_8e1f0c2a4b6d8e0f1a3c5e7a', status: 'succeeded' },
  })
  object: Record<string, unknown>;
}

export class EventDto {
  @ApiProperty({ example: 'evt_1f0c2a4b6d8e0f1a3c5e7a9b' })
  eventId: string;

  @ApiProperty({ enum: EVENT_TYPES, example: 'withdrawal.succeeded' })
  type: EventType;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:06:58.000Z' })
  createdAt: string;

  @ApiProperty({
    example: 48213,
    description:
      'Grows with every change of the object (it is not a count): of two events about one object, the one with the larger `objectVersion` holds the newer state, whatever order they arrive in',
  })
  objectVersion: number;

  @ApiProperty({ type: EventDataDto })
  data: EventDataDto;
}

export class EventEnvelopeDto {
  @ApiProperty({ example: 'Event retrieved' })
  message: string;

  @ApiProperty({ type: EventDto })
  response: EventDto;
}

export class EventListEnvelopeDto {
  @ApiProperty({ example: 'Events retrieved' })
  message: string;

  @ApiProperty({ type: [EventDto] })
  response: EventDto[];
}
