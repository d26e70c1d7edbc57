import { z } from 'zod';
import type { AgentTemplate } from '../../../shared/db/entities/project';

/**
 * Largest file write_file accepts. A valid call is recorded whole in the public event log (a
 * retried turn runs it again from there) and sent back to the LLM in every later transcript,
 * so it stays small: enough for the small, dependency-free projects builds make.
 */
export const MAX_FILE_BYTES = 64 * 1024;
/** How much of a command's stdout and stderr a tool result carries. */
export const MAX_OUTPUT_CHARS = 4 * 1024;

/** Arguments of the runtime's tools; the LLM brain is given the same schemas as JSON Schema. */
export const toolArgs = {
  write_file: z.object({
    path: z.string().min(1).max(200).describe('File path relative to the workspace root'),
    content: z
      .string()
      .check(
        z.superRefine((content, ctx) => {
          const bytes = Buffer.byteLength(content, 'utf8');
          if (bytes > MAX_FILE_BYTES)
            ctx.addIssue({
              code: 'custom',
              message: `${bytes} bytes is over the limit of ${MAX_FILE_BYTES} bytes`,
            });
        }),
      )
      // Characters never outnumber UTF-8 bytes, so this is the byte limit as JSON Schema says it.
      .meta({ maxLength: MAX_FILE_BYTES })
      .describe(`Full file content (UTF-8 text), at most ${MAX_FILE_BYTES / 1024} KB`),
  }),
  run_command: z.object({
    command: z.enum(['node', 'ls', 'cat', 'wc', 'git']).describe('Allow-listed program'),
    args: z.array(z.string().max(500)).max(20).default([]).describe('Arguments (no shell)'),
  }),
  commit: z.object({
    message: z.string().trim().min(1).max(500).describe('Commit message'),
  }),
  update_plan: z.object({
    steps: z.array(z.string().trim().min(1).max(200)).min(1).max(30).describe('The whole plan'),
  }),
  fetch_url: z.object({
    url: z.string().min(1).max(2048).describe('A public https page'),
  }),
} as const;

export type ToolName = keyof typeof toolArgs;
export const TOOL_NAMES = Object.keys(toolArgs) as ToolName[];

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(toolArgs, name);
}

const descriptions: Record<ToolName, string> = {
  write_file:
    'Create or overwrite a file inside the workspace (no absolute paths, no "..", no .git).',
  run_command:
    'Run an allow-listed command in the workspace: node <script.js inside the workspace> [args], ' +
    'ls, cat, wc with workspace paths, git status|log|diff|show whose operands are revisions ' +
    '(HEAD, HEAD~N, HEAD^, 4-40 hex digit commit ids, A..B) or workspace paths (best after "--"). ' +
    'Output is truncated to 4 KB.',
  commit: 'Stage every change in the workspace and commit it.',
  update_plan: 'Replace the build plan with new steps.',
  fetch_url:
    'Fetch a public https web page and read its text (at most 8 KB of it). Reaches outside ' +
    'the workspace: the project owner may be asked to approve it first, and may refuse.',
};

/** Tools only some templates have: the rest have every tool. */
const TEMPLATE_TOOLS: Partial<Record<ToolName, readonly AgentTemplate[]>> = {
  fetch_url: ['research-agent', 'fullstack-builder'],
};

/** The tools a build of `template` may call. */
export function toolsOf(template: AgentTemplate): ToolName[] {
  return TOOL_NAMES.filter((name) => TEMPLATE_TOOLS[name]?.includes(template) ?? true);
}

/** OpenAI-style function tool definitions of the tools a build of `template` may call. */
export function toolDefinitions(template: AgentTemplate) {
  return toolsOf(template).map((name) => {
    const parameters: Record<string, unknown> = {
      ...z.toJSONSchema(toolArgs[name], { io: 'input' }),
    };
    delete parameters.$schema;
    return {
      type: 'function' as const,
      function: { name, description: descriptions[name], parameters },
    };
  });
}
