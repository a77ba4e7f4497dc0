import { Controller, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { sendPage } from '../../common/http/list.query';
import { MerchantId } from '../auth';
import { Operation } from '../operations';
import { EventDto, EventEnvelopeDto, EventListEnvelopeDto, EventListQuery } from './dto/event.dto';
import { DASHBOARD_EVENTS_PATH, EVENTS_PATH } from './events.routes';
import { EventsService } from './events.service';

const EVENT_EXAMPLE = {
  eventId: 'evt_1f0c2a4b6d8e0f1a3c5e7a9b',
  type: 'withdrawal.succeeded',
  createdAt: '2026-11-20T09:50:02.000Z',
  objectVersion: 48213,
  data: {
    object: {
      withdrawalId: 'wd_8e1f0c2a4b6d8e0f1a3c5e7a',
      merchantReference: 'payout-2231',
      amount: 25000,
      fee: 50,
      currency: 'NGN',
      status: 'succeeded',
      bankCode: '058',
      accountNumber: '0123456789',
      accountName: 'ADAEZE TEXTILES LTD',
      narration: null,
      failureCode: null,
      failureMessage: null,
      createdAt: '2026-11-20T09:50:00.000Z',
      updatedAt: '2026-11-20T09:50:02.000Z',
      completedAt: '2026-11-20T09:50:02.000Z',
    },
  },
};

@Controller()
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Operation({
    method: 'GET',
    merchant: { path: EVENTS_PATH, tag: 'Events' },
    dashboard: { path: DASHBOARD_EVENTS_PATH, tag: 'Dashboard: events' },
    operationId: 'listEvents',
    summary: 'List events, newest first',
    description:
      'Every change a merchant cares about, kept 30 days. Filter by `type` (repeatable) and `createdAfter`; the order of the list is the order the changes were made in.',
    answer: 'Events retrieved',
    success: {
      status: 200,
      type: EventListEnvelopeDto,
      description: 'A page of events',
      headers: LIST_HEADERS,
      example: { message: 'Events retrieved', response: [EVENT_EXAMPLE] },
    },
    errors: ['validation_failed', 'invalid_cursor'],
  })
  async list(@MerchantId() merchantId: string, @Query() query: EventListQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<EventDto[]> {
    return sendPage(reply, await this.events.list(merchantId, query));
  }

  @Operation({
    method: 'GET',
    merchant: { path: `${EVENTS_PATH}/:eventId`, tag: 'Events' },
    dashboard: { path: `${DASHBOARD_EVENTS_PATH}/:eventId`, tag: 'Dashboard: events' },
    operationId: 'getEvent',
    summary: 'Retrieve an event',
    answer: 'Event retrieved',
    success: { status: 200, type: EventEnvelopeDto, description: 'The event', example: { message: 'Event retrieved', response: EVENT_EXAMPLE } },
    errors: ['resource_not_found', 'uri_too_long'],
  })
  get(@MerchantId() merchantId: string, @Param('eventId') id: string): Promise<EventDto> {
    return this.events.get(merchantId, id);
  }
}
