import { access, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { assertNoNestedRepository } from './nested-repos';
import { MINIMAL_PATH, runProcess, type ProcessResult } from './process';

/** Commits of every build are authored by this identity; no git config on the machine is needed. */
export const BUILD_AUTHOR = { name: 'Build Agent', email: 'build-agent@agent-platform.invalid' };

const GIT_TIMEOUT_MS = 60_000;
const GIT_MAX_BUFFER = 16 * 1024 * 1024;

/**
 * git never reads the machine's or the user's configuration, never prompts, and never runs
 * hooks: builds behave the same on every worker, and nothing a build writes can make git run
 * a program.
 */
const GIT_ENV: Record<string, string> = {
  PATH: MINIMAL_PATH,
  LANG: 'C.UTF-8',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: BUILD_AUTHOR.name,
  GIT_AUTHOR_EMAIL: BUILD_AUTHOR.email,
  GIT_COMMITTER_NAME: BUILD_AUTHOR.name,
  GIT_COMMITTER_EMAIL: BUILD_AUTHOR.email,
};
/**
 * Passed to every git: no hooks, no fsmonitor, no transport at all, a bare repository laid
 * down in the work tree is never used, and status, diff, show and commit never look into a
 * nested repository or submodule (git would start a git there that reads that repository's
 * own config, whose filters and fsmonitor are shell commands a build's script could have
 * written). `git add` looks into gitlinks whatever the config says: see stageAll.
 */
const GIT_HARDENING = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['diff.ignoreSubmodules', 'all'],
  ['status.submoduleSummary', 'false'],
  ['submodule.recurse', 'false'],
  ['protocol.allow', 'never'],
  ['safe.bareRepository', 'explicit'],
].flatMap(([key, value]) => ['-c', `${key}=${value}`]);

export interface CommitInfo {
  sha: string;
  files: string[];
}

/**
 * A run's workspace: the work tree `<workspaceRoot>/<projectId>/<runId>` and, beside it, its
 * git directory `<runId>.git`. The work tree holds only a `.git` file pointing there (so
 * `git -C <work tree> log` works as usual), while the repository itself stays out of reach of
 * the build's own programs, which may write only inside the work tree.
 */
export class Workspace {
  readonly dir: string;
  readonly gitDir: string;

  constructor(workspaceRoot: string, projectId: string, runId: string) {
    this.dir = resolve(workspaceRoot, projectId, runId);
    this.gitDir = resolve(workspaceRoot, projectId, `${runId}.git`);
  }

  /** Creates the repository, or leaves an existing one as it is (a retried step). */
  async init(): Promise<void> {
    await mkdir(dirname(this.dir), { recursive: true });
    await this.runGit(['init', '-q', '-b', 'main', `--separate-git-dir=${this.gitDir}`, this.dir], {
      bare: true,
    });
  }

  async exists(): Promise<boolean> {
    try {
      await access(join(this.gitDir, 'HEAD'));
      await access(this.dir);
      return true;
    } catch {
      return false;
    }
  }

  /** Runs git on this repository; resolves with the outcome whatever the exit status. */
  git(
    args: string[],
    limits: { timeoutMs?: number; maxBuffer?: number } = {},
  ): Promise<ProcessResult> {
    return runProcess('git', [...this.repoArgs(), ...args], {
      cwd: this.dir,
      env: GIT_ENV,
      timeoutMs: limits.timeoutMs ?? GIT_TIMEOUT_MS,
      maxBuffer: limits.maxBuffer ?? GIT_MAX_BUFFER,
    });
  }

  /** The last commit, or null before the first one. */
  async head(): Promise<{ sha: string; message: string } | null> {
    const verified = await this.git(['rev-parse', '--verify', '-q', 'HEAD']);
    if (verified.exitCode !== 0) return null;
    const sha = verified.stdout.trim();
    const message = await this.runGit(['log', '-1', '--format=%B', sha]);
    return { sha, message };
  }

  /** Files a commit added, changed or deleted. */
  async filesOf(sha: string): Promise<string[]> {
    const out = await this.runGit([
      'diff-tree',
      '--root',
      '--no-commit-id',
      '--name-only',
      '-r',
      '-z',
      sha,
    ]);
    return out.split('\0').filter((name) => name.length > 0);
  }

  /**
   * Stages everything; false when nothing changed since the last commit. Refused (ToolError)
   * while the work tree holds a nested repository: `git add -A` would take it in as a gitlink,
   * and `git add` looks into a gitlink's repository whatever the config says, starting a git
   * there that runs that repository's own filters.
   */
  async stageAll(): Promise<boolean> {
    await assertNoNestedRepository(this.dir);
    await this.runGit(['add', '-A']);
    const diff = await this.git(['diff', '--cached', '--quiet']);
    if (diff.exitCode !== 0 && diff.exitCode !== 1) throw gitError(['diff'], diff);
    return diff.exitCode === 1;
  }

  async commitStaged(message: string): Promise<CommitInfo> {
    await this.runGit(['commit', '-q', '--no-verify', '-m', message]);
    const sha = (await this.runGit(['rev-parse', 'HEAD'])).trim();
    return { sha, files: await this.filesOf(sha) };
  }

  /** A gzipped tarball of HEAD, or null when there is no commit or it exceeds `maxBytes`. */
  async archiveHead(maxBytes: number): Promise<Buffer | null> {
    if (!(await this.head())) return null;
    const result = await runProcess(
      'git',
      [...this.repoArgs(), 'archive', '--format=tar.gz', 'HEAD'],
      {
        cwd: this.dir,
        env: GIT_ENV,
        timeoutMs: GIT_TIMEOUT_MS,
        maxBuffer: maxBytes,
        encoding: 'buffer',
      },
    );
    if (result.overflowed) return null;
    if (result.exitCode !== 0)
      throw gitError(['archive'], { ...result, stderr: result.stderr.toString() });
    return result.stdout;
  }

  private repoArgs(): string[] {
    return ['--no-pager', ...GIT_HARDENING, `--git-dir=${this.gitDir}`, `--work-tree=${this.dir}`];
  }

  private async runGit(args: string[], options: { bare?: boolean } = {}): Promise<string> {
    const fullArgs = options.bare ? [...GIT_HARDENING, ...args] : [...this.repoArgs(), ...args];
    const result = await runProcess('git', fullArgs, {
      cwd: options.bare ? dirname(this.dir) : this.dir,
      env: GIT_ENV,
      timeoutMs: GIT_TIMEOUT_MS,
      maxBuffer: GIT_MAX_BUFFER,
    });
    if (result.exitCode !== 0) throw gitError(args, result);
    return result.stdout;
  }
}

function gitError(args: string[], result: { exitCode: number | null; stderr: string }): Error {
  const first = args[0] ?? 'git';
  return new Error(
    `git ${first} failed (exit ${result.exitCode}): ${result.stderr.trim().slice(0, 500)}`,
  );
}
