import type { EventDto } from './dto/event.dto';
import type { EventType } from './event.types';
import type { EventRecord } from './events.repository';

/**
 * The event as the API answers and webhooks send it. `objectVersion` is the event's place in the
 * order of all events: every change of an object is made under the object's row lock and records
 * its event in that transaction, so a later change of the same object always has a larger one.
 */
export function mapEvent(row: EventRecord): EventDto {
  return {
    eventId: row.id,
    type: row.type as EventType,
    createdAt: row.createdAt.toISOString(),
    objectVersion: Number(row.seq),
    data: { object: JSON.parse(row.data) as Record<string, unknown> },
  };
}
