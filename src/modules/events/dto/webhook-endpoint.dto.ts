import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsBoolean, IsIn, IsOptional, IsString, Length, MaxLength, ValidateIf } from 'class-validator';
import { IsDisplayText } from '../../../common/validation/display-text.validator';
import { IsTimestamp } from '../../../common/validation/timestamp.validator';
import { EVENT_TYPES } from '../event.types';

/** What an endpoint may subscribe to: any event type, or `*` for all of them. */
export const ENABLED_EVENT_CHOICES = ['*', ...EVENT_TYPES] as const;

/** Longest URL an endpoint may have. */
const MAX_URL = 2048;

export class CreateWebhookEndpointDto {
  @ApiProperty({ example: 'https://api.acme.example/webhooks/payments', description: 'Where events are POSTed: https:// in production' })
  @IsString()
  @Length(1, MAX_URL)
  url: string;

  @ApiProperty({
    enum: ENABLED_EVENT_CHOICES,
    isArray: true,
    example: ['payment_intent.succeeded', 'withdrawal.failed'],
    description: 'Event types to send, or `["*"]` for all',
  })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(ENABLED_EVENT_CHOICES.length)
  @IsIn(ENABLED_EVENT_CHOICES, { each: true })
  enabledEvents: string[];

  @ApiPropertyOptional({ type: String, example: 'Order service', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @IsDisplayText()
  description?: string | null;
}

export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ example: 'https://api.acme.example/webhooks/v2' })
  @IsOptional()
  @IsString()
  @Length(1, MAX_URL)
  url?: string;

  @ApiPropertyOptional({ enum: ENABLED_EVENT_CHOICES, isArray: true, example: ['*'] })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(ENABLED_EVENT_CHOICES.length)
  @IsIn(ENABLED_EVENT_CHOICES, { each: true })
  enabledEvents?: string[];

  @ApiPropertyOptional({ type: String, example: 'Order service', nullable: true, description: 'null removes it' })
  @ValidateIf((_dto: object, value: unknown) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(200)
  @IsDisplayText()
  description?: string | null;

  @ApiPropertyOptional({ example: false, description: 'true stops deliveries; false turns them on again (and clears a disabling by the service)' })
  @IsOptional()
  @IsBoolean()
  disabled?: boolean;
}

export class WebhookEndpointDto {
  @ApiProperty({ example: 'we_0a1b2c3d4e5f60718293a4b5' })
  webhookEndpointId: string;

  @ApiProperty({ example: 'https://api.acme.example/webhooks/payments' })
  url: string;

  @ApiProperty({ type: [String], example: ['payment_intent.succeeded', 'withdrawal.failed'] })
  enabledEvents: string[];

  @ApiProperty({ type: String, nullable: true, example: 'Order service' })
  description: string | null;

  @ApiProperty({ example: false })
  disabled: boolean;

  @ApiProperty({
    enum: ['user', 'gone', 'failing', null],
    nullable: true,
    type: String,
    example: null,
    description: 'Why it is disabled: by a user, by its own `410 Gone`, or after failing every attempt for 5 days',
  })
  disabledReason: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
    description: 'Since when every attempt has failed (null: the last one delivered)',
  })
  failingSince: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-25T10:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-25T10:00:00.000Z' })
  updatedAt: string;
}

export class WebhookEndpointWithSecretDto extends WebhookEndpointDto {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'The signing secret: `whsec_` and the base64 of 32 random bytes' })
  secret: string;
}

export class WebhookEndpointEnvelopeDto {
  @ApiProperty({ example: 'Webhook endpoint retrieved' })
  message: string;

  @ApiProperty({ type: WebhookEndpointDto })
  response: WebhookEndpointDto;
}

export class WebhookEndpointWithSecretEnvelopeDto {
  @ApiProperty({ example: 'Webhook endpoint created' })
  message: string;

  @ApiProperty({ type: WebhookEndpointWithSecretDto })
  response: WebhookEndpointWithSecretDto;
}

export class WebhookEndpointListEnvelopeDto {
  @ApiProperty({ example: 'Webhook endpoints retrieved' })
  message: string;

  @ApiProperty({ type: [WebhookEndpointDto] })
  response: WebhookEndpointDto[];
}

export class WebhookAttemptDto {
  @ApiProperty({ example: 'wha_0a1b2c3d4e5f60718293a4b5' })
  webhookAttemptId: string;

  @ApiProperty({ example: 'evt_1f0c2a4b6d8e0f1a3c5e7a9b' })
  eventId: string;

  @ApiProperty({ example: 'payment_intent.succeeded' })
  eventType: string;

  @ApiProperty({ example: 1, description: 'The attempt of its round (a resend starts a new round)' })
  attempt: number;

  @ApiProperty({ format: 'date-time', example: '2026-11-25T10:00:00.000Z' })
  attemptedAt: string;

  @ApiProperty({ type: Number, nullable: true, example: 200, description: 'The answer’s status; null when none came' })
  statusCode: number | null;

  @ApiProperty({ example: 84 })
  durationMs: number;

  @ApiProperty({ example: '{"received":true}', description: 'The first 1 KB of the answer' })
  responseBody: string;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Why no answer counted (timeout, connection refused, …)' })
  error: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
    description: 'When the next attempt is due; null when delivered or given up',
  })
  nextRetryAt: string | null;
}

export class WebhookAttemptListEnvelopeDto {
  @ApiProperty({ example: 'Deliveries retrieved' })
  message: string;

  @ApiProperty({ type: [WebhookAttemptDto] })
  response: WebhookAttemptDto[];
}

export class ResendEventDto {
  @ApiProperty({ example: 'we_0a1b2c3d4e5f60718293a4b5' })
  @IsString()
  @MaxLength(64)
  webhookEndpointId: string;
}

export class RecoverEventsDto {
  @ApiProperty({ format: 'date-time', example: '2026-11-24T00:00:00Z', description: 'Resend every event since then the endpoint has not acknowledged' })
  @IsTimestamp()
  since: string;
}

export class RecoveredDto {
  @ApiProperty({ example: 12, description: 'How many events were queued again' })
  resent: number;
}

export class RecoveredEnvelopeDto {
  @ApiProperty({ example: 'Events queued again' })
  message: string;

  @ApiProperty({ type: RecoveredDto })
  response: RecoveredDto;
}
