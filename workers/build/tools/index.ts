import type { NewProjectEvent } from '../../../shared/projects/events';
import type { ToolCallRequest } from '../brain';
import { ToolError } from '../errors';
import { eventKeys, type RunJournal } from '../journal';
import type { Workspace } from '../workspace';
import { checkToolCall, type ValidCall } from './check';
import { commitStep } from './commit';
import { runWorkspaceCommand } from './run-command';
import { writeWorkspaceFile } from './write-file';
import { fetchUrl } from './fetch-url';
import type { AgentTemplate } from '../../../shared/db/entities/project';
import type { OutboundClient } from '../../../shared/net/outbound-client';

export { checkToolCall } from './check';

export interface ToolContext {
  workspace: Workspace;
  runId: string;
  turn: number;
  /** The call's position in its turn: with `turn`, it names the step. */
  index: number;
  commandTimeoutMs: number;
  journal: RunJournal;
  template: AgentTemplate;
  /** The SSRF-safe client `fetch_url` reads pages with. */
  outbound: OutboundClient;
}

/** A call's result (or error), and the events it causes besides its `tool_result`. */
export interface ToolOutcome {
  result: unknown;
  error?: string;
  events: NewProjectEvent[];
}

/**
 * Executes one tool call. A failure the brain can react to comes back as `error`; only
 * infrastructure failures (git or the disk misbehaving) throw, failing the step for a retry.
 * The arguments are checked again here (a decision recorded by an older runtime, which did
 * not check them before recording, must not run unchecked either).
 */
export async function executeTool(ctx: ToolContext, call: ToolCallRequest): Promise<ToolOutcome> {
  const checked = checkToolCall(call, ctx.template);
  if (!checked.ok) return { result: null, error: checked.error, events: [] };
  try {
    return await dispatch(ctx, checked);
  } catch (err) {
    if (err instanceof ToolError) return { result: err.result, error: err.message, events: [] };
    throw err;
  }
}

async function dispatch(ctx: ToolContext, call: ValidCall): Promise<ToolOutcome> {
  switch (call.tool) {
    case 'write_file':
      return { result: await writeWorkspaceFile(ctx.workspace.dir, call.args), events: [] };
    case 'run_command':
      return {
        result: await runWorkspaceCommand(ctx.workspace, call.args, ctx.commandTimeoutMs),
        events: [],
      };
    case 'commit':
      return commitStep(ctx, call.args.message);
    case 'fetch_url':
      return { result: await fetchUrl(ctx.outbound, call.args.url), events: [] };
    case 'update_plan': {
      const revision = ctx.journal.planCount() + 1;
      return {
        result: { revision },
        events: [
          {
            key: eventKeys.plan(ctx.runId, ctx.turn, ctx.index),
            type: 'plan',
            data: { steps: call.args.steps, revision },
          },
        ],
      };
    }
  }
}
