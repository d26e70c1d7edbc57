import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_TEMPLATES, type AgentTemplate } from '../../shared/db/entities/project';
import { projectBuildQueries, projectBuildSignals } from '../../shared/temporal';
import {
  expectContiguous,
  gitLog,
  insertBuildFixture,
  notificationKinds,
  outboxOf,
  projectEvents,
  projectStatus,
  runRow,
  startBuild,
  tarballFiles,
  waitForProjectEvent,
  workspaceOf,
  projectActivitiesFor,
} from '../helpers/build-fixtures';
import { createTestContext, type TestContext } from '../helpers/context';
import {
  assistantReply,
  startLlmServer,
  type FakeLlm,
  type LlmRequest,
} from '../helpers/llm-server';

/** What each template's run_command proves it ran for real. */
const COMMAND_OUTPUT: Record<AgentTemplate, RegExp> = {
  'fullstack-builder': /^3 of 3 checks passed$/m,
  'bot-builder': /^7 of 7 checks passed$/m,
  'content-machine': /\d+ total$/m,
  'research-agent': /\d+ report\.md$/m,
};

describe('project build workflow: deterministic planners on a real worker', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.startWorker();
  });
  afterAll(async () => ctx?.close());

  it.each(AGENT_TEMPLATES)(
    '%s builds a real project: commits, artifact, webhook, notifications',
    async (template) => {
      const fixture = await insertBuildFixture(ctx, { template });
      const handle = await startBuild(ctx, fixture);
      expect(await handle.result()).toEqual({ finalStatus: 'completed', reason: null });

      const events = await projectEvents(ctx, fixture.projectId);
      expectContiguous(events);
      expect(events[0]).toMatchObject({
        type: 'plan',
        data: { revision: 1 },
        key: `${fixture.runId}:plan:1`,
      });
      expect(events[0]!.data.steps!.length).toBeGreaterThanOrEqual(3);
      expect(events.at(-1)).toMatchObject({
        type: 'done',
        data: { runId: fixture.runId, finalStatus: 'completed' },
      });
      expect(events.filter((event) => event.type === 'error')).toEqual([]);

      const calls = events.filter((event) => event.type === 'tool_call');
      const results = events.filter((event) => event.type === 'tool_result');
      expect(results.map((event) => event.data.callId).sort()).toEqual(
        calls.map((event) => event.data.callId).sort(),
      );
      const commandCall = calls.find((event) => event.data.tool === 'run_command')!;
      const commandResult = results.find((event) => event.data.callId === commandCall.data.callId)!;
      expect(commandResult.data.result?.exitCode).toBe(0);
      expect(commandResult.data.result?.stdout).toMatch(COMMAND_OUTPUT[template]);

      const commits = events.filter((event) => event.type === 'commit');
      expect(commits.length).toBeGreaterThanOrEqual(3);
      expect(gitLog(workspaceOf(ctx, fixture))).toEqual(commits.map((event) => event.data.sha));

      const run = (await runRow(ctx, fixture.runId))!;
      expect(run).toMatchObject({ status: 'completed', planner: 'deterministic', reason: null });
      expect(run.head_sha).toBe(commits.at(-1)!.data.sha);
      expect(run.started_at).not.toBeNull();
      expect(run.finished_at).not.toBeNull();
      expect(run.artifact_bytes).toBe(run.artifact!.length);
      const committedFiles = [
        ...new Set(commits.flatMap((event) => event.data.files ?? [])),
      ].sort();
      expect(tarballFiles(run.artifact!).sort()).toEqual(committedFiles);
      expect(committedFiles.some((file) => /\.(js|md|json|html)$/.test(file))).toBe(true);

      expect(await projectStatus(ctx, fixture.projectId)).toBe('completed');
      expect(await outboxOf(ctx, fixture.runId)).toEqual([
        {
          user_id: fixture.ownerId,
          event: 'project.completed',
          data: {
            slug: fixture.slug,
            artifact_url: `${ctx.config.publicBaseUrl}/projects/${fixture.slug}/runs/${fixture.runId}/artifact`,
          },
          dedupe_key: `project.completed:${fixture.runId}`,
        },
      ]);
      expect(await notificationKinds(ctx, fixture)).toEqual([
        'project.started',
        'project.completed',
      ]);
    },
  );

  it('a retried step emits no duplicate event and makes no second commit', async () => {
    const fixture = await insertBuildFixture(ctx, { template: 'bot-builder' });
    const activities = projectActivitiesFor(ctx);
    const ref = { projectId: fixture.projectId, runId: fixture.runId };
    await activities.beginProjectRun(ref);
    await activities.beginProjectRun(ref);
    await activities.planProjectRun(ref);
    await activities.planProjectRun(ref);
    expect(await activities.runProjectTurn({ ...ref, turn: 1 })).toEqual({ finished: false });
    const afterTurn = await projectEvents(ctx, fixture.projectId);
    expect(await activities.runProjectTurn({ ...ref, turn: 1 })).toEqual({ finished: false });
    expect(await projectEvents(ctx, fixture.projectId)).toEqual(afterTurn);
    const workspace = workspaceOf(ctx, fixture);
    const [commit] = afterTurn.filter((event) => event.type === 'commit');
    expect(gitLog(workspace)).toEqual([commit!.data.sha]);

    // The worker died after `git commit` but before the commit's events were stored.
    const result = afterTurn.find((event) => event.key === `${fixture.runId}:t1:result:2`)!;
    await ctx.sql('delete from project_events where project_id = $1 and seq >= $2', [
      fixture.projectId,
      result.seq,
    ]);
    await ctx.sql('update projects set last_event_seq = $2 where id = $1', [
      fixture.projectId,
      result.seq - 1,
    ]);
    await activities.runProjectTurn({ ...ref, turn: 1 });
    expect(await projectEvents(ctx, fixture.projectId)).toEqual(afterTurn);
    expect(gitLog(workspace)).toEqual([commit!.data.sha]);

    for (let turn = 2; !(await activities.runProjectTurn({ ...ref, turn })).finished; turn++);
    await activities.finishProjectRun({ ...ref, finalStatus: 'completed', reason: null });
    await activities.finishProjectRun({ ...ref, finalStatus: 'completed', reason: null });
    const events = await projectEvents(ctx, fixture.projectId);
    expectContiguous(events);
    expect(events.filter((event) => event.type === 'done')).toHaveLength(1);
    expect(new Set(events.map((event) => event.key)).size).toBe(events.length);
    expect(await outboxOf(ctx, fixture.runId)).toHaveLength(1);
    expect(await notificationKinds(ctx, fixture)).toEqual(['project.started', 'project.completed']);
  });

  it('stops before the next turn on the cancel signal and finishes canceled', async () => {
    const fixture = await insertBuildFixture(ctx, { template: 'fullstack-builder' });
    const handle = await startBuild(ctx, fixture, 500);
    await waitForProjectEvent(ctx, fixture.projectId, 'commit');
    await handle.signal(projectBuildSignals.cancel);
    expect(await handle.result()).toEqual({
      finalStatus: 'canceled',
      reason: 'the build was canceled',
    });

    const events = await projectEvents(ctx, fixture.projectId);
    expectContiguous(events);
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      data: { runId: fixture.runId, finalStatus: 'canceled' },
    });
    expect(events.filter((event) => event.type === 'commit').length).toBeLessThan(3);
    expect(await runRow(ctx, fixture.runId)).toMatchObject({
      status: 'canceled',
      reason: 'the build was canceled',
    });
    expect(await projectStatus(ctx, fixture.projectId)).toBe('canceled');
    expect(await outboxOf(ctx, fixture.runId)).toEqual([]);
    expect(await notificationKinds(ctx, fixture)).toEqual(['project.started', 'project.canceled']);
  });

  it('answers the status query while building and once done', async () => {
    const fixture = await insertBuildFixture(ctx, { template: 'fullstack-builder' });
    const handle = await startBuild(ctx, fixture, 300);
    await waitForProjectEvent(ctx, fixture.projectId, 'tool_call');
    const during = await handle.query(projectBuildQueries.status);
    expect(during).toMatchObject({ phase: 'building', cancelRequested: false, finalStatus: null });
    await handle.result();
    expect(await handle.query(projectBuildQueries.status)).toEqual({
      phase: 'done',
      turns: 4,
      cancelRequested: false,
      finalStatus: 'completed',
    });
  });
});

/** The turn an LLM request is for: each earlier turn (and the plan) left one assistant message. */
function turnOf(request: LlmRequest): number {
  return request.body.messages.filter((message) => message.role === 'assistant').length;
}

describe('project build workflow: LLM brain against a loopback OpenAI-compatible server', () => {
  let ctx: TestContext;
  let llm: FakeLlm;
  beforeAll(async () => {
    llm = await startLlmServer();
    ctx = await createTestContext({
      LLM_BASE_URL: llm.url,
      LLM_API_KEY: 'test-llm-key',
      LLM_MODEL: 'fake-model',
      LLM_TIMEOUT_MS: '5000',
      BUILD_COMMAND_TIMEOUT_MS: '4000',
      BUILD_ARTIFACT_MAX_BYTES: '64',
    });
    await ctx.startWorker();
  });
  afterAll(async () => {
    await ctx?.close();
    await llm?.close();
  });
  beforeEach(() => {
    llm.requests.length = 0;
  });

  it('plans, writes, runs, commits and finishes; a failing command is a recoverable error', async () => {
    const fixture = await insertBuildFixture(ctx, {
      template: 'fullstack-builder',
      title: 'Hello LLM',
    });
    llm.handler = (request) => {
      if (request.body.tool_choice !== 'auto') {
        return assistantReply(null, [
          { name: 'update_plan', args: { steps: ['Write hello.js', 'Run it'] } },
        ]);
      }
      switch (turnOf(request)) {
        case 1:
          return assistantReply('Writing the script.', [
            { name: 'update_plan', args: { steps: ['Write hello.js', 'Run it', 'Commit'] } },
            {
              name: 'write_file',
              args: { path: 'hello.js', content: "console.log('hello ' + process.argv[2]);\n" },
            },
            { name: 'run_command', args: { command: 'node', args: ['hello.js', 'world'] } },
            { name: 'commit', args: { message: 'Add hello script' } },
          ]);
        case 2:
          return assistantReply(null, [
            {
              name: 'write_file',
              args: { path: 'fail.js', content: "console.error('boom');\nprocess.exit(3);\n" },
            },
            { name: 'run_command', args: { command: 'node', args: ['fail.js'] } },
          ]);
        default:
          return assistantReply('Done: hello.js greets.');
      }
    };
    const handle = await startBuild(ctx, fixture);
    expect(await handle.result()).toEqual({ finalStatus: 'completed', reason: null });

    // What the server received: the model, the key, the tools, and the transcript per turn.
    expect(llm.requests).toHaveLength(4);
    const [planCall, turn1, turn2, turn3] = llm.requests as [
      LlmRequest,
      LlmRequest,
      LlmRequest,
      LlmRequest,
    ];
    expect(planCall.path).toBe('/v1/chat/completions');
    expect(planCall.headers.authorization).toBe('Bearer test-llm-key');
    expect(planCall.body.model).toBe('fake-model');
    expect(planCall.body.tool_choice).toEqual({
      type: 'function',
      function: { name: 'update_plan' },
    });
    expect(planCall.body.tools.map((tool) => tool.function.name)).toEqual([
      'write_file',
      'run_command',
      'commit',
      'update_plan',
      // fullstack-builder reads the web too (asking its owner first).
      'fetch_url',
    ]);
    expect(planCall.body.messages[1]!.content).toContain('Hello LLM');
    expect(turn1.body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_plan',
            type: 'function',
            function: {
              name: 'update_plan',
              arguments: JSON.stringify({ steps: ['Write hello.js', 'Run it'] }),
            },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_plan', content: '{"revision":1}' },
    ]);
    const turn1Reply = turn2.body.messages[4]!;
    expect(turn1Reply.content).toBe('Writing the script.');
    expect(turn1Reply.tool_calls!.map((call) => call.function.name)).toEqual([
      'update_plan',
      'write_file',
      'run_command',
      'commit',
    ]);
    const toolMessages = turn2.body.messages.slice(5);
    expect(toolMessages.map((message) => message.tool_call_id)).toEqual(
      turn1Reply.tool_calls!.map((call) => call.id),
    );
    expect(JSON.parse(toolMessages[2]!.content!)).toEqual({
      exitCode: 0,
      stdout: 'hello world\n',
      stderr: '',
    });
    const failed = JSON.parse(turn3.body.messages.at(-1)!.content!);
    expect(failed).toEqual({
      error: 'node exited with code 3',
      result: { exitCode: 3, stdout: '', stderr: 'boom\n' },
    });

    const events = await projectEvents(ctx, fixture.projectId);
    expectContiguous(events);
    expect(events.filter((event) => event.type === 'plan').map((event) => event.data)).toEqual([
      { steps: ['Write hello.js', 'Run it'], revision: 1 },
      { steps: ['Write hello.js', 'Run it', 'Commit'], revision: 2 },
    ]);
    const failedCall = events.find(
      (event) => event.type === 'tool_call' && event.data.args?.args?.[0] === 'fail.js',
    )!;
    expect(
      events.find(
        (event) => event.type === 'tool_result' && event.data.callId === failedCall.data.callId,
      )!.data,
    ).toEqual({
      callId: failedCall.data.callId,
      result: { exitCode: 3, stdout: '', stderr: 'boom\n' },
      error: 'node exited with code 3',
    });
    expect(events.filter((event) => event.type === 'error').map((event) => event.data)).toEqual([
      { message: 'run_command failed: node exited with code 3', recoverable: true },
      { message: 'the artifact is larger than 64 bytes and was not kept', recoverable: true },
    ]);
    const commits = events.filter((event) => event.type === 'commit');
    expect(commits.map((event) => event.data.files)).toEqual([['hello.js']]);
    expect(gitLog(workspaceOf(ctx, fixture))).toEqual(commits.map((event) => event.data.sha));
    expect(events.slice(-3).map((event) => [event.type, event.data.text ?? event.data])).toEqual([
      ['message', 'Done: hello.js greets.'],
      [
        'error',
        { message: 'the artifact is larger than 64 bytes and was not kept', recoverable: true },
      ],
      ['done', { runId: fixture.runId, finalStatus: 'completed' }],
    ]);
    // BUILD_ARTIFACT_MAX_BYTES is 64 here: the run keeps its head commit but no artifact.
    expect(await runRow(ctx, fixture.runId)).toMatchObject({
      status: 'completed',
      planner: 'llm',
      head_sha: commits[0]!.data.sha,
      artifact: null,
      artifact_bytes: null,
    });
    // No artifact, so no link to one (it would be a 404).
    expect(await outboxOf(ctx, fixture.runId)).toEqual([
      {
        user_id: fixture.ownerId,
        event: 'project.completed',
        data: { slug: fixture.slug, artifact_url: null },
        dedupe_key: `project.completed:${fixture.runId}`,
      },
    ]);

    // A recorded turn is replayed, never asked again (the LLM would answer differently).
    const activities = projectActivitiesFor(ctx);
    await activities.runProjectTurn({
      projectId: fixture.projectId,
      runId: fixture.runId,
      turn: 1,
    });
    expect(llm.requests).toHaveLength(4);
    expect(await projectEvents(ctx, fixture.projectId)).toEqual(events);
  });

  it('tools refuse what leaves the workspace or the allow-list, and say why', async () => {
    const fixture = await insertBuildFixture(ctx, { template: 'fullstack-builder' });
    const write = (path: string, content = 'x') => ({
      name: 'write_file',
      args: { path, content },
    });
    const run = (command: string, ...args: string[]) => ({
      name: 'run_command',
      args: { command, args },
    });
    const turns: Record<number, { name: string; args: unknown }[]> = {
      1: [
        { name: 'commit', args: { message: 'Nothing yet' } },
        write('/etc/evil'),
        write('../evil.txt'),
        write('src/../../evil.txt'),
        write('.git/config'),
        write('big.txt', 'x'.repeat(64 * 1024 + 1)),
        { name: 'shell', args: { command: 'ls' } },
        run('rm', '-rf', '.'),
        run('git', 'commit', '-m', 'sneaky'),
        run('git', 'diff', '--output=/tmp/evil'),
      ],
      2: [
        run('cat', '/etc/passwd'),
        run('cat', 'link'),
        run('node', '-e', '1'),
        write(
          'sandbox.js',
          "const fs = require('node:fs');\n" +
            "try { fs.readFileSync('/etc/hostname'); console.log('read allowed'); } catch (e) { console.log('read ' + e.code); }\n" +
            "try { require('node:child_process').execSync('ls'); console.log('spawn allowed'); } catch (e) { console.log('spawn ' + e.code); }\n",
        ),
        run('node', 'sandbox.js'),
        write('spin.js', 'for (;;) {}\n'),
        run('node', 'spin.js'),
        write('noisy.js', "process.stdout.write('x'.repeat(10000));\n"),
        run('node', 'noisy.js'),
        run('git', 'status', '--porcelain'),
      ],
    };
    llm.handler = (request) => {
      if (request.body.tool_choice !== 'auto') {
        return assistantReply(null, [
          { name: 'update_plan', args: { steps: ['Probe the tools'] } },
        ]);
      }
      return assistantReply(null, turns[turnOf(request)] ?? []);
    };
    const activities = projectActivitiesFor(ctx);
    const ref = { projectId: fixture.projectId, runId: fixture.runId };
    await activities.beginProjectRun(ref);
    await activities.planProjectRun(ref);
    await activities.runProjectTurn({ ...ref, turn: 1 });
    // As if a build's script had linked a file outside the workspace.
    const workspace = workspaceOf(ctx, fixture);
    symlinkSync('/etc/passwd', join(workspace, 'link'));
    await activities.runProjectTurn({ ...ref, turn: 2 });
    expect(await activities.runProjectTurn({ ...ref, turn: 3 })).toEqual({ finished: true });

    const events = await projectEvents(ctx, fixture.projectId);
    const resultsOf = (turn: number) =>
      turns[turn]!.map(
        (_, index) =>
          events.find((event) => event.key === `${fixture.runId}:t${turn}:result:${index}`)!.data,
      );
    const [first, second] = [resultsOf(1), resultsOf(2)];
    expect(first.map((result) => result.error)).toEqual([
      'nothing to commit: the workspace has no changes',
      'path "/etc/evil" is absolute; use a path relative to the workspace',
      'path "../evil.txt" leaves the workspace',
      'path "src/../../evil.txt" leaves the workspace',
      'path ".git/config" is inside .git',
      `invalid arguments for write_file: content: ${64 * 1024 + 1} bytes is over the limit of ${64 * 1024} bytes`,
      'unknown tool "shell"; the tools are write_file, run_command, commit, update_plan, fetch_url',
      expect.stringMatching(/^invalid arguments for run_command: command: /),
      'git allows only the read-only subcommands status, log, diff and show',
      'git: argument "--output=/tmp/evil" is not allowed',
    ]);
    expect(existsSync(join(workspace, '..', 'evil.txt'))).toBe(false);
    expect(second.map((result) => result.error)).toEqual([
      'path "/etc/passwd" is absolute; use a path relative to the workspace',
      'path resolves outside the workspace',
      'node runs a script file of the workspace: node <file.js> [args]; no options',
      undefined,
      undefined,
      undefined,
      'node timed out after 4000 ms and was killed',
      undefined,
      undefined,
      undefined,
    ]);
    expect(second[4]!.result).toEqual({
      exitCode: 0,
      stdout: 'read ERR_ACCESS_DENIED\nspawn ERR_ACCESS_DENIED\n',
      stderr: '',
    });
    expect(second[6]!.result).toMatchObject({ exitCode: null });
    expect(second[8]!.result!.stdout).toBe(
      `${'x'.repeat(4096)}\n…[5904 more characters truncated]`,
    );
    expect(second[9]!.result!.stdout).toContain('?? sandbox.js');
    const errors = events.filter((event) => event.type === 'error');
    expect(errors).toHaveLength(14);
    expect(errors.every((event) => event.data.recoverable === true)).toBe(true);
    expect(gitLog(workspace)).toEqual([]);
  });

  it('an LLM that keeps answering 500 fails the build with a reason after bounded retries', async () => {
    const fixture = await insertBuildFixture(ctx, { template: 'research-agent' });
    llm.handler = () => ({ status: 500, body: { error: { message: 'upstream exploded' } } });
    const handle = await startBuild(ctx, fixture);
    const reason = 'the LLM endpoint answered 500';
    expect(await handle.result()).toEqual({ finalStatus: 'failed', reason });
    expect(llm.requests).toHaveLength(4);

    const events = await projectEvents(ctx, fixture.projectId);
    expect(events.map((event) => [event.seq, event.type, event.data])).toEqual([
      [1, 'error', { message: reason, recoverable: false }],
      [2, 'done', { runId: fixture.runId, finalStatus: 'failed' }],
    ]);
    expect(await runRow(ctx, fixture.runId)).toMatchObject({
      status: 'failed',
      reason,
      artifact: null,
    });
    expect(await projectStatus(ctx, fixture.projectId)).toBe('failed');
    expect(await outboxOf(ctx, fixture.runId)).toEqual([
      {
        user_id: fixture.ownerId,
        event: 'project.failed',
        data: { slug: fixture.slug, reason },
        dedupe_key: `project.failed:${fixture.runId}`,
      },
    ]);
    expect(await notificationKinds(ctx, fixture)).toEqual(['project.started', 'project.failed']);
  });

  it('an LLM that refuses the request (401) fails the build at once, without retries', async () => {
    const fixture = await insertBuildFixture(ctx, { template: 'bot-builder' });
    llm.handler = () => ({ status: 401, body: { error: { message: 'bad key' } } });
    const handle = await startBuild(ctx, fixture);
    expect(await handle.result()).toEqual({
      finalStatus: 'failed',
      reason: 'the LLM endpoint refused the request (401)',
    });
    expect(llm.requests).toHaveLength(1);
  });
});
