import type { Config } from '../../shared/config';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { NewProjectEvent, ProjectStreamEvent } from '../../shared/projects/events';
import type { Decision } from './brain';
import type { EmitEvents } from './emitter';
import { buildFailure } from './errors';
import { callIdOf, eventKeys, RunJournal, type RecordedCall } from './journal';
import { brainFor, requireRun, type RunRef } from './run-context';
import { cutText } from './storable';
import { checkToolCall, executeTool, type ToolOutcome } from './tools';
import { Workspace } from './workspace';
import { gateCall, type AwaitingApproval } from './approvals';
import { loadPolicy } from '../../shared/projects/approval-store';
import { sqlOf } from '../../shared/db/sql';
import type { AgentTemplate } from '../../shared/db/entities/project';
import type { OutboundClient } from '../../shared/net/outbound-client';

export interface StepDeps {
  orm: MikroORM;
  config: Config;
  emit: EmitEvents;
  /** The SSRF-safe client of `fetch_url`. */
  outbound: OutboundClient;
  /** Publishes events already in the log (an approval request's, stored with it). */
  publish: (projectId: string, events: ProjectStreamEvent[]) => Promise<void>;
}

export interface TurnOutcome {
  finished: boolean;
  /** Set when a call waits for its owner: the turn stopped before it and runs again after. */
  awaitingApproval?: AwaitingApproval;
}

/** The initial plan (revision 1): recorded once, replayed on a retry. */
export async function planRun(
  deps: StepDeps,
  { projectId, runId }: RunRef,
): Promise<{ steps: string[] }> {
  const em = deps.orm.em.fork();
  const run = await requireRun(em, projectId, runId);
  const journal = await RunJournal.load(em, projectId, runId);
  const recorded = journal.initialPlan();
  if (recorded) return { steps: recorded };
  const steps = await brainFor(run.planner, deps.config).plan({
    project: run.project,
    runId,
    journal,
  });
  const [stored] = await deps.emit(projectId, runId, [
    { key: eventKeys.initialPlan(runId), type: 'plan', data: { steps, revision: 1 } },
  ]);
  // A concurrent attempt may have recorded its plan first: the log wins.
  return { steps: (stored?.data.steps as string[] | undefined) ?? steps };
}

/**
 * The one new plan after the owner rejected the first: the brain gets the rejected steps and
 * the owner's comment. Recorded once (`replan` key), replayed on a retry.
 */
export async function replanRun(
  deps: StepDeps,
  { projectId, runId }: RunRef,
  comment: string | null,
): Promise<{ steps: string[] }> {
  const em = deps.orm.em.fork();
  const run = await requireRun(em, projectId, runId);
  const journal = await RunJournal.load(em, projectId, runId);
  const rejected = journal.latestPlan() ?? [];
  const steps = await brainFor(run.planner, deps.config).plan({
    project: run.project,
    runId,
    journal,
    feedback: { steps: rejected, comment },
  });
  const [stored] = await deps.emit(projectId, runId, [
    {
      key: eventKeys.replan(runId),
      type: 'plan',
      data: { steps, revision: journal.planCount() + 1 },
    },
  ]);
  return { steps: (stored?.data.steps as string[] | undefined) ?? steps };
}

/**
 * One turn: the brain's decision, then each of its tool calls. The decision is recorded before
 * anything runs (calls with invalid arguments are refused right then, see decisionEvents),
 * and every call's result as soon as it is known, so a retried turn replays the recorded
 * decision (an LLM would answer differently) and skips calls that have a result.
 */
/**
 * `gated`: the workflow knows approvals (its code waits on `awaitingApproval`); a workflow of
 * the code before them (a worker not yet upgraded, during a rolling deploy) runs every call as
 * it did, rather than skip one it would never wait for.
 */
export async function runTurn(
  deps: StepDeps,
  ref: RunRef,
  turn: number,
  gated = true,
): Promise<TurnOutcome> {
  const { projectId, runId } = ref;
  const em = deps.orm.em.fork();
  const run = await requireRun(em, projectId, runId);
  const workspace = new Workspace(deps.config.build.workspaceRoot, projectId, runId);
  if (!(await workspace.exists())) {
    throw buildFailure('the workspace of this run is missing on this worker', { retryable: false });
  }
  let journal = await RunJournal.load(em, projectId, runId);
  let decision = journal.decision(turn);
  if (!decision) {
    const decided = await brainFor(run.planner, deps.config).decide({
      project: run.project,
      runId,
      journal,
      turn,
    });
    await deps.emit(projectId, runId, decisionEvents(runId, turn, decided, run.project.template));
    // Read back what the log holds: if another attempt recorded first, its decision wins.
    journal = await RunJournal.load(em, projectId, runId);
    decision = journal.decision(turn);
    if (!decision) throw new Error(`turn ${turn} of run ${runId} has no recorded decision`);
  }
  const gateContext = {
    em,
    publish: deps.publish,
    projectId,
    runId,
    turn,
    policy: await loadPolicy(sqlOf(em), projectId),
    publicBaseUrl: deps.config.publicBaseUrl,
  };
  for (const call of decision.calls) {
    if (journal.result(turn, call.index)) continue;
    const gate = gated ? await gateCall(gateContext, call) : ({ kind: 'run' } as const);
    if (gate.kind === 'wait') return { finished: false, awaitingApproval: gate.awaiting };
    const outcome =
      gate.kind === 'refuse'
        ? gate.outcome
        : await executeTool(
            {
              workspace,
              runId,
              turn,
              index: call.index,
              commandTimeoutMs: deps.config.build.commandTimeoutMs,
              journal,
              template: run.project.template,
              outbound: deps.outbound,
            },
            call,
          );
    const events = resultEvents(runId, turn, call, outcome);
    await deps.emit(projectId, runId, events);
    journal.record(events);
  }
  return { finished: decision.calls.length === 0 };
}

/** How much of the assistant's text a `message` event keeps. */
const MAX_MESSAGE_CHARS = 8 * 1024;

/**
 * The events recording a decision, all appended in one transaction. Calls are checked first:
 * a valid call is recorded with its complete arguments (a retried turn runs it from there);
 * a refused one with a summary of them, together with its error result, so it never runs
 * and a retried turn finds it done.
 */
function decisionEvents(
  runId: string,
  turn: number,
  decided: Decision,
  template: AgentTemplate,
): NewProjectEvent[] {
  // A finishing turn always leaves a message, so the journal shows the turn was decided.
  const text = decided.text ?? (decided.calls.length === 0 ? 'Build finished.' : null);
  const events: NewProjectEvent[] = [];
  if (text)
    events.push({
      key: eventKeys.message(runId, turn),
      type: 'message',
      data: { role: 'assistant', text: cutText(text, MAX_MESSAGE_CHARS) },
    });
  const refusals: NewProjectEvent[] = [];
  decided.calls.forEach((call, index) => {
    const checked = checkToolCall(call, template);
    const recorded = { index, callId: callIdOf(runId, turn, index), tool: checked.tool };
    events.push({
      key: eventKeys.call(runId, turn, index),
      type: 'tool_call',
      data: { tool: checked.tool, args: checked.args ?? null, callId: recorded.callId },
    });
    if (!checked.ok) {
      const outcome = { result: null, error: checked.error, events: [] };
      refusals.push(...resultEvents(runId, turn, { ...recorded, args: checked.args }, outcome));
    }
  });
  return [...events, ...refusals];
}

/** A call's tool_result and, atomically with it, the commit, plan or error it caused. */
function resultEvents(
  runId: string,
  turn: number,
  call: RecordedCall,
  outcome: ToolOutcome,
): NewProjectEvent[] {
  const result = outcome.result ?? null;
  const events: NewProjectEvent[] = [
    {
      key: eventKeys.result(runId, turn, call.index),
      type: 'tool_result',
      data:
        outcome.error === undefined
          ? { callId: call.callId, result }
          : { callId: call.callId, result, error: outcome.error },
    },
    ...outcome.events,
  ];
  if (outcome.error !== undefined) {
    events.push({
      key: eventKeys.toolError(runId, turn, call.index),
      type: 'error',
      data: { message: `${call.tool} failed: ${outcome.error}`, recoverable: true },
    });
  }
  return events;
}
