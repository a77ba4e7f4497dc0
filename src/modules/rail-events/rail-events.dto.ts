import { ApiProperty } from '@nestjs/swagger';

/** The envelope every rail event has; `data` depends on `type`. */
export class RailEventDto {
  @ApiProperty({ example: 'evt_0a1b2c3d4e5f60718293a4b5' })
  id: string;

  @ApiProperty({
    example: 'transfer.received',
    description:
      'Bank rail: `transfer.received`, `transfer.returned`, `payout.succeeded`, `payout.failed`, `payout.returned`. Bridge rail: `transfer.completed`, `transfer.rejected`. Payout rail: `payout.completed`, `payout.failed`',
  })
  type: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  data: object;
}

export class RailCallbackAckDto {
  @ApiProperty({ example: true })
  received: boolean;

  @ApiProperty({ example: false, description: 'True when this event id was processed before' })
  duplicate: boolean;
}

export class RailCallbackAckEnvelopeDto {
  @ApiProperty({ example: 'Event received' })
  message: string;

  @ApiProperty({ type: RailCallbackAckDto })
  response: RailCallbackAckDto;
}
