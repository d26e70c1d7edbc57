import type { Project } from '../../shared/db/entities';
import type { EntityManager } from '../../shared/db/orm';
import type { ProjectStreamEvent } from '../../shared/projects/events';

/**
 * When a project stream ends (decisions §7: "the server ends the stream after `done`"), and
 * when there is nothing to stream at all.
 */

/** What a stream knows about its project at connect, to recognise its final `done`. */
export interface EndRule {
  /** `projects.current_run_id` at connect: the run whose `done` ends the stream. */
  runId: string | null;
  /** `projects.last_event_seq` at connect: a `done` above it is of a run started since. */
  lastSeq: number;
}

export function endRuleOf(project: Project): EndRule {
  return { runId: project.currentRunId ?? null, lastSeq: project.lastEventSeq };
}

/**
 * A `done` ends the stream when it belongs to the project's current run, or to a run that
 * started after the client connected (a project that was idle, or between runs). The `done`
 * of an older run met during replay is just history: the stream goes on to the current run.
 */
export function endsStream(event: ProjectStreamEvent, rule: EndRule): boolean {
  if (event.type !== 'done') return false;
  return event.data.runId === rule.runId || event.seq > rule.lastSeq;
}

const ACTIVE_STATUSES: ReadonlySet<string> = new Set(['queued', 'running']);

/**
 * True when a reconnecting client already has everything and nothing more is coming: it has
 * the last event, that event is a `done`, and no run is queued or running. The route then
 * answers 204, the SSE spec's "stop reconnecting", instead of an empty stream the client
 * would reconnect to forever.
 */
export async function caughtUpOnFinishedRun(
  em: EntityManager,
  project: Project,
  lastEventId: number | null,
): Promise<boolean> {
  if (lastEventId === null || project.lastEventSeq === 0) return false;
  if (lastEventId < project.lastEventSeq || ACTIVE_STATUSES.has(project.status)) return false;
  const [last] = await em.execute<{ type: string }[]>(
    'select type from project_events where project_id = ? and seq = ?',
    [project.id, project.lastEventSeq],
  );
  return last?.type === 'done';
}
