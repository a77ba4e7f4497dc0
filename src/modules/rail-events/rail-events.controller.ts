import { applyDecorators, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { Answer } from '../../common/http/answer';
import { ApiExtraModels, ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiPublicOperation } from '../../common/http/api-docs';
import { RailCallbackRoute, SignedRail } from '../auth';
import { RailCallbackAckDto, RailCallbackAckEnvelopeDto, RailEventDto } from './rail-events.dto';
import { RailEventsService } from './rail-events.service';
import { BANK_RAIL_CALLBACK_PATH, BRIDGE_RAIL_CALLBACK_PATH, PAYOUT_RAIL_CALLBACK_PATH } from './rail-events.routes';

/** A rail's signed callback route: the same signature header, acknowledgement and refusals for every rail. */
function RailCallback(
  rail: SignedRail,
  path: string,
  doc: { operationId: string; summary: string; description: string; example: { id: string; type: string; created_at: string } },
): MethodDecorator {
  return applyDecorators(
    Post(path),
    RailCallbackRoute(rail),
    Answer('Event received'),
    HttpCode(200),
    ApiHeader({
      name: 'X-Rail-Signature',
      required: true,
      description:
        '`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, within five minutes; several `v1` values (a rail rotating its secret) hold when any verifies. A callback failing it counts as a failed authentication of its client IP (429 past that limit); a valid one is never limited.',
    }),
    ApiPublicOperation({
      operationId: doc.operationId,
      summary: doc.summary,
      description: doc.description,
      success: {
        status: 200,
        type: RailCallbackAckEnvelopeDto,
        description: 'Processed, or seen before',
        example: { message: 'Event received', response: { received: true, duplicate: false } },
      },
      body: { type: RailEventDto, example: { ...doc.example, data: {} } },
      errors: ['unauthorized', 'rate_limited'],
    }),
  );
}

@ApiTags('Rail callbacks')
@ApiExtraModels(RailEventDto)
@Controller()
export class RailEventsController {
  constructor(private readonly events: RailEventsService) {}

  @RailCallback('bank_rail', BANK_RAIL_CALLBACK_PATH, {
    operationId: 'receiveBankRailEvent',
    summary: 'Bank rail callback (for the rail, not merchants)',
    description: 'A signed event of the bank rail. Acknowledged (200) only once its effects are committed; a repeated event id is acknowledged without effect.',
    example: { id: 'evt_0a1b2c3d4e5f60718293a4b5', type: 'transfer.received', created_at: '2026-11-20T09:45:12.000Z' },
  })
  async receiveBank(@Req() request: FastifyRequest): Promise<RailCallbackAckDto> {
    return ack(await this.events.receive('bank_rail', request.rawBody ?? ''));
  }

  @RailCallback('bridge_rail', BRIDGE_RAIL_CALLBACK_PATH, {
    operationId: 'receiveBridgeRailEvent',
    summary: 'Bridge rail callback (for the rail, not merchants)',
    description:
      "A signed event of the bridge rail (`transfer.completed`, `transfer.rejected`): moves the international payment intent's bridge leg. Acknowledged once committed.",
    example: { id: 'evt_1b2c3d4e5f60718293a4b5c6', type: 'transfer.completed', created_at: '2026-11-20T09:52:02.000Z' },
  })
  async receiveBridge(@Req() request: FastifyRequest): Promise<RailCallbackAckDto> {
    return ack(await this.events.receive('bridge_rail', request.rawBody ?? ''));
  }

  @RailCallback('payout_rail', PAYOUT_RAIL_CALLBACK_PATH, {
    operationId: 'receivePayoutRailEvent',
    summary: 'Payout rail callback (for the rail, not merchants)',
    description:
      "A signed event of the payout rail (`payout.completed`, `payout.failed`): moves the international payment intent's payout leg. Acknowledged once committed.",
    example: { id: 'evt_2c3d4e5f60718293a4b5c6d7', type: 'payout.completed', created_at: '2026-11-20T09:52:03.000Z' },
  })
  async receivePayout(@Req() request: FastifyRequest): Promise<RailCallbackAckDto> {
    return ack(await this.events.receive('payout_rail', request.rawBody ?? ''));
  }
}

function ack(processed: boolean): RailCallbackAckDto {
  return { received: true, duplicate: !processed };
}
