import type { BuildProject, Decision, ToolCallRequest } from '../brain';
import type { RunJournal } from '../journal';

/**
 * A deterministic planner: a fixed plan and a fixed sequence of turns. A turn may read the
 * journal (e.g. quote a command's output recorded by an earlier turn); the last turn calls no
 * tools, which finishes the build.
 */
export interface TemplatePlanner {
  steps(project: BuildProject): string[];
  turns: ((project: BuildProject, journal: RunJournal) => Decision)[];
}

export const writeFile = (path: string, content: string): ToolCallRequest => ({
  tool: 'write_file',
  args: { path, content },
});

export const runCommand = (command: string, ...args: string[]): ToolCallRequest => ({
  tool: 'run_command',
  args: { command, args },
});

export const commit = (message: string): ToolCallRequest => ({ tool: 'commit', args: { message } });

/** The brief's sentences (at least one), for headings, posts and questions. */
export function sentencesOf(brief: string, max = 4): string[] {
  const sentences = brief
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim().replace(/\s+/g, ' '))
    .filter((sentence) => sentence.length > 0)
    .slice(0, max);
  return sentences.length > 0 ? sentences : [brief.trim() || 'No brief given.'];
}

/** A file-name-safe slug of a text. */
export function slugOf(text: string, fallback: string): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** A JavaScript string literal of any text (titles and briefs are user input). */
export const jsString = (text: string): string => JSON.stringify(text);

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Markdown-safe single line (a title or a sentence inside a heading or list item). */
export const mdLine = (text: string): string => text.replace(/[\r\n]+/g, ' ').trim();

/** The stdout of the first run_command of `turn`, as recorded, or null. */
export function commandOutput(journal: RunJournal, turn: number): string | null {
  const decision = journal.decision(turn);
  const call = decision?.calls.find((recorded) => recorded.tool === 'run_command');
  if (!call) return null;
  const recorded = journal.result(turn, call.index);
  const result = recorded?.result as { stdout?: unknown } | null | undefined;
  return typeof result?.stdout === 'string' ? result.stdout.trim() : null;
}

export function packageJson(project: BuildProject, scripts: Record<string, string>): string {
  const manifest = {
    name: slugOf(project.slug, 'project'),
    version: '0.1.0',
    private: true,
    description: mdLine(project.title),
    license: 'UNLICENSED',
    engines: { node: '>=20' },
    scripts,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
