import type { OpenAPIObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { EVENT_CATALOGUE, EVENT_TYPES, EventType } from './event.types';

type Schemas = Record<string, SchemaObject | ReferenceObject>;

const EXAMPLE_TIME = '2026-11-20T09:50:02.000Z';
const STRING_FORMATS: Record<string, string> = {
  'date-time': EXAMPLE_TIME,
  date: '2026-11-20',
  uri: 'https://api.merchant-payments.example/r/3f9a7c1e',
  email: 'ada@acme.example',
};

/** `payment_intent.succeeded` → `PaymentIntentSucceededEvent`. */
export function eventSchemaName(type: EventType): string {
  return `${type
    .split(/[._]/)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('')}Event`;
}

/**
 * A value of `schema` built from its examples (a property without one gets its first enum value,
 * or a value of its type), for the examples of event types: each carries an object as its GET
 * answers, so its example is the object's schema's own.
 */
function sample(schemas: Schemas, schema: SchemaObject | ReferenceObject | undefined, depth = 0): unknown {
  if (!schema || depth > 8) return null;
  if ('$ref' in schema) return sample(schemas, schemas[schema.$ref.replace('#/components/schemas/', '')], depth + 1);
  if (schema.example !== undefined) return schema.example;
  if (schema.enum) return schema.enum[0];
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => sample(schemas, part, depth + 1) as object));
  if (schema.oneOf) return sample(schemas, schema.oneOf[0], depth + 1);
  if (schema.nullable) return null;
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, sample(schemas, property, depth + 1)]));
    case 'array':
      return [sample(schemas, schema.items, depth + 1)];
    case 'string':
      return STRING_FORMATS[schema.format ?? ''] ?? 'string';
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/**
 * Gives every event type its own schema in the document (its `type`, and `data.object` the
 * schema of the object its GET answers with), with a description of the change that records it
 * and an example; the event schema becomes the one of them its `type` names. Clients generated
 * from the document get each event typed, and the suites' contract checks hold every event the
 * service answers to its type's schema.
 */
export function describeEventTypes(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Schemas;
  const event = schemas.EventDto as SchemaObject | undefined;
  if (!event?.properties) return;
  const mapping: Record<string, string> = {};
  for (const type of EVENT_TYPES) {
    const { object, when } = EVENT_CATALOGUE[type];
    if (!schemas[object]) throw new Error(`event ${type}: no schema ${object} in the document`);
    const name = eventSchemaName(type);
    mapping[type] = `#/components/schemas/${name}`;
    schemas[name] = {
      type: 'object',
      description: when,
      required: ['eventId', 'type', 'createdAt', 'objectVersion', 'data'],
      properties: {
        ...event.properties,
        type: { type: 'string', enum: [type] },
        data: {
          type: 'object',
          required: ['object'],
          properties: { object: { $ref: `#/components/schemas/${object}` } },
        },
      },
      example: {
        eventId: 'evt_1f0c2a4b6d8e0f1a3c5e7a9b',
        type,
        createdAt: EXAMPLE_TIME,
        objectVersion: 48213,
        data: { object: sample(schemas, schemas[object]) },
      },
    };
  }
  schemas.EventDto = {
    description: 'An event: one of the types below, told apart by `type`.',
    oneOf: Object.values(mapping).map(($ref) => ({ $ref })),
    discriminator: { propertyName: 'type', mapping },
  };
}
