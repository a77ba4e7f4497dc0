import { Body, Controller, Param, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { ListQuery, sendPage } from '../../common/http/list.query';
import { CurrentUser, DashboardPrincipal } from '../auth';
import { Operation } from '../operations';
import {
  CreateWebhookEndpointDto,
  RecoveredDto,
  RecoveredEnvelopeDto,
  RecoverEventsDto,
  ResendEventDto,
  UpdateWebhookEndpointDto,
  WebhookAttemptDto,
  WebhookAttemptListEnvelopeDto,
  WebhookEndpointDto,
  WebhookEndpointEnvelopeDto,
  WebhookEndpointListEnvelopeDto,
  WebhookEndpointWithSecretDto,
  WebhookEndpointWithSecretEnvelopeDto,
} from './dto/webhook-endpoint.dto';
import { DASHBOARD_EVENTS_PATH, WEBHOOK_ENDPOINTS_PATH } from './events.routes';
import { Changer, WebhookEndpoints } from './webhook-endpoints.service';

const TAG = 'Dashboard: webhooks';
const ONE = `${WEBHOOK_ENDPOINTS_PATH}/:webhookEndpointId`;
const CHANGERS = { roles: ['owner' as const, 'developer' as const] };

const ENDPOINT_EXAMPLE: WebhookEndpointDto = {
  webhookEndpointId: 'we_0a1b2c3d4e5f60718293a4b5',
  url: 'https://api.acme.example/webhooks/payments',
  enabledEvents: ['payment_intent.succeeded', 'withdrawal.failed'],
  description: 'Order service',
  disabled: false,
  disabledReason: null,
  failingSince: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  updatedAt: '2026-11-25T10:00:00.000Z',
};
const WITH_SECRET = { ...ENDPOINT_EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwJm0KxW1hX7s=' };

function changer(user: DashboardPrincipal, request: FastifyRequest): Changer {
  return { principal: user, ip: request.ip };
}

/** The merchant's webhook endpoints, for the dashboard: developers and owners change them, every role reads them, only an owner reveals a secret. */
@Controller()
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  @Operation({
    method: 'GET',
    dashboard: { path: WEBHOOK_ENDPOINTS_PATH, tag: TAG },
    operationId: 'listWebhookEndpoints',
    summary: "The merchant's webhook endpoints, newest first",
    answer: 'Webhook endpoints retrieved',
    success: {
      status: 200,
      type: WebhookEndpointListEnvelopeDto,
      description: 'A page of endpoints',
      headers: LIST_HEADERS,
      example: { message: 'Webhook endpoints retrieved', response: [ENDPOINT_EXAMPLE] },
    },
    errors: ['validation_failed', 'invalid_cursor'],
  })
  async list(
    @CurrentUser() user: DashboardPrincipal,
    @Query() query: ListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookEndpointDto[]> {
    return sendPage(reply, await this.endpoints.list(user.merchantId, query));
  }

  @Operation({
    method: 'POST',
    dashboard: { path: WEBHOOK_ENDPOINTS_PATH, tag: TAG, ...CHANGERS },
    operationId: 'createWebhookEndpoint',
    summary: 'Create a webhook endpoint',
    description: 'The answer carries the signing secret (`secret`): store it now; later only an owner can reveal it. At most 16 endpoints per merchant.',
    answer: 'Webhook endpoint created',
    success: {
      status: 201,
      type: WebhookEndpointWithSecretEnvelopeDto,
      description: 'Created',
      example: { message: 'Webhook endpoint created', response: WITH_SECRET },
    },
    body: { type: CreateWebhookEndpointDto, example: { url: 'https://api.acme.example/webhooks/payments', enabledEvents: ['payment_intent.succeeded'] } },
    errors: ['webhook_url_not_allowed', 'webhook_endpoint_limit'],
  })
  create(
    @CurrentUser() user: DashboardPrincipal,
    @Body() dto: CreateWebhookEndpointDto,
    @Req() request: FastifyRequest,
  ): Promise<WebhookEndpointWithSecretDto> {
    return this.endpoints.create(changer(user, request), dto);
  }

  @Operation({
    method: 'GET',
    dashboard: { path: ONE, tag: TAG },
    operationId: 'getWebhookEndpoint',
    summary: 'Retrieve a webhook endpoint (never its secret)',
    answer: 'Webhook endpoint retrieved',
    success: {
      status: 200,
      type: WebhookEndpointEnvelopeDto,
      description: 'The endpoint',
      example: { message: 'Webhook endpoint retrieved', response: ENDPOINT_EXAMPLE },
    },
    errors: ['resource_not_found', 'uri_too_long'],
  })
  get(@CurrentUser() user: DashboardPrincipal, @Param('webhookEndpointId') id: string): Promise<WebhookEndpointDto> {
    return this.endpoints.get(user.merchantId, id);
  }

  @Operation({
    method: 'PATCH',
    dashboard: { path: ONE, tag: TAG, ...CHANGERS },
    operationId: 'updateWebhookEndpoint',
    summary: 'Change the URL, the events, the description, or disable and enable it',
    answer: 'Webhook endpoint updated',
    success: { status: 200, type: WebhookEndpointEnvelopeDto, description: 'The endpoint as it now is' },
    body: { type: UpdateWebhookEndpointDto, example: { disabled: true } },
    errors: ['resource_not_found', 'webhook_url_not_allowed'],
  })
  update(
    @CurrentUser() user: DashboardPrincipal,
    @Param('webhookEndpointId') id: string,
    @Body() dto: UpdateWebhookEndpointDto,
    @Req() request: FastifyRequest,
  ): Promise<WebhookEndpointDto> {
    return this.endpoints.update(changer(user, request), id, dto);
  }

  @Operation({
    method: 'DELETE',
    dashboard: { path: ONE, tag: TAG, ...CHANGERS },
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint and its delivery history',
    answer: 'Webhook endpoint deleted',
    success: { status: 200, type: WebhookEndpointEnvelopeDto, description: 'The endpoint as it was' },
    errors: ['resource_not_found'],
  })
  remove(@CurrentUser() user: DashboardPrincipal, @Param('webhookEndpointId') id: string, @Req() request: FastifyRequest): Promise<WebhookEndpointDto> {
    return this.endpoints.remove(changer(user, request), id);
  }

  @Operation({
    method: 'POST',
    dashboard: { path: `${ONE}/rotate-secret`, tag: TAG, ...CHANGERS },
    operationId: 'rotateWebhookSecret',
    summary: 'Replace the signing secret; the old one keeps signing beside the new one for 24 hours',
    description:
      'During the overlap each delivery carries two signatures in `webhook-signature`, one per secret: move your receiver to the new secret within the day.',
    answer: 'Webhook secret rotated',
    success: { status: 201, type: WebhookEndpointWithSecretEnvelopeDto, description: 'The endpoint with its new secret, shown this once' },
    errors: ['resource_not_found'],
  })
  rotate(
    @CurrentUser() user: DashboardPrincipal,
    @Param('webhookEndpointId') id: string,
    @Req() request: FastifyRequest,
  ): Promise<WebhookEndpointWithSecretDto> {
    return this.endpoints.rotate(changer(user, request), id);
  }

  @Operation({
    method: 'POST',
    dashboard: { path: `${ONE}/reveal-secret`, tag: TAG, roles: ['owner'] },
    operationId: 'revealWebhookSecret',
    summary: 'Show the current signing secret (recorded in the audit log)',
    answer: 'Webhook secret revealed',
    success: { status: 200, type: WebhookEndpointWithSecretEnvelopeDto, description: 'The endpoint with its secret' },
    errors: ['resource_not_found'],
  })
  reveal(
    @CurrentUser() user: DashboardPrincipal,
    @Param('webhookEndpointId') id: string,
    @Req() request: FastifyRequest,
  ): Promise<WebhookEndpointWithSecretDto> {
    return this.endpoints.reveal(changer(user, request), id);
  }

  @Operation({
    method: 'POST',
    dashboard: { path: `${ONE}/test`, tag: TAG, ...CHANGERS },
    operationId: 'testWebhookEndpoint',
    summary: 'Send the endpoint a `webhook_endpoint.test` event',
    description: 'The event is sent to this endpoint alone, whatever events it takes; its attempts appear in the deliveries like any other.',
    answer: 'Test event sent',
    success: { status: 202, type: WebhookEndpointEnvelopeDto, description: 'Queued' },
    errors: ['resource_not_found'],
  })
  test(@CurrentUser() user: DashboardPrincipal, @Param('webhookEndpointId') id: string, @Req() request: FastifyRequest): Promise<WebhookEndpointDto> {
    return this.endpoints.test(changer(user, request), id);
  }

  @Operation({
    method: 'GET',
    dashboard: { path: `${ONE}/deliveries`, tag: TAG },
    operationId: 'listWebhookDeliveries',
    summary: "The endpoint's delivery attempts, newest first",
    description:
      'Each attempt: its event, its number in the round, when, the answer’s status code, how long it took, the first 1 KB of the answer, and when the next is due.',
    answer: 'Deliveries retrieved',
    success: { status: 200, type: WebhookAttemptListEnvelopeDto, description: 'A page of attempts', headers: LIST_HEADERS },
    errors: ['resource_not_found', 'validation_failed', 'invalid_cursor'],
  })
  async deliveries(
    @CurrentUser() user: DashboardPrincipal,
    @Param('webhookEndpointId') id: string,
    @Query() query: ListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookAttemptDto[]> {
    return sendPage(reply, await this.endpoints.deliveries(user.merchantId, id, query));
  }

  @Operation({
    method: 'POST',
    dashboard: { path: `${ONE}/recover`, tag: TAG, ...CHANGERS },
    operationId: 'recoverWebhookEvents',
    summary: 'Resend every event since a time that the endpoint has not acknowledged',
    answer: 'Events queued again',
    success: {
      status: 202,
      type: RecoveredEnvelopeDto,
      description: 'How many were queued',
      example: { message: 'Events queued again', response: { resent: 12 } },
    },
    body: { type: RecoverEventsDto, example: { since: '2026-11-24T00:00:00Z' } },
    errors: ['resource_not_found'],
  })
  recover(
    @CurrentUser() user: DashboardPrincipal,
    @Param('webhookEndpointId') id: string,
    @Body() dto: RecoverEventsDto,
    @Req() request: FastifyRequest,
  ): Promise<RecoveredDto> {
    return this.endpoints.recover(changer(user, request), id, new Date(dto.since));
  }

  @Operation({
    method: 'POST',
    dashboard: { path: `${DASHBOARD_EVENTS_PATH}/:eventId/resend`, tag: 'Dashboard: events', ...CHANGERS },
    operationId: 'resendEvent',
    summary: 'Send one event to one endpoint again',
    answer: 'Event queued again',
    success: { status: 202, type: WebhookEndpointEnvelopeDto, description: 'Queued for the endpoint' },
    body: { type: ResendEventDto, example: { webhookEndpointId: 'we_0a1b2c3d4e5f60718293a4b5' } },
    errors: ['resource_not_found'],
  })
  resend(
    @CurrentUser() user: DashboardPrincipal,
    @Param('eventId') eventId: string,
    @Body() dto: ResendEventDto,
    @Req() request: FastifyRequest,
  ): Promise<WebhookEndpointDto> {
    return this.endpoints.resend(changer(user, request), eventId, dto.webhookEndpointId);
  }
}
