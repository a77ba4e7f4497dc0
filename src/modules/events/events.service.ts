import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { isId, newId } from '../../common/ids/ids';
import { listPage, Page } from '../../common/paging';
import type { StatementPart } from '../../common/persistence/statement-part';
import { JobHandler } from '../../jobs';
import type { EventDto, EventListQuery } from './dto/event.dto';
import { mapEvent } from './event.mapper';
import { EVENT_RETENTION_DAYS, EventType } from './event.types';
import type { WebhookEndpointDto } from './dto/webhook-endpoint.dto';
import { endpointOrNotFound, EventNotFoundError } from './events.errors';
import { EVENTS_JOBS } from './events.jobs';
import { EventsRepository, NewEvent } from './events.repository';
import { WebhooksRepository } from './webhooks.repository';

/** What happened to which object: `object` is the object as its GET answers right after the change. */
export interface NewEventOf {
  merchantId: string;
  type: EventType;
  objectId: string;
  object: unknown;
}

const PRUNE_BATCH = 10_000;

function newEvent(event: NewEventOf): NewEvent {
  return { id: newId('evt'), merchantId: event.merchantId, type: event.type, objectId: event.objectId, data: JSON.stringify(event.object) };
}

/**
 * The merchant's events: recorded by the module that owns the object, in the transaction of the
 * change (a change that rolls back leaves no event; none commits without its event), read through
 * the API, kept `EVENT_RETENTION_DAYS` days.
 */
@Injectable()
export class EventsService {
  constructor(
    private readonly repository: EventsRepository,
    private readonly webhooks: WebhooksRepository,
  ) {}

  /** Records `events`, in this order, in the transaction of the change they describe. */
  record(manager: EntityManager, ...events: NewEventOf[]): Promise<void> {
    return this.insert(manager, events);
  }

  /**
   * `record` as a part of the statement of the change the events describe (see `StatementPart`):
   * written only when the CTE `after` of that statement has a row.
   */
  recordPart(after: string, ...events: NewEventOf[]): StatementPart {
    return this.repository.insertPart(events.map(newEvent), null, after);
  }

  /** A `webhook_endpoint.test` event about the endpoint, owed to it alone. */
  recordTest(manager: EntityManager, merchantId: string, endpoint: WebhookEndpointDto): Promise<void> {
    const id = endpoint.webhookEndpointId;
    return this.insert(manager, [{ merchantId, type: 'webhook_endpoint.test', objectId: id, object: endpoint }], id);
  }

  async get(merchantId: string, id: string): Promise<EventDto> {
    const row = isId('evt', id) ? await this.repository.findOwned(merchantId, id) : undefined;
    if (!row) throw new EventNotFoundError();
    return mapEvent(row);
  }

  async list(merchantId: string, query: EventListQuery): Promise<Page<EventDto>> {
    const filter = {
      types: query.type,
      createdAfter: query.createdAfter ? new Date(query.createdAfter) : undefined,
      undeliveredTo: query.undeliveredTo === undefined ? undefined : await this.endpointOf(merchantId, query.undeliveredTo),
    };
    return listPage(
      query,
      'evt',
      (limit, after) => this.repository.list(merchantId, filter, limit, after),
      mapEvent,
      (event) => event.eventId,
    );
  }

  private async endpointOf(merchantId: string, id: string): Promise<{ endpointId: string; enabledEvents: string[] }> {
    const endpoint = endpointOrNotFound(await this.webhooks.findOwned(merchantId, id));
    return { endpointId: endpoint.id, enabledEvents: endpoint.enabledEvents };
  }

  /** The events' deliveries are owed to every endpoint taking them, or to `onlyTo` alone. */
  private async insert(manager: EntityManager, events: NewEventOf[], onlyTo?: string): Promise<void> {
    if (events.length === 0) return;
    await this.repository.insert(manager, events.map(newEvent), onlyTo);
  }

  /** Removes what is past the retention, a batch at a time until none is left. */
  @JobHandler(EVENTS_JOBS.prune)
  async prune(): Promise<void> {
    while ((await this.repository.deleteOlderThan(EVENT_RETENTION_DAYS, PRUNE_BATCH)) === PRUNE_BATCH);
  }
}
