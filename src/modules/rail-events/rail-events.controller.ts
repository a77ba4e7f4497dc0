import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiPublicOperation } from '../../common/http/api-docs';
import { Envelope, envelope } from '../../common/http/envelope';
import { RailCallbackAckDto, RailCallbackAckEnvelopeDto, RailEventDto } from './rail-events.dto';
import { RAIL_CALLBACK_PATH } from '../../config/app.config';
import { RailEventsService } from './rail-events.service';


declare module 'fastify' {
  interface FastifyRequest {
    /** The exact bytes of a rail callback's body, which its signature covers. */
    rawBody?: string;
  }
}

@ApiTags('Rail callbacks')
@ApiExtraModels(RailEventDto)
@Controller()
export class RailEventsController {
  constructor(private readonly events: RailEventsService) {}

  @Post(RAIL_CALLBACK_PATH)
  @HttpCode(200)
  @ApiHeader({ name: 'X-Rail-Signature', required: true, description: '`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, within five minutes' })
  @ApiPublicOperation({
    operationId: 'receiveBankRailEvent',
    summary: 'Bank rail callback (for the rail, not merchants)',
    description: 'A signed event of the bank rail. Acknowledged (200) only once its effects are committed; a repeated event id is acknowledged without effect.',
    success: { status: 200, type: RailCallbackAckEnvelopeDto, description: 'Processed, or seen before', example: { message: 'Event received', response: { received: true, duplicate: false } } },
    body: { type: RailEventDto, example: { id: 'evt_0a1b2c3d4e5f60718293a4b5', type: 'transfer.received', created_at: '2026-11-20T09:45:12.000Z', data: {} } },
    errors: ['unauthorized'],
  })
  async receive(@Req() request: FastifyRequest, @Headers('x-rail-signature') signature: string | undefined): Promise<Envelope<RailCallbackAckDto>> {
    const processed = await this.events.receive(request.rawBody ?? '', signature);
    return envelope('Event received', { received: true, duplicate: !processed });
  }
}
