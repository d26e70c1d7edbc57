import type { EntityManager } from '@mikro-orm/postgresql';
import { OUTBOX_BATCH } from '../../shared/temporal/workflow-constants';

export interface OutboxBatch {
  /** The outbox rows this call handled; mark them with `markOutboxDispatched` once their deliveries run. */
  outboxEventIds: string[];
  /** Deliveries of those rows still `pending` (new or found again): start a workflow for each. */
  deliveryIds: string[];
}

/**
 * Turns undispatched outbox rows into one delivery per matching live subscription, in one
 * statement (one transaction). It does NOT mark the rows dispatched: that happens only after
 * the deliveries' workflows were started, so a crash anywhere in between leaves the rows
 * undispatched and the next call finds the same deliveries again (the unique
 * (outbox_event_id, webhook_id) makes the insert a no-op) and returns those still pending.
 *
 * `skip locked` lets a second dispatcher (there should be one per deployment) skip rows the
 * first is reading instead of waiting; handling a row twice is harmless for the same reason.
 */
export async function dispatchOutbox(
  em: EntityManager,
  batchSize: number = OUTBOX_BATCH,
): Promise<OutboxBatch> {
  const [row] = await em.execute<{ outbox_ids: string[]; delivery_ids: string[] }[]>(
    `with batch as (
       select id, user_id, event, data, created_at from outbox_events
       where dispatched_at is null
       order by created_at, id
       limit ?
       for update skip locked
     ), inserted as (
       insert into webhook_deliveries
         (id, webhook_id, outbox_event_id, event, payload, status, attempts, created_at)
       select gen_random_uuid(), w.id, b.id, b.event,
         jsonb_build_object(
           'id', b.id,
           'event', b.event,
           'user_id', b.user_id,
           'created_at', to_char(b.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'data', b.data),
         'pending', 0, now()
       from batch b
       join webhooks w on w.user_id = b.user_id and w.deleted_at is null
         and (cardinality(w.events) = 0 or b.event = any(w.events))
       on conflict (outbox_event_id, webhook_id) do nothing
       returning id
     ), found as (
       -- Inserted by an earlier call whose workflows may never have started (a crash).
       select d.id from webhook_deliveries d join batch b on d.outbox_event_id = b.id
       where d.status = 'pending'
     )
     select
       (select coalesce(array_agg(id::text), '{}') from batch) as outbox_ids,
       (select coalesce(array_agg(id::text), '{}') from
         (select id from inserted union select id from found) ids) as delivery_ids`,
    [batchSize],
  );
  return { outboxEventIds: row?.outbox_ids ?? [], deliveryIds: row?.delivery_ids ?? [] };
}

/** Marks outbox rows done: their deliveries exist and their workflows were started. */
export async function markOutboxDispatched(
  em: EntityManager,
  outboxEventIds: readonly string[],
): Promise<void> {
  if (outboxEventIds.length === 0) return;
  await em.execute(
    // The driver expands an array binding into a list, hence `in (?)`.
    `update outbox_events set dispatched_at = now() where id in (?) and dispatched_at is null`,
    [outboxEventIds],
  );
}
