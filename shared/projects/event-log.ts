import type { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import { sqlOf, statement, type Sql } from '../db/sql';
import {
  PROJECT_EVENTS_KEPT,
  type NewProjectEvent,
  type ProjectEventType,
  type ProjectStreamEvent,
} from './events';

/** An event as the log stores it. */
interface EventRow {
  /** int8, a string. */
  seq: string;
  type: ProjectEventType;
  data: Record<string, unknown>;
}

/** A logged event with its key (the append's idempotency check). */
interface KeyedEventRow extends EventRow {
  eventKey: string;
}

/** The project's counter, its row locked: appenders of one project queue up behind it. */
interface LastEventSeqRow {
  /** int8, a string. */
  lastEventSeq: string;
}
const lockEventCounter = statement<LastEventSeqRow, [projectId: string]>(
  'project_events.lock_counter',
  'select last_event_seq as "lastEventSeq" from projects where id = $1 for update',
);

/** The events of a batch already logged (a retried step), by key. */
const eventsByKey = statement<KeyedEventRow, [projectId: string, keys: string[]]>(
  'project_events.by_key',
  `select seq, type, data, event_key as "eventKey" from project_events
    where project_id = $1 and event_key = any($2::text[])`,
);

/** One record of `insertEvents`' batch. */
interface EventRecord {
  seq: number;
  type: ProjectEventType;
  data: Record<string, unknown>;
  key: string;
}

/** A batch of new events in one statement: its records as one JSON array. */
const insertEvents = statement<
  Record<string, never>,
  [projectId: string, runId: string, records: string]
>(
  'project_events.insert_batch',
  `insert into project_events (project_id, seq, run_id, type, data, event_key, created_at)
   select $1::uuid, e.seq, $2::uuid, e.type, e.data, e.key, now()
     from jsonb_to_recordset($3::jsonb) as e(seq bigint, type text, data jsonb, key text)`,
);

const setEventCounter = statement<Record<string, never>, [last: number, projectId: string]>(
  'project_events.set_counter',
  'update projects set last_event_seq = $1 where id = $2',
);

/** Drops the events at or below `seq` (those older than the kept window). */
const trimEvents = statement<Record<string, never>, [projectId: string, seq: number]>(
  'project_events.trim',
  'delete from project_events where project_id = $1 and seq <= $2',
);

/** Events after a `seq`, oldest first (the primary key `(project_id, seq)` in order). */
const eventsAfter = statement<EventRow, [projectId: string, afterSeq: number, limit: number]>(
  'project_events.after',
  `select seq, type, data from project_events
    where project_id = $1 and seq > $2 order by seq limit $3`,
);

function toStreamEvent(row: EventRow): ProjectStreamEvent {
  return { seq: Number(row.seq), type: row.type, data: row.data };
}

/**
 * Appends a step's events to the project's log and returns them with their sequence numbers.
 *
 * - Gap-free: the project row is locked and its counter bumped in the same transaction as the
 *   inserts, so a rolled-back append leaves no hole and concurrent appenders queue up.
 * - Idempotent: an event whose `key` is already logged is not written again; its stored
 *   version is returned instead, so a retried step republishes rather than duplicates.
 * - One statement per batch: the new events are inserted together, their values bound as one
 *   JSON array.
 * - Bounded: events older than the last 1000 of the project are deleted.
 */
export async function appendProjectEvents(
  em: EntityManager,
  projectId: string,
  runId: string,
  events: NewProjectEvent[],
): Promise<ProjectStreamEvent[]> {
  if (events.length === 0) return [];
  return em.transactional(async (tx) => {
    const sql = sqlOf(tx);
    const project = await sql.row(lockEventCounter, [projectId]);
    if (!project) throw new Error(`project ${projectId} does not exist`);
    const stored = await sql.rows(eventsByKey, [projectId, events.map((event) => event.key)]);
    const byKey = new Map(stored.map((row) => [row.eventKey, toStreamEvent(row)]));
    const start = Number(project.lastEventSeq);
    let last = start;
    const result: ProjectStreamEvent[] = [];
    const records: EventRecord[] = [];
    for (const event of events) {
      const existing = byKey.get(event.key);
      if (existing) {
        result.push(existing);
        continue;
      }
      last += 1;
      const data = event.data as Record<string, unknown>;
      records.push({ seq: last, type: event.type, data, key: event.key });
      const appended: ProjectStreamEvent = { seq: last, type: event.type, data };
      byKey.set(event.key, appended);
      result.push(appended);
    }
    if (last !== start) {
      await sql.run(insertEvents, [projectId, runId, JSON.stringify(records)]);
      await sql.run(setEventCounter, [last, projectId]);
      await sql.run(trimEvents, [projectId, last - PROJECT_EVENTS_KEPT]);
    }
    return result;
  });
}

/** Events of a project with `seq` above `afterSeq`, oldest first. */
export async function readProjectEvents(
  sql: Sql,
  projectId: string,
  afterSeq: number,
  limit = PROJECT_EVENTS_KEPT,
): Promise<ProjectStreamEvent[]> {
  const rows = await sql.rows(eventsAfter, [projectId, afterSeq, limit]);
  return rows.map(toStreamEvent);
}

/**
 * Publishes events to every API instance. Pub/sub is fire-and-forget: an instance that misses
 * a message notices the gap in `seq` and reads the log, so publishing is best effort. Rejects
 * when a publish failed (Redis down, or silent past the connection's command timeout), so
 * that the caller can say so; it is never retried.
 */
export async function publishProjectEvents(
  redis: Redis,
  channel: string,
  events: ProjectStreamEvent[],
): Promise<void> {
  if (events.length === 0) return;
  const pipeline = redis.pipeline();
  for (const event of events) pipeline.publish(channel, JSON.stringify(event));
  // A pipeline resolves with each command's error beside its result; it never rejects.
  const failed = (await pipeline.exec())?.find(([err]) => err);
  if (failed?.[0]) throw failed[0];
}
