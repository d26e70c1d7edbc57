import type { EntityManager } from '@mikro-orm/postgresql';
import { isoUtc, sqlOf, statement } from '../../shared/db/sql';
import { OUTBOX_BATCH } from '../../shared/temporal/workflow-constants';

export interface OutboxBatch {
  /** The outbox rows this call handled; mark them with `markOutboxDispatched` once their deliveries run. */
  outboxEventIds: string[];
  /** Deliveries of those rows still `pending` (new or found again): start a workflow for each. */
  deliveryIds: string[];
}

interface DispatchRow {
  outboxIds: string[];
  deliveryIds: string[];
}

/** The dispatcher's batch in one statement (see `dispatchOutbox`). */
const dispatchBatch = statement<DispatchRow, [batchSize: number]>(
  'outbox.dispatch_batch',
  `with batch as (
     select id, user_id, event, data, created_at from outbox_events
     where dispatched_at is null
     order by created_at, id
     limit $1
     for update skip locked
   ), inserted as (
     insert into webhook_deliveries
       (id, webhook_id, outbox_event_id, event, payload, status, attempts, created_at)
     select gen_random_uuid(), w.id, b.id, b.event,
       jsonb_build_object(
         'id', b.id,
         'event', b.event,
         'user_id', b.user_id,
         'created_at', ${isoUtc('b.created_at')},
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
     (select coalesce(array_agg(id::text), '{}') from batch) as "outboxIds",
     (select coalesce(array_agg(id::text), '{}') from
       (select id from inserted union select id from found) ids) as "deliveryIds"`,
);

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
  const row = await sqlOf(em).row(dispatchBatch, [batchSize]);
  return { outboxEventIds: row?.outboxIds ?? [], deliveryIds: row?.deliveryIds ?? [] };
}

/** Outbox rows (one uuid[] parameter) done, unless already. */
const markDispatched = statement<Record<string, never>, [outboxEventIds: readonly string[]]>(
  'outbox.mark_dispatched',
  `update outbox_events set dispatched_at = now()
    where id = any($1::uuid[]) and dispatched_at is null`,
);

/** Marks outbox rows done: their deliveries exist and their workflows were started. */
export async function markOutboxDispatched(
  em: EntityManager,
  outboxEventIds: readonly string[],
): Promise<void> {
  if (outboxEventIds.length === 0) return;
  await sqlOf(em).run(markDispatched, [outboxEventIds]);
}
