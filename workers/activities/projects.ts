import type { MikroORM } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/activity';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import { withHeartbeat } from '../build/heartbeat';
import { beginRun, finishRun } from '../build/lifecycle';
import { planRun, replanRun, runTurn, type TurnOutcome } from '../build/turn';
import { gatePlan, type PlanGate } from '../build/approvals';
import { RunJournal } from '../build/journal';
import { createEventEmitter, publishEvents } from '../build/emitter';
import { createOutboundClient } from '../../shared/net/outbound-client';
import {
  approvalById,
  cancelPendingOfRun,
  loadPolicy,
  resolveApproval,
} from '../../shared/projects/approval-store';
import type { ApprovalStatus } from '../../shared/db/entities/approval';
import type { ProjectStreamEvent } from '../../shared/projects/events';
import { sqlOf } from '../../shared/db/sql';

/** `fetch_url`: a page must answer within 10 s; at most 1 MiB of it is read. */
const FETCH_TIMEOUT_MS = 10_000;
const FETCH_BODY_LIMIT_BYTES = 1024 * 1024;

export interface ProjectActivityDeps {
  orm: MikroORM;
  config: Config;
  /** Commands connection, for publishing build events. */
  redis: Redis;
  logger: Logger;
}

// Ids are UUIDs: they become directory names of the workspace, so nothing else may pass.
const runRef = z.object({ projectId: z.uuid(), runId: z.uuid() });
const turnInput = runRef.extend({
  turn: z.number().int().min(1).max(10_000),
  // Sent by the workflow code that waits for approvals; older code sends none (runTurn).
  approvals: z.boolean().default(false),
});
const approvalInput = z.object({ approvalId: z.uuid() });
const planGateInput = runRef.extend({ attempt: z.number().int().min(1).max(2) });
const replanInput = runRef.extend({ comment: z.string().max(2000).nullable() });
const settleInput = approvalInput.extend({ expire: z.boolean() });
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
  // One pooled client per worker process for `fetch_url`; SSRF is checked where sockets open.
  const outbound = createOutboundClient({
    allowedHosts: deps.config.buildFetchAllowedHosts,
    timeoutMs: FETCH_TIMEOUT_MS,
    maxResponseBytes: FETCH_BODY_LIMIT_BYTES,
    onLargeBody: 'truncate',
  });
  /** Events already committed reach the stream (best effort: relays catch up from the log). */
  const publish = (projectId: string, events: ProjectStreamEvent[]) =>
    publishEvents(deps, projectId, events);
  const stepDeps = { orm: deps.orm, config: deps.config, emit, outbound, publish };
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

    /**
     * One turn: decide, then run the tools. `finished` when the brain called no tool;
     * `awaitingApproval` when a call waits for its owner (the turn runs again once decided).
     */
    async runProjectTurn(input: z.input<typeof turnInput>): Promise<TurnOutcome> {
      const { turn, approvals, ...ref } = parse(turnInput, input);
      return withHeartbeat(() => runTurn(stepDeps, ref, turn, approvals));
    },

    /** The plan's approval (attempt 1, or 2 after one rejection and a new plan). */
    async gateProjectPlan(input: z.input<typeof planGateInput>): Promise<PlanGate> {
      const { attempt, ...ref } = parse(planGateInput, input);
      return withHeartbeat(async () => {
        const em = deps.orm.em.fork();
        const journal = await RunJournal.load(em, ref.projectId, ref.runId);
        const gate = {
          em,
          publish,
          ...ref,
          policy: await loadPolicy(sqlOf(em), ref.projectId),
          publicBaseUrl: deps.config.publicBaseUrl,
        };
        return gatePlan(gate, journal, attempt);
      });
    },

    /** The one new plan after the owner rejected the first, told the owner's comment. */
    async replanProjectRun(input: z.input<typeof replanInput>): Promise<{ steps: string[] }> {
      const { comment, ...ref } = parse(replanInput, input);
      return withHeartbeat(() => replanRun(stepDeps, ref, comment));
    },

    /**
     * Where an approval request stands. `expire`: the workflow's timer ran out, so a request
     * still pending expires now (the same conditional UPDATE an owner's decision races).
     */
    async settleApproval(input: z.input<typeof settleInput>): Promise<{ status: ApprovalStatus }> {
      const { approvalId, expire } = parse(settleInput, input);
      const em = deps.orm.em.fork();
      if (expire) {
        const { row, events } = await resolveApproval(
          em,
          approvalId,
          { to: 'expired', by: 'timeout' },
          deps.config.publicBaseUrl,
        );
        if (!row) throw ApplicationFailure.nonRetryable(`approval ${approvalId} does not exist`);
        await publish(row.projectId, events);
        return { status: row.status };
      }
      const row = await approvalById(sqlOf(em), approvalId);
      if (!row) throw ApplicationFailure.nonRetryable(`approval ${approvalId} does not exist`);
      return { status: row.status };
    },

    /** The build was canceled while it waited: its pending request is canceled too. */
    async cancelApproval(input: z.input<typeof approvalInput>): Promise<void> {
      const { approvalId } = parse(approvalInput, input);
      const { row, events } = await resolveApproval(
        deps.orm.em.fork(),
        approvalId,
        { to: 'canceled', by: 'cancel' },
        deps.config.publicBaseUrl,
      );
      if (row) await publish(row.projectId, events);
    },

    /** Final state, artifact, webhook, notifications and the `done` event, in one transaction. */
    async finishProjectRun(
      input: z.input<typeof finishInput>,
    ): Promise<{ finalStatus: 'completed' | 'failed' | 'canceled' }> {
      const parsed = parse(finishInput, input);
      return withHeartbeat(async () => {
        // Whatever ended the run (a Temporal cancel or terminate too), nothing stays pending.
        const canceled = await cancelPendingOfRun(
          deps.orm.em.fork(),
          parsed.runId,
          deps.config.publicBaseUrl,
        );
        await publish(parsed.projectId, canceled);
        return finishRun(deps, parsed);
      });
    },
  };
}

export type ProjectActivities = ReturnType<typeof createProjectActivities>;
