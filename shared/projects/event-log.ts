import type { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import {
  PROJECT_EVENTS_KEPT,
  type NewProjectEvent,
  type ProjectEventType,
  type ProjectStreamEvent,
} from './events';

interface EventRow {
  seq: string;
  type: ProjectEventType;
  data: Record<string, unknown>;
  event_key: string;
}

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
    const [project] = await tx.execute<{ last_event_seq: string }[]>(
      'select last_event_seq from projects where id = ? for update',
      [projectId],
    );
    if (!project) throw new Error(`project ${projectId} does not exist`);
    const stored = await tx.execute<EventRow[]>(
      'select seq, type, data, event_key from project_events where project_id = ? and event_key in (?)',
      [projectId, events.map((event) => event.key)],
    );
    const byKey = new Map(stored.map((row) => [row.event_key, toStreamEvent(row)]));
    const start = Number(project.last_event_seq);
    let last = start;
    const result: ProjectStreamEvent[] = [];
    for (const event of events) {
      const existing = byKey.get(event.key);
      if (existing) {
        result.push(existing);
        continue;
      }
      last += 1;
      const data = event.data as Record<string, unknown>;
      await tx.execute(
        `insert into project_events (project_id, seq, run_id, type, data, event_key, created_at)
         values (?, ?, ?, ?, ?::jsonb, ?, now())`,
        [projectId, last, runId, event.type, JSON.stringify(data), event.key],
      );
      const appended: ProjectStreamEvent = { seq: last, type: event.type, data };
      byKey.set(event.key, appended);
      result.push(appended);
    }
    if (last !== start) {
      await tx.execute('update projects set last_event_seq = ? where id = ?', [last, projectId]);
      await tx.execute('delete from project_events where project_id = ? and seq <= ?', [
        projectId,
        last - PROJECT_EVENTS_KEPT,
      ]);
    }
    return result;
  });
}

/** Events of a project with `seq` above `afterSeq`, oldest first. */
export async function readProjectEvents(
  em: EntityManager,
  projectId: string,
  afterSeq: number,
  limit = PROJECT_EVENTS_KEPT,
): Promise<ProjectStreamEvent[]> {
  const rows = await em.execute<EventRow[]>(
    `select seq, type, data, event_key from project_events
     where project_id = ? and seq > ? order by seq limit ?`,
    [projectId, afterSeq, limit],
  );
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
