import { realpath, stat } from 'node:fs/promises';
import { ToolError } from '../errors';
import { MINIMAL_PATH, runProcess, type ProcessResult } from '../process';
import type { Workspace } from '../workspace';
import { assertRealPathInside, workspacePath } from './paths';
import { MAX_OUTPUT_CHARS } from './schemas';

const MAX_BUFFER = 1024 * 1024;

// Node 20 calls the permission model `--experimental-permission`; newer releases `--permission`.
const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has('--permission')
  ? '--permission'
  : '--experimental-permission';

export interface CommandResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

interface Invocation {
  file: string;
  args: string[];
}

/** Options each read-only program accepts; every other argument must be a workspace path. */
const READ_OPTIONS: Record<'ls' | 'cat' | 'wc', Set<string>> = {
  ls: new Set(['-l', '-a', '-la', '-al', '-R', '-1', '-lh', '-F']),
  cat: new Set(['-n']),
  wc: new Set(['-l', '-w', '-c', '-m', '-L']),
};

const GIT_SUBCOMMANDS = new Set(['status', 'log', 'diff', 'show']);
// Read-only presentation options only: nothing that writes a file (--output), reads outside
// the repository (--no-index) or runs a program (--ext-diff, --textconv).
const GIT_OPTION = [
  /^--(oneline|stat|numstat|shortstat|name-only|name-status|short|porcelain|no-color|cached|staged|patch|summary|decorate|graph|all|reverse)$/,
  /^-(s|p|\d{1,4}|n\d{0,4})$/,
  /^--(max-count=\d{1,4}|format=[^\n]{1,200}|pretty=[^\n]{1,200})$/,
];
const GIT_OPERAND = /^[\w./:~^@{}-]{1,200}$/;

/**
 * Runs one allow-listed command in the workspace, with the configured time limit (then
 * SIGKILL), a minimal environment and output truncated to 4 KB per stream. A non-zero exit,
 * a timeout or a refused command is a ToolError carrying the output, for the brain to see.
 */
export async function runWorkspaceCommand(
  workspace: Workspace,
  args: { command: 'node' | 'ls' | 'cat' | 'wc' | 'git'; args: string[] },
  timeoutMs: number,
): Promise<CommandResult> {
  const env = { PATH: MINIMAL_PATH, LANG: 'C.UTF-8', HOME: workspace.dir };
  let outcome: ProcessResult;
  if (args.command === 'git') {
    outcome = await workspace.git(gitArgs(args.args), { timeoutMs, maxBuffer: MAX_BUFFER });
  } else {
    const invocation =
      args.command === 'node'
        ? await nodeInvocation(workspace.dir, args.args)
        : await readInvocation(workspace.dir, args.command, args.args);
    outcome = await runProcess(invocation.file, invocation.args, {
      cwd: workspace.dir,
      env,
      timeoutMs,
      maxBuffer: MAX_BUFFER,
    });
  }
  const result: CommandResult = {
    exitCode: outcome.exitCode,
    stdout: truncate(outcome.stdout),
    stderr: truncate(outcome.stderr),
  };
  if (outcome.timedOut)
    throw new ToolError(`${args.command} timed out after ${timeoutMs} ms and was killed`, result);
  if (outcome.overflowed)
    throw new ToolError(`${args.command} wrote more than 1 MB and was killed`, result);
  if (outcome.exitCode !== 0)
    throw new ToolError(`${args.command} exited with code ${outcome.exitCode}`, result);
  return result;
}

/**
 * `node <script inside the workspace> [args]` under Node's permission model: the script may
 * read and write only the workspace, and may not start processes or worker threads.
 */
async function nodeInvocation(workspaceDir: string, args: string[]): Promise<Invocation> {
  const [script, ...rest] = args;
  if (!script || script.startsWith('-')) {
    throw new ToolError(
      'node runs a script file of the workspace: node <file.js> [args]; no options',
    );
  }
  if (!/\.(js|cjs|mjs)$/.test(script))
    throw new ToolError('node runs .js, .cjs or .mjs files only');
  const target = workspacePath(workspaceDir, script);
  await assertRealPathInside(workspaceDir, target);
  const isFile = await stat(target).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!isFile) throw new ToolError(`script "${script}" does not exist`);
  // Real paths: the permission model compares resolved paths.
  const [root, realScript] = await Promise.all([realpath(workspaceDir), realpath(target)]);
  return {
    file: process.execPath,
    args: [
      PERMISSION_FLAG,
      `--allow-fs-read=${root}`,
      `--allow-fs-write=${root}`,
      '--disable-warning=ExperimentalWarning',
      realScript,
      ...rest,
    ],
  };
}

async function readInvocation(
  workspaceDir: string,
  command: 'ls' | 'cat' | 'wc',
  args: string[],
): Promise<Invocation> {
  const paths = args.filter((arg) => !arg.startsWith('-'));
  for (const option of args.filter((arg) => arg.startsWith('-'))) {
    if (!READ_OPTIONS[command].has(option))
      throw new ToolError(`${command}: option ${option} is not allowed`);
  }
  if (command !== 'ls' && paths.length === 0)
    throw new ToolError(`${command} needs at least one file`);
  for (const path of paths)
    await assertRealPathInside(workspaceDir, workspacePath(workspaceDir, path));
  return { file: command, args };
}

function gitArgs(args: string[]): string[] {
  const [subcommand, ...rest] = args;
  if (!subcommand || !GIT_SUBCOMMANDS.has(subcommand)) {
    throw new ToolError('git allows only the read-only subcommands status, log, diff and show');
  }
  for (const arg of rest) {
    const allowed = arg.startsWith('-')
      ? GIT_OPTION.some((pattern) => pattern.test(arg))
      : GIT_OPERAND.test(arg);
    if (!allowed) throw new ToolError(`git: argument "${arg}" is not allowed`);
  }
  return [subcommand, ...rest];
}

function truncate(output: string): string {
  if (output.length <= MAX_OUTPUT_CHARS) return output;
  return `${output.slice(0, MAX_OUTPUT_CHARS)}\n…[${output.length - MAX_OUTPUT_CHARS} more characters truncated]`;
}
