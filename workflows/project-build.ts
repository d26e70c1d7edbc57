import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  defineQuery,
  defineSignal,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  TimeoutFailure,
} from '@temporalio/workflow';
import type { ProjectActivities } from '../workers/activities/projects';
import type {
  ProjectBuildInput,
  ProjectBuildStatus,
  projectBuildQueries,
  projectBuildSignals,
} from '../shared/temporal/workflows';

// Names from shared/temporal/workflows.ts; the types make a mismatch a compile error.
const CANCEL: (typeof projectBuildSignals)['cancel'] = 'cancel';
const APPROVAL_DECIDED: (typeof projectBuildSignals)['approvalDecided'] = 'approvalDecided';
const STATUS: (typeof projectBuildQueries)['status'] = 'status';
export const cancelSignal = defineSignal(CANCEL);
/** The API decided an approval request (the row is already committed); the id names it. */
export const approvalDecidedSignal = defineSignal<[approvalId: string]>(APPROVAL_DECIDED);
export const statusQuery = defineQuery<ProjectBuildStatus>(STATUS);

/** Failures whose message is meant for the owner (workers/build/errors.ts BUILD_ERROR_TYPE). */
const BUILD_ERROR_TYPE = 'BuildError';

// Every step heartbeats every 2 s: a worker that dies mid-step is noticed within 10 s and the
// step is retried elsewhere, where the run's event log lets it resume without repeating itself.
const { beginProjectRun } = proxyActivities<ProjectActivities>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 5 },
});
// Planning and turns may wait on an LLM and run commands: long, but bounded in attempts so
// an LLM that keeps failing fails the build with its reason instead of retrying forever.
const { planProjectRun, runProjectTurn, gateProjectPlan, replanProjectRun } =
  proxyActivities<ProjectActivities>({
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout: '10 seconds',
    retry: {
      initialInterval: '500 milliseconds',
      backoffCoefficient: 2,
      maximumInterval: '10 seconds',
      maximumAttempts: 4,
    },
  });
// Reading or expiring an approval request: one short statement.
const { settleApproval, cancelApproval } = proxyActivities<ProjectActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});
/**
 * While a request waits, the workflow looks at its row at least this often: a decision whose
 * signal was lost (Temporal unreachable from the API at that moment) costs minutes, not the
 * build, and a wait of days stays a few hundred history events.
 */
const APPROVAL_RECHECK_MS = 10 * 60 * 1000;
// Finishing must land eventually (it is idempotent), so it retries without an attempt limit.
const { finishProjectRun } = proxyActivities<ProjectActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

export interface ProjectBuildOutcome {
  finalStatus: 'completed' | 'failed' | 'canceled';
  reason: string | null;
}

const CANCELED: ProjectBuildOutcome = { finalStatus: 'canceled', reason: 'the build was canceled' };

/**
 * Builds one run of a project: begin (queued → running, workspace), plan, then turns until the
 * brain is finished, then finish (final status, artifact, webhook, notifications, `done`).
 *
 * - Id: `project-build:<projectId>:<runId>` (workflowIds.projectBuild); the API inserts the
 *   queued run and starts it, so one run has exactly one workflow.
 * - Idempotency: every step is an activity keyed by run and turn; the run's event log is the
 *   journal, so a retried step replays the recorded decision, skips tool calls that have a
 *   result and reuses a commit already made (git trailer `Build-Step: <runId>/t<turn>.<i>`).
 * - Timeouts: steps heartbeat (10 s heartbeat timeout); a turn has 15 minutes and 4 attempts;
 *   at most `maxTurns` (BUILD_MAX_TURNS) turns, paced by `paceMs` durable timers.
 * - Signal `cancel`: the build stops before its next turn, or ends its wait for an approval
 *   (the request is canceled). Signal `approvalDecided(id)`: an owner decided a request.
 *   Query `status`: ProjectBuildStatus.
 * - Approvals (docs/spec/contract.md §16): a turn that stops before a call returns
 *   `awaitingApproval`; the workflow waits for the signal or the request's expiry on a durable
 *   timer, re-reading the row every 10 minutes, PostgreSQL deciding (settleApproval expires a
 *   request still pending when the timer runs out); then the same turn runs again and finds
 *   the decision. Histories before approvals never return `awaitingApproval`, so their
 *   commands are unchanged. With `planApproval` the plan is asked about first (one new plan
 *   after a rejection); that gate is a new command after the plan, behind
 *   `patched('plan-approval')`.
 * - Terminal states: the workflow always completes with completed (the brain finished),
 *   failed (a step failed after its retries, or the turn limit was reached; an `error` event
 *   with recoverable false carries the reason) or canceled (signal or Temporal cancellation).
 */
export async function projectBuildWorkflow(input: ProjectBuildInput): Promise<ProjectBuildOutcome> {
  const status: ProjectBuildStatus = {
    phase: 'starting',
    turns: 0,
    cancelRequested: false,
    finalStatus: null,
  };
  setHandler(cancelSignal, () => {
    status.cancelRequested = true;
  });
  const decided = new Set<string>();
  setHandler(approvalDecidedSignal, (approvalId) => {
    decided.add(approvalId);
  });
  setHandler(statusQuery, () => ({ ...status }));

  let outcome: ProjectBuildOutcome;
  try {
    outcome = await build(input, status, decided);
  } catch (err) {
    if (isCancellation(err)) outcome = CANCELED;
    else if (err instanceof ActivityFailure)
      outcome = { finalStatus: 'failed', reason: reasonOf(err) };
    else throw err;
  }
  status.phase = 'finishing';
  const ref = { projectId: input.projectId, runId: input.runId };
  // Even when the workflow itself is being cancelled, the run must be closed properly.
  await CancellationScope.nonCancellable(() => finishProjectRun({ ...ref, ...outcome }));
  status.phase = 'done';
  status.finalStatus = outcome.finalStatus;
  return outcome;
}

async function build(
  input: ProjectBuildInput,
  status: ProjectBuildStatus,
  decided: Set<string>,
): Promise<ProjectBuildOutcome> {
  const ref = { projectId: input.projectId, runId: input.runId };
  const { maxTurns } = await beginProjectRun(ref);
  if (status.cancelRequested) return CANCELED;
  status.phase = 'planning';
  await planProjectRun(ref);
  // Plan approval came later: histories from before it have no gate between plan and turns.
  if (patched('plan-approval')) {
    const refused = await approvePlan(ref, status, decided);
    if (refused) return refused;
  }
  status.phase = 'building';
  for (let turn = 1; turn <= maxTurns; turn++) {
    // A durable timer that a cancel signal cuts short.
    if (input.paceMs > 0) await condition(() => status.cancelRequested, input.paceMs);
    if (status.cancelRequested) return CANCELED;
    const { finished, awaitingApproval } = await runProjectTurn({ ...ref, turn, approvals: true });
    if (awaitingApproval) {
      status.phase = 'awaiting_approval';
      const waited = await awaitDecision(awaitingApproval, status, decided);
      if (waited === 'canceled') return CANCELED;
      status.phase = 'building';
      // The same turn again: it finds the decision and goes on from the call that waited.
      turn -= 1;
      continue;
    }
    status.turns = turn;
    if (finished) return { finalStatus: 'completed', reason: null };
  }
  return { finalStatus: 'failed', reason: `the build did not finish within ${maxTurns} turns` };
}

/**
 * The plan's approval when the policy asks for it: a rejection gets one new plan (the brain
 * is told the comment), which is asked about again; a second rejection or an expiry fails the
 * build. Returns the outcome that ends the build, or null to build.
 */
async function approvePlan(
  ref: { projectId: string; runId: string },
  status: ProjectBuildStatus,
  decided: Set<string>,
): Promise<ProjectBuildOutcome | null> {
  for (let attempt = 1; attempt <= 2; attempt++) {
    let gate = await gateProjectPlan({ ...ref, attempt });
    while (gate.status === 'waiting') {
      status.phase = 'awaiting_approval';
      if ((await awaitDecision(gate.awaiting, status, decided)) === 'canceled') return CANCELED;
      gate = await gateProjectPlan({ ...ref, attempt });
    }
    status.phase = 'planning';
    switch (gate.status) {
      case 'skipped':
      case 'approved':
        return null;
      case 'canceled':
        return CANCELED;
      case 'expired':
        return { finalStatus: 'failed', reason: 'the owner did not approve the plan in time' };
      case 'rejected':
        if (attempt === 2) return { finalStatus: 'failed', reason: 'the owner rejected the plan' };
        await replanProjectRun({ ...ref, comment: gate.comment });
    }
  }
  return null;
}

/**
 * Waits until the request is decided (signal, or seen on a re-check), expires, or the build is
 * canceled. The timer only says when to look: the row says what happened.
 */
async function awaitDecision(
  awaiting: { approvalId: string; expiresAt: string },
  status: ProjectBuildStatus,
  decided: Set<string>,
): Promise<'decided' | 'canceled'> {
  const { approvalId } = awaiting;
  const expiresAt = Date.parse(awaiting.expiresAt);
  for (;;) {
    const remaining = expiresAt - Date.now();
    if (remaining <= 0) {
      const { status: settled } = await settleApproval({ approvalId, expire: true });
      if (settled !== 'pending') return 'decided';
    }
    await condition(
      () => decided.has(approvalId) || status.cancelRequested,
      Math.max(1000, Math.min(remaining, APPROVAL_RECHECK_MS)),
    );
    // A signal is a hint to look now; should the row still be pending, wait for the next.
    decided.delete(approvalId);
    if (status.cancelRequested) {
      await cancelApproval({ approvalId });
      return 'canceled';
    }
    const { status: now } = await settleApproval({ approvalId, expire: false });
    if (now !== 'pending') return 'decided';
  }
}

/** What the owner is told: build failures say why; anything else stays generic. */
function reasonOf(failure: ActivityFailure): string {
  const cause = failure.cause;
  if (cause instanceof ApplicationFailure && cause.type === BUILD_ERROR_TYPE) return cause.message;
  if (cause instanceof TimeoutFailure) return 'a build step timed out';
  return 'the build runtime failed';
}
