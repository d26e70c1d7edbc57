import type { z } from 'zod';
import type { NewProjectEvent } from '../../../shared/projects/events';
import type { ToolCallRequest } from '../brain';
import { ToolError } from '../errors';
import { eventKeys, type RunJournal } from '../journal';
import type { Workspace } from '../workspace';
import { runWorkspaceCommand } from './run-command';
import { isToolName, TOOL_NAMES, toolArgs } from './schemas';
import { writeWorkspaceFile } from './write-file';

export interface ToolContext {
  workspace: Workspace;
  runId: string;
  turn: number;
  /** The call's position in its turn: with `turn`, it names the step. */
  index: number;
  commandTimeoutMs: number;
  journal: RunJournal;
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
 */
export async function executeTool(ctx: ToolContext, call: ToolCallRequest): Promise<ToolOutcome> {
  try {
    return await dispatch(ctx, call);
  } catch (err) {
    if (err instanceof ToolError) return { result: err.result, error: err.message, events: [] };
    throw err;
  }
}

async function dispatch(ctx: ToolContext, call: ToolCallRequest): Promise<ToolOutcome> {
  if (!isToolName(call.tool)) {
    throw new ToolError(`unknown tool "${call.tool}"; the tools are ${TOOL_NAMES.join(', ')}`);
  }
  switch (call.tool) {
    case 'write_file': {
      const args = parseArgs(toolArgs.write_file, call);
      return { result: await writeWorkspaceFile(ctx.workspace.dir, args), events: [] };
    }
    case 'run_command': {
      const args = parseArgs(toolArgs.run_command, call);
      return {
        result: await runWorkspaceCommand(ctx.workspace, args, ctx.commandTimeoutMs),
        events: [],
      };
    }
    case 'commit':
      return commitStep(ctx, parseArgs(toolArgs.commit, call).message);
    case 'update_plan': {
      const { steps } = parseArgs(toolArgs.update_plan, call);
      const revision = ctx.journal.planCount() + 1;
      return {
        result: { revision },
        events: [
          {
            key: eventKeys.plan(ctx.runId, ctx.turn, ctx.index),
            type: 'plan',
            data: { steps, revision },
          },
        ],
      };
    }
  }
}

/**
 * Commits with a `Build-Step` trailer naming the step. If HEAD already carries it, this step
 * committed before its worker died (after the commit, before its events were written): that
 * commit is reused, so a retried step never makes a second one.
 */
async function commitStep(ctx: ToolContext, message: string): Promise<ToolOutcome> {
  const trailer = `Build-Step: ${ctx.runId}/t${ctx.turn}.${ctx.index}`;
  const head = await ctx.workspace.head();
  let commit: { sha: string; files: string[] };
  if (head && head.message.split('\n').some((line) => line.trim() === trailer)) {
    commit = { sha: head.sha, files: await ctx.workspace.filesOf(head.sha) };
  } else {
    if (!(await ctx.workspace.stageAll()))
      throw new ToolError('nothing to commit: the workspace has no changes');
    commit = await ctx.workspace.commitStaged(`${message}\n\n${trailer}`);
  }
  return {
    result: commit,
    events: [
      {
        key: eventKeys.commit(ctx.runId, ctx.turn, ctx.index),
        type: 'commit',
        data: { sha: commit.sha, message, files: commit.files },
      },
    ],
  };
}

function parseArgs<Schema extends z.ZodType>(
  schema: Schema,
  call: ToolCallRequest,
): z.output<Schema> {
  const parsed = schema.safeParse(call.args);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`)
    .join('; ');
  throw new ToolError(`invalid arguments for ${call.tool}: ${problems}`);
}
