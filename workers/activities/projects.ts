import type { MikroORM } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/activity';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import { createEventEmitter } from '../build/emitter';
import { withHeartbeat } from '../build/heartbeat';
import { beginRun, finishRun } from '../build/lifecycle';
import { planRun, runTurn } from '../build/turn';

export interface ProjectActivityDeps {
  orm: MikroORM;
  config: Config;
  /** Commands connection, for publishing build events. */
  redis: Redis;
  logger: Logger;
}

// Ids are UUIDs: they become directory names of the workspace, so nothing else may pass.
const runRef = z.object({ projectId: z.uuid(), runId: z.uuid() });
const turnInput = runRef.extend({ turn: z.number().int().min(1).max(10_000) });
const finishInput = runRef.extend({
  finalStatus: z.enum(['completed', 'failed', 'canceled']),
  reason: z.string().max(2000).nullable(),
});

function parse<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw ApplicationFailure.nonRetryable(
    `invalid activity input: ${parsed.error.issues[0]?.message}`,
    'InvalidInput',
  );
}

/**
 * The build runtime's activities (workflows/project-build.ts drives them). Each forks its own
 * EntityManager, heartbeats while it runs, and is idempotent: the run's event log is its
 * journal, so a retried step neither repeats an event nor makes a second commit.
 */
export function createProjectActivities(deps: ProjectActivityDeps) {
  const emit = createEventEmitter(deps);
  const stepDeps = { orm: deps.orm, config: deps.config, emit };
  return {
    /** queued → running, workspace created, subscribers told. Returns the turn limit. */
    async beginProjectRun(input: z.input<typeof runRef>): Promise<{ maxTurns: number }> {
      const ref = parse(runRef, input);
      return withHeartbeat(() => beginRun(deps, ref));
    },

    /** The initial plan (`plan` event, revision 1). */
    async planProjectRun(input: z.input<typeof runRef>): Promise<{ steps: string[] }> {
      const ref = parse(runRef, input);
      return withHeartbeat(() => planRun(stepDeps, ref));
    },

    /** One turn: decide, then run the tools. `finished` when the brain called no tool. */
    async runProjectTurn(input: z.input<typeof turnInput>): Promise<{ finished: boolean }> {
      const { turn, ...ref } = parse(turnInput, input);
      return withHeartbeat(() => runTurn(stepDeps, ref, turn));
    },

    /** Final state, artifact, webhook, notifications and the `done` event, in one transaction. */
    async finishProjectRun(
      input: z.input<typeof finishInput>,
    ): Promise<{ finalStatus: 'completed' | 'failed' | 'canceled' }> {
      const parsed = parse(finishInput, input);
      return withHeartbeat(() => finishRun(deps, parsed));
    },
  };
}

export type ProjectActivities = ReturnType<typeof createProjectActivities>;
