import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf, statement } from '../../shared/db/sql';
import type { NewProjectEvent, ProjectEventType } from '../../shared/projects/events';

/**
 * Event keys are deterministic per step, so the event log doubles as the run's journal: a
 * retried step looks its own keys up and replays what was recorded instead of doing it again.
 */
export const eventKeys = {
  initialPlan: (runId: string) => `${runId}:plan:1`,
  /** The one new plan after the owner rejected the first (docs/guides/approvals.md). */
  replan: (runId: string) => `${runId}:replan`,
  message: (runId: string, turn: number) => `${runId}:t${turn}:msg`,
  call: (runId: string, turn: number, index: number) => `${runId}:t${turn}:call:${index}`,
  result: (runId: string, turn: number, index: number) => `${runId}:t${turn}:result:${index}`,
  commit: (runId: string, turn: number, index: number) => `${runId}:t${turn}:commit:${index}`,
  plan: (runId: string, turn: number, index: number) => `${runId}:t${turn}:plan:${index}`,
  toolError: (runId: string, turn: number, index: number) => `${runId}:t${turn}:error:${index}`,
  artifactOmitted: (runId: string) => `${runId}:artifact`,
  fatalError: (runId: string) => `${runId}:error`,
  done: (runId: string) => `${runId}:done`,
};

/** Tool call ids: unique per run, and short enough for OpenAI-compatible APIs (≤ 40 chars). */
export function callIdOf(runId: string, turn: number, index: number): string {
  return `call_${runId.slice(0, 8)}_t${turn}_${index}`;
}

export interface RecordedCall {
  index: number;
  callId: string;
  tool: string;
  args: unknown;
}

export interface RecordedResult {
  result: unknown;
  error?: string;
}

/** A turn's decision as recorded: the assistant's text and the tool calls it asked for. */
export interface RecordedTurn {
  turn: number;
  text: string | null;
  calls: RecordedCall[];
}

interface JournalEntry {
  key: string;
  type: ProjectEventType;
  data: Record<string, unknown>;
}

/** A run's logged event, as the journal reads it. */
interface JournalRow {
  eventKey: string;
  type: ProjectEventType;
  data: Record<string, unknown>;
}
/** A run's events in log order. */
const runEvents = statement<JournalRow, [projectId: string, runId: string]>(
  'build.run_events',
  `select event_key as "eventKey", type, data from project_events
    where project_id = $1 and run_id = $2 order by seq`,
);

/** One run's events, read once per step and kept current as the step emits more. */
export class RunJournal {
  private readonly byKey = new Map<string, JournalEntry>();

  constructor(
    readonly runId: string,
    entries: JournalEntry[],
  ) {
    for (const entry of entries) this.byKey.set(entry.key, entry);
  }

  static async load(em: EntityManager, projectId: string, runId: string): Promise<RunJournal> {
    const rows = await sqlOf(em).rows(runEvents, [projectId, runId]);
    return new RunJournal(
      runId,
      rows.map((row) => ({ key: row.eventKey, type: row.type, data: row.data })),
    );
  }

  record(events: NewProjectEvent[]): void {
    for (const event of events) {
      this.byKey.set(event.key, {
        key: event.key,
        type: event.type,
        data: event.data,
      });
    }
  }

  initialPlan(): string[] | null {
    const entry = this.byKey.get(eventKeys.initialPlan(this.runId));
    return entry ? (entry.data.steps as string[]) : null;
  }

  /** The steps of the newest plan (the initial one, a replan or an update_plan). */
  latestPlan(): string[] | null {
    let latest: { revision: number; steps: string[] } | null = null;
    for (const entry of this.byKey.values()) {
      if (entry.type !== 'plan') continue;
      const revision = entry.data.revision as number;
      if (!latest || revision > latest.revision) {
        latest = { revision, steps: entry.data.steps as string[] };
      }
    }
    return latest?.steps ?? null;
  }

  /** Plan events of the run so far (the initial one and every update_plan). */
  planCount(): number {
    let count = 0;
    for (const entry of this.byKey.values()) if (entry.type === 'plan') count += 1;
    return count;
  }

  /** The decision recorded for `turn`, or null when the brain has not been asked yet. */
  decision(turn: number): RecordedTurn | null {
    const message = this.byKey.get(eventKeys.message(this.runId, turn));
    const calls: RecordedCall[] = [];
    for (let index = 0; ; index++) {
      const call = this.byKey.get(eventKeys.call(this.runId, turn, index));
      if (!call) break;
      calls.push({
        index,
        callId: call.data.callId as string,
        tool: call.data.tool as string,
        args: call.data.args,
      });
    }
    if (!message && calls.length === 0) return null;
    return { turn, text: message ? (message.data.text as string) : null, calls };
  }

  result(turn: number, index: number): RecordedResult | null {
    const entry = this.byKey.get(eventKeys.result(this.runId, turn, index));
    if (!entry) return null;
    const error = entry.data.error as string | undefined;
    return error === undefined
      ? { result: entry.data.result }
      : { result: entry.data.result, error };
  }

  /** Every recorded turn before `turn`, oldest first (the transcript of an LLM brain). */
  turnsBefore(turn: number): RecordedTurn[] {
    const turns: RecordedTurn[] = [];
    for (let earlier = 1; earlier < turn; earlier++) {
      const recorded = this.decision(earlier);
      if (recorded) turns.push(recorded);
    }
    return turns;
  }
}
