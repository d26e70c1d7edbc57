import type { Config } from '../../../shared/config';
import type { Sql } from '../../../shared/db/sql';
import { featuresOf } from '../../../shared/domain/tiers';
import type { Actor } from '../../access/actor';
import { endRuleOf, nothingToStream, type EndRule } from '../../sse/stream-end';
import { streamableProject } from './access';
import type { StreamInput } from './schemas';

/** What a project stream connect decides (spec "Project stream (SSE)", docs/spec/contract.md §7). */

export interface StreamDeps {
  db: Sql;
  config: Pick<Config, 'sse'>;
}

/** How to serve one connection; the route hands it to the stream hub. */
export interface StreamPlan {
  projectId: string;
  /** Replay starts after this event. */
  lastEventId: number;
  endRule: EndRule;
  /** Live events in batches (viewers without `fasterSse`) or one by one. */
  batched: boolean;
}

/**
 * The stream of a project the actor may watch (a private one: its owner only, else 403
 * `private_forbidden`); null when nothing is left to stream (the route answers 204).
 */
export async function projectStream(
  deps: StreamDeps,
  actor: Actor | null,
  input: StreamInput,
): Promise<StreamPlan | null> {
  const row = await streamableProject(deps.db, actor, input.slug);
  const project = { ...row, lastEventSeq: Number(row.lastEventSeq) };
  const { since } = input;
  if (nothingToStream(project, since)) return null;
  const { standardBatchMs } = deps.config.sse;
  return {
    projectId: project.id,
    // An id the log never reached (a restored database) must not hide the events to come.
    lastEventId: Math.min(since ?? 0, project.lastEventSeq),
    endRule: endRuleOf(project),
    // docs/spec/contract.md §11: `fasterSse` (pro+) streams get each event as it happens.
    batched: standardBatchMs > 0 && !featuresOf(project.viewerTier).fasterSse,
  };
}
