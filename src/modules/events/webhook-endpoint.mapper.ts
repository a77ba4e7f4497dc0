import type { WebhookAttemptDto, WebhookEndpointDto } from './dto/webhook-endpoint.dto';
import type { WebhookAttemptRecord, WebhookEndpointRecord } from './webhooks.repository';

export function mapWebhookEndpoint(row: WebhookEndpointRecord): WebhookEndpointDto {
  return {
    webhookEndpointId: row.id,
    url: row.url,
    enabledEvents: row.enabledEvents,
    description: row.description,
    disabled: row.disabled,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function mapWebhookAttempt(row: WebhookAttemptRecord): WebhookAttemptDto {
  return {
    webhookAttemptId: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    attempt: row.attempt,
    attemptedAt: row.attemptedAt.toISOString(),
    statusCode: row.statusCode,
    durationMs: row.durationMs,
    responseBody: row.responseBody,
    error: row.error,
    nextRetryAt: row.nextRetryAt?.toISOString() ?? null,
  };
}
