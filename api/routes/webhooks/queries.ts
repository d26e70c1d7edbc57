import type { DeliveryStatus } from '../../../shared/db/entities/webhook-delivery';
import type { WebhookLastError } from '../../../shared/db/entities/webhook';
import { isoUtc, statement } from '../../../shared/db/sql';
import { keysetOrder } from '../../paging/keyset';

/** The webhook reads (decisions "Hot reads"): one prepared statement per response. */

export interface WebhookRow {
  id: string;
  url: string;
  events: string[];
  createdAt: string;
  lastError: WebhookLastError | null;
}

/** The caller's live subscriptions, oldest first (index `webhooks (user_id, created_at, id)`). */
export const liveWebhooks = statement<WebhookRow, [userId: number]>(
  'webhooks.live',
  `select id, url, events, ${isoUtc('created_at')} as "createdAt", last_error as "lastError"
     from webhooks
    where user_id = $1 and deleted_at is null
    order by created_at asc, id asc`,
);

/** Whether the caller has this live subscription (run by `access.ts`, `assertOwnedWebhook`). */
export const ownedWebhookId = statement<{ id: string }, [webhookId: string, userId: number]>(
  'webhooks.owned',
  'select id from webhooks where id = $1 and user_id = $2 and deleted_at is null',
);

/** An attempt of a delivery, as the page's JSON holds it. */
export interface AttemptRow {
  attempt: number;
  startedAt: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** A delivery of the page, with its attempts in order. */
export interface DeliveryRow {
  id: string;
  event: string;
  /** The envelope's `id` as JSON; `hasEventId` false when the envelope has none. */
  eventId: unknown;
  hasEventId: boolean;
  status: DeliveryStatus;
  createdAt: string;
  completedAt: string | null;
  attempts: AttemptRow[];
}

/**
 * The page's deliveries; or, for the caller's subscription when the page is empty, one row of
 * nulls. No row at all when the subscription is not the caller's (or is deleted): `access.ts`,
 * `ownedDeliveryPage`, runs it and refuses that.
 */
export type DeliveryPageRow = DeliveryRow | { [Field in keyof DeliveryRow]: null };

/** Newest first (index `webhook_deliveries (webhook_id, created_at, id)`). */
export const DELIVERY_ORDER = keysetOrder('desc', [
  { column: 'created_at', type: 'timestamptz', field: 'createdAt' },
  { column: 'id', type: 'uuid', field: 'id' },
]);

export const deliveryPage = statement<
  DeliveryPageRow,
  [webhookId: string, userId: number, ...after: string[], fetch: number]
>(
  'webhooks.delivery_page',
  `select d.id, d.event, d.payload -> 'id' as "eventId", d.payload ? 'id' as "hasEventId",
          d.status, ${isoUtc('d.created_at')} as "createdAt",
          ${isoUtc('d.completed_at')} as "completedAt",
          case when d.id is not null then
            (select coalesce(jsonb_agg(jsonb_build_object(
                      'attempt', a.attempt,
                      'startedAt', ${isoUtc('a.started_at')},
                      'statusCode', a.status_code,
                      'durationMs', a.duration_ms,
                      'error', a.error) order by a.attempt), '[]')
               from webhook_delivery_attempts a
              where a.delivery_id = d.id)
          end as attempts
     from webhooks w
     left join lateral (
       select id, event, payload, status, created_at, completed_at
         from webhook_deliveries
        where webhook_id = w.id and ${DELIVERY_ORDER.after(3)}
        order by ${DELIVERY_ORDER.orderBy}
        limit $${3 + DELIVERY_ORDER.arity}) as d on true
    where w.id = $1 and w.user_id = $2 and w.deleted_at is null
    order by d.created_at desc, d.id desc`,
);
