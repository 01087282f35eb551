import { z } from 'zod';
import { WEBHOOK_EVENT_DATA, WEBHOOK_EVENT_TYPES } from '../../shared/schemas/webhook-events';

/**
 * The document's `webhooks` section (OpenAPI 3.1): one entry per event type, the POST the portal
 * makes to a registered endpoint. Its body is the envelope `{type, timestamp, data}` with `data`
 * as shared/schemas/webhook-events.ts says it is sent; the headers are Standard Webhooks'.
 */

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A zod schema as the document writes an answer: named shapes by reference, objects closed. */
export function outputJsonSchema(schema: z.ZodType): Json {
  const named = z.globalRegistry.get(schema)?.id;
  if (named) return ref(named);
  const single = z.registry<{ id: string }>();
  single.add(schema, { id: 'root' });
  const { schemas } = z.toJSONSchema(single, {
    target: 'draft-2020-12',
    io: 'output',
    metadata: z.globalRegistry,
    unrepresentable: 'any',
    cycles: 'ref',
    reused: 'inline',
    // zod writes a reference to another named schema as `<uri>#/$defs/<id>`: a marker, made a
    // component reference below (as fastify-type-provider-zod does for the operations).
    uri: () => MARKER,
  });
  const { $id: _id, $schema: _schema, id: _name, ...rest } = (schemas.root ?? {}) as Json;
  return JSON.parse(JSON.stringify(rest), (_key, value) =>
    typeof value === 'string' && value.startsWith(MARKER)
      ? `#/components/schemas/${value.slice(MARKER.length).replace(/^#\/(?:\$defs|definitions|components\/schemas)\//, '')}`
      : value,
  );
}

const MARKER = 'urn:portal:schema:';

const HEADER_PARAMETERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: "The event's id, the same on every retry: deduplicate on it",
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Seconds since the epoch, of this attempt',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the base64-decoded ' +
      'part of the endpoint secret after `whsec_` (Standard Webhooks): verify it on the raw body',
    schema: { type: 'string', pattern: '^v1,' },
  },
];

const DATA_NAMES: Record<string, string> = {
  'document.uploaded': 'ChecklistItemEventData',
  'key_date.due': 'KeyDateEventData',
  'cda.issued': 'CdaEventData',
  'signature.completed': 'SignatureRequestEventData',
  ping: 'PingEventData',
};

const pascal = (type: string) =>
  type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/** The `webhooks` section and the schemas it names (to add under components.schemas). */
export function webhooksSection(): { webhooks: Json; schemas: Record<string, Json> } {
  const schemas: Record<string, Json> = {};
  const dataByShape = new Map<string, Json>();
  const webhooks: Json = {};
  for (const type of WEBHOOK_EVENT_TYPES) {
    let data = outputJsonSchema(WEBHOOK_EVENT_DATA[type]);
    if (typeof data.$ref !== 'string') {
      const shape = JSON.stringify(data);
      const known = dataByShape.get(shape);
      if (known) data = known;
      else {
        const name = DATA_NAMES[type] ?? `${pascal(type)}EventData`;
        schemas[name] = data;
        data = ref(name);
        dataByShape.set(shape, data);
      }
    }
    const envelope = `${pascal(type)}Event`;
    schemas[envelope] = {
      type: 'object',
      description: `The body of a \`${type}\` delivery`,
      properties: {
        type: { type: 'string', const: type },
        timestamp: { type: 'string', format: 'date-time', description: 'When the event happened' },
        data,
      },
      required: ['type', 'timestamp', 'data'],
      additionalProperties: false,
    };
    webhooks[type] = {
      post: {
        operationId: `webhook${pascal(type)}`,
        summary: `The \`${type}\` event`,
        description:
          'Posted to every active endpoint subscribed to this event (`ping`: the test button, to one endpoint), ' +
          'signed per Standard Webhooks. The body is fixed when the event happens: every retry sends the same bytes.',
        tags: ['webhooks'],
        security: [],
        parameters: HEADER_PARAMETERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref(envelope) } },
        },
        responses: {
          '200': { description: 'Received: any 2xx answer within 10 seconds is success' },
          '400': {
            description:
              'Any other answer, a redirect, a timeout or a refused connection is a failed attempt, retried later',
          },
        },
      },
    };
  }
  return { webhooks, schemas };
}
