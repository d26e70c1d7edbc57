import type { BuildProject, PlanFeedback } from '../brain';
import type { RecordedResult, RunJournal } from '../journal';
import { MAX_FILE_BYTES, MAX_OUTPUT_CHARS, toolDefinitions } from '../tools/schemas';
import type { ChatMessage, ChatRequest } from './client';

/** The id under which the initial plan appears in every transcript. */
const PLAN_CALL_ID = 'call_plan';

export const SYSTEM_PROMPT = [
  'You are the build agent of a project platform. You build the project described by the user',
  'inside an empty git workspace, using only the tools given.',
  '- write_file writes whole files (paths relative to the workspace; no "..", no .git;',
  `  at most ${MAX_FILE_BYTES / 1024} KB).`,
  '- run_command runs one allow-listed program without a shell: node <script.js in the',
  '  workspace> [args] (the script may read and write only the workspace and may not start',
  '  processes), ls, cat, wc on workspace paths, git status|log|diff|show (operands: revisions',
  '  HEAD, HEAD~N, HEAD^, commit ids, A..B, and workspace paths, best after "--").',
  `  Output is cut at ${MAX_OUTPUT_CHARS / 1024} KB per stream. There is no npm and no network install.`,
  '- commit stages every change and commits it: commit after each meaningful step.',
  '- update_plan replaces the plan when it changes.',
  'Keep the project small, dependency-free and tested (a node test script using node:assert).',
  'When the project is complete, answer with a short summary and no tool calls: that ends the build.',
].join('\n');

export function projectPrompt(project: BuildProject): string {
  return [
    `Project: ${project.title}`,
    `Template: ${project.template}`,
    `Brief: ${project.brief}`,
  ].join('\n');
}

/**
 * The first call: the model must call update_plan with the initial steps. Servers that ignore
 * `tool_choice` may answer `{"steps":[...]}` as text instead; both are accepted.
 */
export function planRequest(project: BuildProject, feedback?: PlanFeedback): ChatRequest {
  // A rejected plan comes back with the owner's comment: the owner's words are data too.
  const rejected = feedback
    ? `\n\nThe project owner rejected this plan:\n${feedback.steps
        .map((step, index) => `${index + 1}. ${step}`)
        .join('\n')}\nTheir comment: ${JSON.stringify(feedback.comment ?? 'none')}\n` +
      'Make a new plan that answers it.'
    : '';
  return {
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      {
        role: 'user',
        content: `${projectPrompt(project)}${rejected}\n\nFirst, call update_plan with the steps of your build plan.`,
      },
    ],
    tools: toolDefinitions(project.template),
    tool_choice: { type: 'function', function: { name: 'update_plan' } },
  };
}

/**
 * The conversation so far, rebuilt from the run's event log alone (so a turn can run on any
 * worker): the project, the initial plan as an update_plan call, then every earlier turn's
 * assistant message and tool calls, each followed by its recorded result.
 */
export function turnRequest(project: BuildProject, journal: RunJournal, turn: number): ChatRequest {
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: projectPrompt(project) },
    {
      role: 'assistant',
      content: null,
      tool_calls: [toolCall(PLAN_CALL_ID, 'update_plan', { steps: journal.initialPlan() ?? [] })],
    },
    { role: 'tool', tool_call_id: PLAN_CALL_ID, content: JSON.stringify({ revision: 1 }) },
  ];
  for (const recorded of journal.turnsBefore(turn)) {
    messages.push({
      role: 'assistant',
      content: recorded.text,
      ...(recorded.calls.length > 0
        ? { tool_calls: recorded.calls.map((call) => toolCall(call.callId, call.tool, call.args)) }
        : {}),
    });
    for (const call of recorded.calls) {
      messages.push({
        role: 'tool',
        tool_call_id: call.callId,
        content: resultContent(journal.result(recorded.turn, call.index)),
      });
    }
  }
  return { messages, tools: toolDefinitions(project.template), tool_choice: 'auto' };
}

function toolCall(id: string, name: string, args: unknown) {
  return {
    id,
    type: 'function' as const,
    function: {
      name: functionName(name),
      arguments: typeof args === 'string' ? args : JSON.stringify(args),
    },
  };
}

/**
 * A refused call may carry a name the brain made up (recorded cut, with a marker); OpenAI-style
 * APIs refuse a transcript whose function names are not 1–64 of `[A-Za-z0-9_-]`.
 */
function functionName(recorded: string): string {
  return recorded.replace(/[^\w-]/g, '_').slice(0, 64) || 'unknown';
}

function resultContent(recorded: RecordedResult | null): string {
  if (!recorded) return JSON.stringify({ error: 'no result recorded' });
  if (recorded.error !== undefined)
    return JSON.stringify({ error: recorded.error, result: recorded.result });
  return JSON.stringify(recorded.result ?? null);
}
