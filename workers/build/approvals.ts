import type { EntityManager } from '@mikro-orm/postgresql';
import {
  allowedForRun,
  approvalByStep,
  requestApproval,
  type ApprovalRow,
} from '../../shared/projects/approval-store';
import { sqlOf } from '../../shared/db/sql';
import { actionFor, argsDigest, argsPreview, type Policy } from '../../shared/projects/approvals';
import type { ProjectStreamEvent } from '../../shared/projects/events';
import { buildFailure } from './errors';
import type { RecordedCall, RunJournal } from './journal';
import type { ToolOutcome } from './tools';

/**
 * The approval gate of a tool call (docs/spec/contract.md §16), asked before a call that has
 * no result yet runs. The policy decides; an `ask` stores the request with its stream event,
 * webhook event and bot message in one transaction, publishes after the commit, and the turn
 * stops until the workflow sees a decision (workflows/project-build.ts).
 * A retried turn finds the same request by the call's key, and a call whose result is recorded
 * never reaches the gate again, so an approved call runs once.
 */

export interface AwaitingApproval {
  approvalId: string;
  expiresAt: string;
}

export type Gate =
  | { kind: 'run' }
  | { kind: 'refuse'; outcome: ToolOutcome }
  | { kind: 'wait'; awaiting: AwaitingApproval };

export interface GateContext {
  em: EntityManager;
  /** Publishes events already in the log (the request's, stored with it). */
  publish: (projectId: string, events: ProjectStreamEvent[]) => Promise<void>;
  projectId: string;
  runId: string;
  turn: number;
  policy: Policy;
  publicBaseUrl: string;
}

const refuse = (error: string): Gate => ({
  kind: 'refuse',
  outcome: { result: null, error, events: [] },
});

export async function gateCall(ctx: GateContext, call: RecordedCall): Promise<Gate> {
  const action = actionFor(ctx.policy, call.tool);
  if (action === 'allow') return { kind: 'run' };
  if (action === 'deny') {
    return refuse(`${call.tool} is denied by the project's approval policy; it did not run`);
  }
  const digest = argsDigest(call.args);
  const stepKey = `${ctx.runId}:t${ctx.turn}:call:${call.index}`;
  // Approved for the rest of the run (`remember: run`), unless this call asked already.
  if (
    !(await approvalByStep(sqlOf(ctx.em), stepKey)) &&
    (await allowedForRun(sqlOf(ctx.em), ctx.runId, call.tool))
  ) {
    return { kind: 'run' };
  }
  const { row, events } = await requestApproval(
    ctx.em,
    {
      projectId: ctx.projectId,
      runId: ctx.runId,
      stepKey,
      kind: 'tool_call',
      tool: call.tool,
      argsPreview: argsPreview(call.args),
      argsDigest: digest,
      timeoutSeconds: ctx.policy.timeoutSeconds,
      callId: call.callId,
    },
    ctx.publicBaseUrl,
  );
  await ctx.publish(ctx.projectId, events);
  return gateOf(ctx, call, row, digest);
}

function gateOf(ctx: GateContext, call: RecordedCall, request: ApprovalRow, digest: string): Gate {
  switch (request.status) {
    case 'pending':
      return { kind: 'wait', awaiting: { approvalId: request.id, expiresAt: request.expiresAt } };
    case 'approved':
      // The decision binds to the digest: the recorded call must be the one approved.
      return request.argsDigest === digest
        ? { kind: 'run' }
        : refuse(`${call.tool}: the approved arguments differ from the call's; it did not run`);
    case 'rejected':
      return refuse(
        `the project owner rejected this ${call.tool} call` +
          (request.comment ? `: ${request.comment}` : ''),
      );
    case 'expired':
      if (ctx.policy.onTimeout === 'fail') {
        throw buildFailure(
          `the owner did not answer the approval request for ${call.tool} in time`,
          { retryable: false },
        );
      }
      return refuse(`the owner did not answer in time; this ${call.tool} call did not run`);
    case 'canceled':
      return refuse(`the approval request was canceled; this ${call.tool} call did not run`);
  }
}

/** Where the plan's approval stands (docs/guides/approvals.md "Plan approval"). */
export type PlanGate =
  | { status: 'skipped' | 'approved' | 'expired' | 'canceled' }
  | { status: 'rejected'; comment: string | null }
  | { status: 'waiting'; awaiting: AwaitingApproval };

/**
 * The plan's approval, attempt 1 for the first plan and 2 for the one new plan after a
 * rejection. Without `planApproval` (and no request of this attempt already stored) it is
 * skipped; else the request shows the newest plan's steps, and waits like a call's.
 */
export async function gatePlan(
  ctx: Omit<GateContext, 'turn'>,
  journal: RunJournal,
  attempt: number,
): Promise<PlanGate> {
  const stepKey = `${ctx.runId}:plan-approval:${attempt}`;
  const existing = await approvalByStep(sqlOf(ctx.em), stepKey);
  if (!existing && !ctx.policy.planApproval) return { status: 'skipped' };
  const args = { steps: journal.latestPlan() ?? [] };
  let request = existing;
  if (!request) {
    const stored = await requestApproval(
      ctx.em,
      {
        projectId: ctx.projectId,
        runId: ctx.runId,
        stepKey,
        kind: 'plan',
        tool: null,
        argsPreview: argsPreview(args),
        argsDigest: argsDigest(args),
        timeoutSeconds: ctx.policy.timeoutSeconds,
        callId: null,
      },
      ctx.publicBaseUrl,
    );
    await ctx.publish(ctx.projectId, stored.events);
    request = stored.row;
  }
  switch (request.status) {
    case 'pending':
      return {
        status: 'waiting',
        awaiting: { approvalId: request.id, expiresAt: request.expiresAt },
      };
    case 'rejected':
      return { status: 'rejected', comment: request.comment };
    default:
      return { status: request.status };
  }
}
