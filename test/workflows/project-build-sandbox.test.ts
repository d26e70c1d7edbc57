import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Workspace } from '../../workers/build/workspace';
import {
  gitLog,
  insertBuildFixture,
  projectEvents,
  workspaceOf,
  type BuildFixture,
  type EventData,
  projectActivitiesFor,
} from '../helpers/build-fixtures';
import { createTestContext, type TestContext } from '../helpers/context';
import {
  scriptedBrain,
  startLlmServer,
  type FakeLlm,
  toolCall,
  type ScriptedCall as Call,
} from '../helpers/llm-server';

const { writeFile: write, runCommand: run, commit } = toolCall;

/** The git CLI as a reviewer (or a build's own script) would use it, outside the runtime. */
function cli(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=Reviewer', '-c', 'user.email=reviewer@example.invalid', ...args],
    { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/**
 * Lays down `sub/`, a git repository inside the work tree whose config runs a shell command
 * (touching `marker`) whenever git cleans one of its files; `sub/f.txt` is left modified.
 */
function plantEvilRepository(workspace: string, marker: string): void {
  const sub = join(workspace, 'sub');
  mkdirSync(sub);
  cli(sub, 'init', '-q');
  cli(sub, 'config', 'filter.evil.clean', `touch ${marker}; cat`);
  writeFileSync(join(sub, '.gitattributes'), '* filter=evil\n');
  writeFileSync(join(sub, 'f.txt'), 'one\n');
  cli(sub, 'add', '-A');
  cli(sub, 'commit', '-q', '-m', 'nested');
  writeFileSync(join(sub, 'f.txt'), 'two\n');
  rmSync(marker, { force: true });
}

describe('project build tools: git and read commands stay inside the workspace', () => {
  let ctx: TestContext;
  let llm: FakeLlm;
  let turns: Record<number, Call[]> = {};
  let activities: ReturnType<typeof projectActivitiesFor>;

  beforeAll(async () => {
    llm = await startLlmServer();
    ctx = await createTestContext({
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'fake-model',
      LLM_TIMEOUT_MS: '5000',
      BUILD_COMMAND_TIMEOUT_MS: '5000',
    });
    activities = projectActivitiesFor(ctx);
    llm.handler = scriptedBrain((k) => ({ calls: turns[k] ?? [] }));
  });
  afterAll(async () => {
    await ctx?.close();
    await llm?.close();
  });

  /** Begins and plans a run whose turns the fake LLM answers from `script`. */
  async function scriptedRun(script: Record<number, Call[]>): Promise<BuildFixture> {
    turns = script;
    const fixture = await insertBuildFixture(ctx);
    const ref = { projectId: fixture.projectId, runId: fixture.runId };
    await activities.beginProjectRun(ref);
    await activities.planProjectRun(ref);
    return fixture;
  }
  const runTurn = (fixture: BuildFixture, turn: number) =>
    activities.runProjectTurn({ projectId: fixture.projectId, runId: fixture.runId, turn });
  /** The tool_result data of every call of `turn`, in call order. */
  async function resultsOf(fixture: BuildFixture, turn: number): Promise<EventData[]> {
    const events = await projectEvents(ctx, fixture.projectId);
    return turns[turn]!.map(
      (_, index) =>
        events.find((event) => event.key === `${fixture.runId}:t${turn}:result:${index}`)!.data,
    );
  }

  it('git takes strict revisions and workspace paths only; nothing outside is ever printed', async () => {
    // Another user's workspace on the same worker, with something to steal.
    const other = join(ctx.config.build.workspaceRoot, randomUUID(), randomUUID());
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'secret.txt'), 'OTHER-USERS-SECRET\n');
    const fixture = await scriptedRun({
      1: [write('a.txt', 'first\n'), commit('First')],
      2: [write('a.txt', 'second\n'), write('b.txt'), commit('Second')],
    });
    const workspace = workspaceOf(ctx, fixture);
    await runTurn(fixture, 1);
    await runTurn(fixture, 2);
    const [, second] = gitLog(workspace) as [string, string];
    symlinkSync(join(other, 'secret.txt'), join(workspace, 'link'));
    turns[3] = [
      run('git', 'diff', '/etc/passwd', '/dev/null'),
      run('git', 'diff', other, workspace),
      run('git', 'diff', '../../x/secret.txt', 'a.txt'),
      run('git', 'show', 'HEAD', '--', '/etc/passwd'),
      run('git', 'log', '--', '../secret.txt'),
      run('git', 'diff', 'HEAD', '--', '.git/config'),
      run('git', 'diff', 'HEAD', 'link'),
      run('git', 'diff', 'HEAD~1', 'HEAD', 'a.txt'),
      run('git', 'log', '--oneline', 'HEAD^..HEAD'),
      run('git', 'diff', '--stat', 'HEAD~1', second.slice(0, 7), '--', 'b.txt'),
    ];
    await runTurn(fixture, 3);

    const results = await resultsOf(fixture, 3);
    const notAllowed = (arg: string, why: string) =>
      `git: argument "${arg}" is not allowed: ${why} (revisions: HEAD, HEAD~N, HEAD^, 4 to 40 hex digits, A..B)`;
    expect(results.map((result) => result.error)).toEqual([
      notAllowed(
        '/etc/passwd',
        'path "/etc/passwd" is absolute; use a path relative to the workspace',
      ),
      notAllowed(other, `path "${other}" is absolute; use a path relative to the workspace`),
      notAllowed('../../x/secret.txt', 'path "../../x/secret.txt" leaves the workspace'),
      'git: path "/etc/passwd" is absolute; use a path relative to the workspace',
      'git: path "../secret.txt" leaves the workspace',
      'git: path ".git/config" is inside .git',
      notAllowed('link', 'path resolves outside the workspace'),
      undefined,
      undefined,
      undefined,
    ]);
    expect(results[7]!.result!.stdout).toContain('-first\n+second\n');
    expect(results[8]!.result!.stdout).toMatch(/^[0-9a-f]{7,} Second\n$/);
    expect(results[9]!.result!.stdout).toContain('b.txt | 1 +');
    const logged = JSON.stringify(await projectEvents(ctx, fixture.projectId));
    expect(logged).not.toContain('root:x:0:0');
    expect(logged).not.toContain('OTHER-USERS-SECRET');
  });

  it('ls, cat, wc and node refuse operands outside the workspace', async () => {
    const fixture = await scriptedRun({
      1: [
        run('ls', '/'),
        run('ls', '-la', '..'),
        run('cat', '../../x/secret.txt'),
        run('wc', '-l', '/etc/passwd'),
        run('cat', '--', '/etc/passwd'),
        run('node', '/etc/passwd.js'),
        run('node', '../x.js'),
        run('cat', 'link'),
        run('ls', '-la', '.'),
      ],
    });
    symlinkSync('/etc/passwd', join(workspaceOf(ctx, fixture), 'link'));
    await runTurn(fixture, 1);
    const results = await resultsOf(fixture, 1);
    expect(results.map((result) => result.error)).toEqual([
      'path "/" is absolute; use a path relative to the workspace',
      'path ".." leaves the workspace',
      'path "../../x/secret.txt" leaves the workspace',
      'path "/etc/passwd" is absolute; use a path relative to the workspace',
      'cat: option -- is not allowed',
      'path "/etc/passwd.js" is absolute; use a path relative to the workspace',
      'path "../x.js" leaves the workspace',
      'path resolves outside the workspace',
      undefined,
    ]);
    expect(results[8]!.result!.stdout).toContain('link -> /etc/passwd');
    expect(JSON.stringify(await projectEvents(ctx, fixture.projectId))).not.toContain('root:x:0:0');
  });

  it('a nested git repository stops commit and git before its config can run anything', async () => {
    const marker = join(ctx.config.build.workspaceRoot, `marker-${randomUUID()}`);
    const fixture = await scriptedRun({ 1: [write('a.txt'), commit('First')] });
    const workspace = workspaceOf(ctx, fixture);
    await runTurn(fixture, 1);
    plantEvilRepository(workspace, marker);
    turns[2] = [commit('Take the nested repo'), run('git', 'status'), run('git', 'diff', 'HEAD')];
    await runTurn(fixture, 2);
    const refused =
      'the workspace holds a nested git repository at "sub/.git"; git runs only on the build\'s own repository, so remove it first';
    expect((await resultsOf(fixture, 2)).map((result) => result.error)).toEqual([
      refused,
      refused,
      refused,
    ]);
    expect(existsSync(marker)).toBe(false);

    // A build's own script can lay one down too, even as a `.git` file.
    rmSync(join(workspace, 'sub'), { recursive: true });
    turns[3] = [
      write(
        'plant.js',
        "require('node:fs').mkdirSync('deep/er', { recursive: true });\n" +
          "require('node:fs').writeFileSync('deep/er/.git', 'gitdir: /tmp\\n');\n",
      ),
      run('node', 'plant.js'),
      run('git', 'status', '--porcelain'),
      commit('Take the planted link'),
    ];
    await runTurn(fixture, 3);
    const planted = refused.replace('sub/.git', 'deep/er/.git');
    expect((await resultsOf(fixture, 3)).map((result) => result.error)).toEqual([
      undefined,
      undefined,
      planted,
      planted,
    ]);
    expect(gitLog(workspace)).toHaveLength(1);
  });

  it('git never descends into a nested repository, even one already in the index', async () => {
    const marker = join(ctx.config.build.workspaceRoot, `marker-${randomUUID()}`);
    const workspace = new Workspace(ctx.config.build.workspaceRoot, randomUUID(), randomUUID());
    await workspace.init();
    writeFileSync(join(workspace.dir, 'a.txt'), 'a\n');
    plantEvilRepository(workspace.dir, marker);
    // What the reviewer did: stage the nested repository as a gitlink behind the runtime's back.
    cli(
      workspace.dir,
      `--git-dir=${workspace.gitDir}`,
      `--work-tree=${workspace.dir}`,
      'add',
      '-A',
    );
    expect(existsSync(marker)).toBe(false);

    expect((await workspace.git(['status', '--porcelain'])).exitCode).toBe(0);
    expect((await workspace.git(['diff', '--cached', '--stat'])).exitCode).toBe(0);
    expect((await workspace.git(['diff'])).exitCode).toBe(0);
    // `git add` looks into a gitlink whatever the config says: the workspace refuses to stage.
    await expect(workspace.stageAll()).rejects.toThrow(
      'the workspace holds a nested git repository at "sub/.git"',
    );
    await workspace.commitStaged('With a gitlink');
    expect((await workspace.git(['show', '--stat', 'HEAD'])).exitCode).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });
});
