import type { z } from 'zod';
import type { ToolCallRequest } from '../brain';
import { cutText, summarizeValue, unstorablePath } from '../storable';
import type { AgentTemplate } from '../../../shared/db/entities/project';
import { isToolName, toolArgs, toolsOf, type ToolName } from './schemas';

/** A call whose arguments passed its tool's schema: `args` is what runs (and is recorded). */
export type ValidCall = {
  [T in ToolName]: { ok: true; tool: T; args: z.output<(typeof toolArgs)[T]> };
}[ToolName];

/** A call that must not run: a storable summary of what was asked, and why it was refused. */
export interface RefusedCall {
  ok: false;
  tool: string;
  args: unknown;
  error: string;
}

const TOOL_NAME_CHARS = 64;
const PROBLEMS_SHOWN = 3;

/**
 * Validates a call the brain asked for, before anything of it is recorded. A valid call's
 * arguments are the schema's output, complete and storable: unknown keys are dropped, and a
 * retried turn runs the call again from the record. A refused call is recorded as a summary
 * (long strings cut), so a brain cannot push megabytes into the public event log.
 */
export function checkToolCall(
  call: ToolCallRequest,
  template: AgentTemplate,
): ValidCall | RefusedCall {
  const tools = toolsOf(template);
  if (!isToolName(call.tool) || !tools.includes(call.tool)) {
    const tool = cutText(call.tool, TOOL_NAME_CHARS);
    return refused(call, tool, `unknown tool "${tool}"; the tools are ${tools.join(', ')}`);
  }
  const parsed = toolArgs[call.tool].safeParse(call.args);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`,
    );
    const shown = problems.slice(0, PROBLEMS_SHOWN);
    if (problems.length > shown.length)
      shown.push(`…[${problems.length - shown.length} more problems]`);
    return refused(call, call.tool, `invalid arguments for ${call.tool}: ${shown.join('; ')}`);
  }
  const unstorable = unstorablePath(parsed.data);
  if (unstorable) {
    return refused(
      call,
      call.tool,
      `invalid arguments for ${call.tool}: ${unstorable}: contains a NUL character or an unpaired surrogate`,
    );
  }
  return { ok: true, tool: call.tool, args: parsed.data } as ValidCall;
}

function refused(call: ToolCallRequest, tool: string, error: string): RefusedCall {
  return { ok: false, tool, args: summarizeValue(call.args), error };
}
