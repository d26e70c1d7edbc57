import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  insertBuildFixture,
  outboxOf,
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

const KB = 1024;

describe('project build records: what reaches the public event log stays small and storable', () => {
  let ctx: TestContext;
  let llm: FakeLlm;
  let turns: Record<number, { text?: string; calls: Call[] }> = {};
  let activities: ReturnType<typeof projectActivitiesFor>;

  beforeAll(async () => {
    llm = await startLlmServer();
    ctx = await createTestContext({
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'fake-model',
      LLM_TIMEOUT_MS: '10000',
      BUILD_COMMAND_TIMEOUT_MS: '5000',
      BUILD_ARTIFACT_MAX_BYTES: '64',
    });
    activities = projectActivitiesFor(ctx);
    llm.handler = scriptedBrain((k) => turns[k]);
  });
  afterAll(async () => {
    await ctx?.close();
    await llm?.close();
  });

  async function scriptedRun(script: typeof turns): Promise<BuildFixture> {
    turns = script;
    const fixture = await insertBuildFixture(ctx, { title: 'Records' });
    const ref = { projectId: fixture.projectId, runId: fixture.runId };
    await activities.beginProjectRun(ref);
    await activities.planProjectRun(ref);
    return fixture;
  }
  const runTurn = (fixture: BuildFixture, turn: number) =>
    activities.runProjectTurn({ projectId: fixture.projectId, runId: fixture.runId, turn });
  const eventData = async (fixture: BuildFixture, key: string): Promise<EventData | undefined> =>
    (await projectEvents(ctx, fixture.projectId)).find((event) => event.key === key)?.data;

  it('refuses invalid calls before recording them, summarised, and never runs them', async () => {
    const big = 'x'.repeat(3 * KB * KB);
    const fullContent = 'f'.repeat(64 * KB);
    const fixture = await scriptedRun({
      1: {
        text: 'T'.repeat(20 * KB),
        calls: [
          write('big.txt', big),
          { name: 'y'.repeat(5000), args: { a: 1 } },
          {
            name: 'run_command',
            args: { command: 'node', args: Array(50).fill('z'.repeat(2000)) },
          },
          write('nul.txt', 'a\u0000b'),
          write('full.txt', fullContent),
          write('multi.txt', 'é'.repeat(32 * KB + 1)),
          write('nul.js', "process.stdout.write('a\\u0000b');\n"),
          run('node', 'nul.js'),
          { name: 'write_file', args: { path: 'j.txt', content: 'j', junk: 'q'.repeat(100 * KB) } },
          { name: 'run_command', args: { command: 'ls', args: Array(12).fill('l'.repeat(600)) } },
        ],
      },
    });
    const workspace = workspaceOf(ctx, fixture);
    await runTurn(fixture, 1);
    const events = await projectEvents(ctx, fixture.projectId);
    const key = (kind: string, index: number) => `${fixture.runId}:t1:${kind}:${index}`;
    const call = (index: number) => events.find((event) => event.key === key('call', index))!.data;
    const result = (index: number) =>
      events.find((event) => event.key === key('result', index))!.data;

    // Refused: recorded with their long strings cut (and their sizes), an error, nothing run.
    expect(call(0).args).toEqual({
      path: 'big.txt',
      content: `${'x'.repeat(KB)}…[cut: ${3 * KB * KB} characters in all]`,
    });
    expect(call(1).tool).toBe(`${'y'.repeat(64)}…[cut: 5000 characters in all]`);
    // At most 20 items per list and 8 KB of text per call; the rest is only counted.
    expect((call(2).args as { args: string[] }).args).toEqual([
      ...Array(8).fill(`${'z'.repeat(KB)}…[cut: 2000 characters in all]`),
      ...Array(12).fill('…[cut]'),
      '…[50 items in all]',
    ]);
    expect([0, 1, 2, 3, 5, 9].map((index) => result(index).error)).toEqual([
      `invalid arguments for write_file: content: ${3 * KB * KB} bytes is over the limit of ${64 * KB} bytes`,
      `unknown tool "${'y'.repeat(64)}…[cut: 5000 characters in all]"; the tools are write_file, run_command, commit, update_plan, fetch_url`,
      'invalid arguments for run_command: args: Too big: expected array to have <=20 items',
      'invalid arguments for write_file: content: contains a NUL character or an unpaired surrogate',
      `invalid arguments for write_file: content: ${64 * KB + 2} bytes is over the limit of ${64 * KB} bytes`,
      `invalid arguments for run_command: ${[0, 1, 2].map((item) => `args.${item}: Too big: expected string to have <=500 characters`).join('; ')}; …[9 more problems]`,
    ]);
    for (const file of ['big.txt', 'nul.txt', 'multi.txt'])
      expect(existsSync(join(workspace, file))).toBe(false);

    // Valid: recorded exactly as they run (unknown keys dropped), and run.
    expect(call(4).args).toEqual({ path: 'full.txt', content: fullContent });
    expect(readFileSync(join(workspace, 'full.txt'), 'utf8')).toBe(fullContent);
    expect(result(7)).toMatchObject({ result: { exitCode: 0, stdout: 'a\ufffdb' } });
    expect(call(8).args).toEqual({ path: 'j.txt', content: 'j' });
    const message = events.find((event) => event.key === `${fixture.runId}:t1:msg`)!.data.text;
    expect(message).toBe(`${'T'.repeat(8 * KB)}…[cut: ${20 * KB} characters in all]`);
    expect(JSON.stringify(events).length).toBeLessThan(100 * KB);

    // A retried turn replays the decision: nothing asked again, no event twice.
    const asked = llm.requests.length;
    await runTurn(fixture, 1);
    expect(llm.requests.length).toBe(asked);
    expect(await projectEvents(ctx, fixture.projectId)).toEqual(events);

    // The worker died before the valid write's result was stored: the recorded arguments are
    // complete, so running the call again writes the whole file.
    const lost = events.find((event) => event.key === key('result', 4))!;
    await ctx.sql('delete from project_events where project_id = $1 and seq >= $2', [
      fixture.projectId,
      lost.seq,
    ]);
    await ctx.sql('update projects set last_event_seq = $2 where id = $1', [
      fixture.projectId,
      lost.seq - 1,
    ]);
    rmSync(join(workspace, 'full.txt'));
    await runTurn(fixture, 1);
    expect(readFileSync(join(workspace, 'full.txt'), 'utf8')).toBe(fullContent);
    expect(await projectEvents(ctx, fixture.projectId)).toEqual(events);
    expect(existsSync(join(workspace, 'big.txt'))).toBe(false);

    // The next turn's transcript shows the refused calls as recorded, under names an
    // OpenAI-style API accepts.
    expect(await runTurn(fixture, 2)).toEqual({ finished: true });
    const replayed = llm.requests.at(-1)!.body.messages.find((m) => m.tool_calls?.length === 10)!;
    const names = replayed.tool_calls!.map((toolCall) => toolCall.function.name);
    expect(names[1]).toBe('y'.repeat(64));
    expect(names.every((name) => /^[\w-]{1,64}$/.test(name))).toBe(true);
    expect(JSON.parse(replayed.tool_calls![0]!.function.arguments)).toEqual(call(0).args);
  });

  it('a commit event lists at most 200 files and says how many there were', async () => {
    const fixture = await scriptedRun({
      1: {
        calls: [
          write(
            'gen.js',
            "const fs = require('node:fs');\nfs.mkdirSync('f');\n" +
              "for (let i = 0; i < 250; i++) fs.writeFileSync(`f/${String(i).padStart(3, '0')}.txt`, `${i}\\n`);\n",
          ),
          run('node', 'gen.js'),
          commit('Many files'),
        ],
      },
    });
    await runTurn(fixture, 1);
    const commitEvent = (await eventData(fixture, `${fixture.runId}:t1:commit:2`))!;
    const first200 = Array.from({ length: 200 }, (_, i) => `f/${String(i).padStart(3, '0')}.txt`);
    expect(commitEvent).toEqual({
      sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      message: 'Many files',
      files: first200,
      filesTotal: 251,
    });
    expect((await eventData(fixture, `${fixture.runId}:t1:result:2`))!.result).toEqual({
      sha: commitEvent.sha,
      files: first200,
      filesTotal: 251,
    });
    const committed = execFileSync(
      'git',
      ['-C', workspaceOf(ctx, fixture), 'show', '--name-only', '--format=', 'HEAD'],
      { encoding: 'utf8' },
    );
    expect(committed.trim().split('\n')).toHaveLength(251);
  });

  it.each([
    ['without a commit', [] as Call[]],
    ['whose artifact is over BUILD_ARTIFACT_MAX_BYTES', [write('a.txt', 'a\n'), commit('A')]],
  ])('a completed run %s announces no artifact URL', async (_, calls) => {
    const fixture = await scriptedRun({ 1: { calls } });
    const ref = { projectId: fixture.projectId, runId: fixture.runId };
    for (let turn = 1; !(await runTurn(fixture, turn)).finished; turn++);
    await activities.finishProjectRun({ ...ref, finalStatus: 'completed', reason: null });

    expect(await outboxOf(ctx, fixture.runId)).toEqual([
      {
        user_id: fixture.ownerId,
        event: 'project.completed',
        data: { slug: fixture.slug, artifact_url: null },
        dedupe_key: `project.completed:${fixture.runId}`,
      },
    ]);
    expect(
      await ctx.sql('select text, data from notifications where user_id = $1 and kind = $2', [
        fixture.subscriberId,
        'project.completed',
      ]),
    ).toEqual([
      {
        text: 'Build of "Records" completed.',
        data: { slug: fixture.slug, runId: fixture.runId, artifactUrl: null },
      },
    ]);
  });
});
