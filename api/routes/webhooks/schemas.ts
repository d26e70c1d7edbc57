import { z } from 'zod';
import { DELIVERY_STATUSES } from '../../../shared/db/entities/webhook-delivery';
import { OUTBOUND_URL_MAX_LENGTH } from '../../../shared/net/outbound-url';
import { WEBHOOK_EVENTS } from '../../../shared/webhooks/events';
import { pageOf, pageQuery } from '../../paging/page';
import { idParam, idParams, isoTime } from '../../wire';

/** Wire shapes of the webhook endpoints (docs/spec/contract.md §1, §7): snake_case, as the spec writes them. */

/** Live (not deleted) subscriptions a user may hold at once. */
export const MAX_WEBHOOKS_PER_USER = 20;

const known = new Set<string>(WEBHOOK_EVENTS);

export const webhookEvents = z
  .array(z.string().max(64, { error: 'each event must be at most 64 characters' }), {
    error: 'must be an array of event names',
  })
  .max(WEBHOOK_EVENTS.length * 2, { error: 'has too many entries' })
  .superRefine((events, ctx) => {
    const unknown = events.find((event) => !known.has(event));
    if (unknown !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown event "${unknown}"; GET /me/webhooks/events lists them`,
      });
    }
  })
  // Duplicates are harmless to the client but would double nothing; keep the first of each.
  .transform((events) => [...new Set(events)])
  .default([])
  .describe('Event names from GET /me/webhooks/events; empty or omitted means every event');

export const createWebhookBody = z.strictObject({
  url: z
    .string({
      error: (issue) => (issue.input === undefined ? 'is required' : 'must be an https URL'),
    })
    .max(OUTBOUND_URL_MAX_LENGTH, {
      error: `must be at most ${OUTBOUND_URL_MAX_LENGTH} characters`,
    })
    .describe('https; must resolve to a public address (WEBHOOK_ALLOWED_HOSTS exempts hosts)'),
  events: webhookEvents,
});

export type CreateWebhookInput = z.output<typeof createWebhookBody>;

export const webhookIdParams = idParams;
export const deliveryIdParams = webhookIdParams.extend({ deliveryId: idParam });

const lastErrorSchema = z
  .object({
    at: isoTime,
    delivery_id: z.string(),
    status: z.number().int().nullable().describe('The receiver’s status; null on network error'),
    error: z.string(),
  })
  .nullable()
  .describe('The last delivery that failed after all its retries; null if none has');

export const webhookSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.string()).describe('Empty means every event, including future ones'),
    created_at: isoTime,
    last_error: lastErrorSchema,
  })
  .meta({ id: 'Webhook' });

export const createdWebhookSchema = z
  .object({
    webhook: webhookSchema.extend({
      secret: z.string().describe('whsec_…; signs deliveries; shown in this response only'),
    }),
  })
  .meta({ id: 'CreatedWebhook' });

export const webhookListSchema = z
  .object({ items: z.array(webhookSchema) })
  .meta({ id: 'WebhookList' });

export const eventCatalogSchema = z
  .object({ events: z.array(z.string()) })
  .meta({ id: 'WebhookEventCatalog' });

export const deliveryStartedSchema = z
  .object({ delivery_id: z.uuid() })
  .meta({ id: 'WebhookDeliveryStarted' });

export const deliverySchema = z
  .object({
    id: z.uuid(),
    event: z.string(),
    event_id: z.string().describe('The envelope id (`webhook-id`); receivers dedupe by it'),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.array(
      z.object({
        attempt: z.number().int(),
        started_at: isoTime,
        status_code: z.number().int().nullable(),
        duration_ms: z.number().int(),
        error: z.string().nullable(),
      }),
    ),
    created_at: isoTime,
    completed_at: isoTime.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

export const deliveryPageSchema = pageOf(deliverySchema).meta({ id: 'WebhookDeliveryPage' });

export const deliveryListQuery = z.object({ ...pageQuery });

export const deletedResponse = z.null().describe('Deleted');

/** What each service takes: the path's ids beside the parsed query. */
export type WebhookIdInput = z.output<typeof webhookIdParams>;
export type DeliveryIdInput = z.output<typeof deliveryIdParams>;
export type DeliveryListInput = WebhookIdInput & z.output<typeof deliveryListQuery>;
