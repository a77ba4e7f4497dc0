import { AppError } from '../../common/errors/app-error';

export class EventNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'Event not found');
  }
}

export class WebhookEndpointNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'Webhook endpoint not found');
  }
}

/** `found`, or the 404 of an endpoint that is not the merchant's. */
export function endpointOrNotFound<T>(found: T | undefined): T {
  if (found === undefined) throw new WebhookEndpointNotFoundError();
  return found;
}

export class WebhookUrlNotAllowedError extends AppError {
  constructor(why: string) {
    super('webhook_url_not_allowed', `This URL cannot receive webhooks: ${why}`, [{ field: 'url', message: why }]);
  }
}

export class WebhookEndpointLimitError extends AppError {
  constructor(limit: number) {
    super('webhook_endpoint_limit', `A merchant can have at most ${limit} webhook endpoints`);
  }
}
