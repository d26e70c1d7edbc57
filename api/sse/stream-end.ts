import type { ProjectStatus } from '../../shared/db/entities/project';
import type { ProjectStreamEvent } from '../../shared/projects/events';

/**
 * When a project stream ends (docs/spec/contract.md §7: "the server ends the stream after `done`"), and
 * when there is nothing to stream at all.
 */

/** What the stream reads of its project at connect (one statement, with the viewer's tier). */
export interface StreamedProject {
  status: ProjectStatus;
  currentRunId: string | null;
  lastEventSeq: number;
  /** The type of the event at `lastEventSeq`; null when the project has none. */
  lastEventType: string | null;
}

/** What a stream knows about its project at connect, to recognise its final `done`. */
export interface EndRule {
  /** `projects.current_run_id` at connect: the run whose `done` ends the stream. */
  runId: string | null;
  /** `projects.last_event_seq` at connect: a `done` above it is of a run started since. */
  lastSeq: number;
  /** An archived project can never run again: its stream ends with the last event logged. */
  archived: boolean;
}

export function endRuleOf(project: StreamedProject): EndRule {
  return {
    runId: project.currentRunId,
    lastSeq: project.lastEventSeq,
    archived: project.status === 'archived',
  };
}

/**
 * A `done` ends the stream when it belongs to the project's current run, or to a run that
 * started after the client connected (a project that was idle, or between runs). The `done`
 * of an older run met during replay is just history: the stream goes on to the current run.
 * An archived project's stream ends with the last event it had at connect, `done` or not (a
 * run canceled without its workflow has no `done`).
 */
export function endsStream(event: ProjectStreamEvent, rule: EndRule): boolean {
  if (rule.archived && event.seq >= rule.lastSeq) return true;
  if (event.type !== 'done') return false;
  return event.data.runId === rule.runId || event.seq > rule.lastSeq;
}

const ACTIVE_STATUSES: ReadonlySet<string> = new Set(['queued', 'running']);

/**
 * True when a client would get nothing and nothing more is coming. The route then answers
 * 204, the SSE spec's "stop reconnecting", instead of an empty stream the client would
 * reconnect to forever. That is the case when the client has the last event and either the
 * project is archived (no run can ever start) or that event is a `done` and no run is queued
 * or running; and for an archived project without any event.
 */
export function nothingToStream(project: StreamedProject, lastEventId: number | null): boolean {
  const lastSeq = project.lastEventSeq;
  const caughtUp = lastSeq === 0 || (lastEventId !== null && lastEventId >= lastSeq);
  if (project.status === 'archived') return caughtUp;
  if (lastEventId === null || lastSeq === 0) return false;
  if (!caughtUp || ACTIVE_STATUSES.has(project.status)) return false;
  return project.lastEventType === 'done';
}
