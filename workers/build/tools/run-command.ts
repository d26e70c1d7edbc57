import { realpath, stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { ToolError } from '../errors';
import { MINIMAL_PATH, runProcess, type ProcessResult } from '../process';
import type { Workspace } from '../workspace';
import { storableText } from '../storable';
import { assertNoNestedRepository } from '../nested-repos';
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

type GitSubcommand = 'status' | 'log' | 'diff' | 'show';
/**
 * Always passed: no nested repository is looked into (its config could run programs), and
 * no external diff or text conversion program runs.
 */
const GIT_SUBCOMMANDS: Record<GitSubcommand, string[]> = {
  status: ['--ignore-submodules=all'],
  log: ['--no-ext-diff', '--no-textconv'],
  diff: ['--ignore-submodules=all', '--no-ext-diff', '--no-textconv'],
  show: ['--ignore-submodules=all', '--no-ext-diff', '--no-textconv'],
};
// Read-only presentation options only: nothing that writes a file (--output), reads outside
// the repository (--no-index) or runs a program (--ext-diff, --textconv).
const GIT_OPTION = [
  /^--(oneline|stat|numstat|shortstat|name-only|name-status|short|porcelain|no-color|cached|staged|patch|summary|decorate|graph|all|reverse)$/,
  /^-(s|p|\d{1,4}|n\d{0,4})$/,
  /^--(max-count=\d{1,4}|format=[^\n]{1,200}|pretty=[^\n]{1,200})$/,
];
/** HEAD or an abbreviated or full commit id, then ancestry steps: HEAD~2, HEAD^, abc1234^2. */
const REVISION = /^(?:HEAD|[0-9a-fA-F]{4,40})(?:~\d{0,4}|\^\d?){0,8}$/;
const RANGE = /^(.+?)\.\.\.?(.+)$/;
const REVISION_FORMS = 'revisions: HEAD, HEAD~N, HEAD^, 4 to 40 hex digits, A..B';

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
    const gitCommand = await gitArgs(workspace.dir, args.args);
    await assertNoNestedRepository(workspace.dir);
    outcome = await workspace.git(gitCommand, { timeoutMs, maxBuffer: MAX_BUFFER });
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

/**
 * The arguments of an allowed git command. Every operand is either a strict revision or a
 * path the workspace check accepts: anything else could name a file outside the work tree,
 * and `git diff <a> <b>` with a path outside silently compares files anywhere on the worker
 * (implicit --no-index). Paths go after `--`, and pathspecs are literal (no magic, no globs).
 */
async function gitArgs(workspaceDir: string, args: string[]): Promise<string[]> {
  const [subcommand, ...rest] = args;
  if (!subcommand || !Object.hasOwn(GIT_SUBCOMMANDS, subcommand)) {
    throw new ToolError('git allows only the read-only subcommands status, log, diff and show');
  }
  const options: string[] = [];
  const revisions: string[] = [];
  const paths: string[] = [];
  let separated = false;
  for (const arg of rest) {
    if (separated) {
      paths.push(await gitPath(workspaceDir, arg, (message) => `git: ${message}`));
    } else if (arg === '--') {
      separated = true;
    } else if (arg.startsWith('-')) {
      if (!GIT_OPTION.some((pattern) => pattern.test(arg)))
        throw new ToolError(`git: argument "${arg}" is not allowed`);
      options.push(arg);
    } else if (isRevision(arg)) {
      revisions.push(arg);
    } else {
      const refuse = (message: string) =>
        `git: argument "${arg}" is not allowed: ${message} (${REVISION_FORMS})`;
      paths.push(await gitPath(workspaceDir, arg, refuse));
    }
  }
  const fixed = GIT_SUBCOMMANDS[subcommand as GitSubcommand];
  return ['--literal-pathspecs', subcommand, ...fixed, ...options, ...revisions, '--', ...paths];
}

function isRevision(arg: string): boolean {
  const range = RANGE.exec(arg);
  return range ? REVISION.test(range[1]!) && REVISION.test(range[2]!) : REVISION.test(arg);
}

/** A path inside the workspace (links followed), relative to it; refused with `refuse(why)`. */
async function gitPath(
  workspaceDir: string,
  given: string,
  refuse: (message: string) => string,
): Promise<string> {
  try {
    const target = workspacePath(workspaceDir, given);
    await assertRealPathInside(workspaceDir, target);
    return relative(workspaceDir, target) || '.';
  } catch (err) {
    if (err instanceof ToolError) throw new ToolError(refuse(err.message));
    throw err;
  }
}

/** At most 4 KB of a stream, storable (a program may print NUL characters). */
function truncate(output: string): string {
  if (output.length <= MAX_OUTPUT_CHARS) return storableText(output);
  return `${storableText(output.slice(0, MAX_OUTPUT_CHARS))}\n…[${output.length - MAX_OUTPUT_CHARS} more characters truncated]`;
}
