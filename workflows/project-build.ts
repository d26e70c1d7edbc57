import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  defineQuery,
  defineSignal,
  isCancellation,
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
const STATUS: (typeof projectBuildQueries)['status'] = 'status';
export const cancelSignal = defineSignal(CANCEL);
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
const { planProjectRun, runProjectTurn } = proxyActivities<ProjectActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '10 seconds',
  retry: {
    initialInterval: '500 milliseconds',
    backoffCoefficient: 2,
    maximumInterval: '10 seconds',
    maximumAttempts: 4,
  },
});
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
 * - Signal `cancel`: the build stops before its next turn. Query `status`: ProjectBuildStatus.
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
  setHandler(statusQuery, () => ({ ...status }));

  let outcome: ProjectBuildOutcome;
  try {
    outcome = await build(input, status);
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
): Promise<ProjectBuildOutcome> {
  const ref = { projectId: input.projectId, runId: input.runId };
  const { maxTurns } = await beginProjectRun(ref);
  if (status.cancelRequested) return CANCELED;
  status.phase = 'planning';
  await planProjectRun(ref);
  status.phase = 'building';
  for (let turn = 1; turn <= maxTurns; turn++) {
    // A durable timer that a cancel signal cuts short.
    if (input.paceMs > 0) await condition(() => status.cancelRequested, input.paceMs);
    if (status.cancelRequested) return CANCELED;
    const { finished } = await runProjectTurn({ ...ref, turn });
    status.turns = turn;
    if (finished) return { finalStatus: 'completed', reason: null };
  }
  return { finalStatus: 'failed', reason: `the build did not finish within ${maxTurns} turns` };
}

/** What the owner is told: build failures say why; anything else stays generic. */
function reasonOf(failure: ActivityFailure): string {
  const cause = failure.cause;
  if (cause instanceof ApplicationFailure && cause.type === BUILD_ERROR_TYPE) return cause.message;
  if (cause instanceof TimeoutFailure) return 'a build step timed out';
  return 'the build runtime failed';
}
