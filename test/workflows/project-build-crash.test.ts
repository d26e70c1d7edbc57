import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WorkflowHandle } from '@temporalio/client';
import { resolveApproval } from '../../shared/projects/approval-store';
import { projectBuildSignals } from '../../shared/temporal';
import {
  gitLog,
  insertBuildFixture,
  projectEvents,
  startBuild,
  waitFor,
  workspaceOf,
  type BuildFixture,
  type StoredEvent,
} from '../helpers/build-fixtures';
import { createTestContext, type TestContext } from '../helpers/context';
import { assistantReply, startLlmServer, type FakeLlm } from '../helpers/llm-server';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';

const PACE_MS = 300;

/**
 * Runs a build on a worker process, SIGKILLs it right after the second commit event, starts a
 * new worker process and waits for the build to complete. Returns the events seen at the crash.
 */
async function buildThroughCrash(
  ctx: TestContext,
  fixture: BuildFixture,
  workers: WorkerProcess[],
): Promise<{ handle: WorkflowHandle; atCrash: StoredEvent[] }> {
  workers.push(await startWorkerProcess(ctx.config));
  const handle = await startBuild(ctx, fixture, ctx.config.build.paceMs);
  const commitCount = async () =>
    (await projectEvents(ctx, fixture.projectId)).filter((event) => event.type === 'commit').length;
  await waitFor(async () => (await commitCount()) >= 2, 60_000, 'second commit');
  await workers[workers.length - 1]!.crash();
  const atCrash = await projectEvents(ctx, fixture.projectId);
  expect(atCrash.some((event) => event.type === 'done')).toBe(false);

  workers.push(await startWorkerProcess(ctx.config));
  expect(await handle.result()).toEqual({ finalStatus: 'completed', reason: null });
  return { handle, atCrash };
}

/** One event per step, nothing lost or repeated, and git history equal to the commit events. */
async function expectNoDuplicates(
  ctx: TestContext,
  fixture: BuildFixture,
  atCrash: StoredEvent[],
  expectedCommits: number,
): Promise<void> {
  const events = await projectEvents(ctx, fixture.projectId);
  expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
  expect(events.slice(0, atCrash.length)).toEqual(atCrash);
  expect(events.length).toBeGreaterThan(atCrash.length);
  expect(new Set(events.map((event) => event.key)).size).toBe(events.length);
  const steps = events.map(
    (event) => `${event.key.replace(/:(call|result|commit):/, ':')}/${event.type}`,
  );
  expect(new Set(steps).size).toBe(steps.length);
  const calls = events.filter((event) => event.type === 'tool_call').map((e) => e.data.callId);
  const results = events.filter((event) => event.type === 'tool_result').map((e) => e.data.callId);
  expect(new Set(calls).size).toBe(calls.length);
  expect([...results].sort()).toEqual([...calls].sort());
  expect(events.filter((event) => event.type === 'plan')).toHaveLength(1);
  expect(events.filter((event) => event.type === 'done')).toHaveLength(1);
  expect(events.filter((event) => event.type === 'error')).toEqual([]);

  const shas = events.filter((event) => event.type === 'commit').map((event) => event.data.sha);
  expect(shas).toHaveLength(expectedCommits);
  expect(new Set(shas).size).toBe(shas.length);
  expect(gitLog(workspaceOf(ctx, fixture))).toEqual(shas);
  const [run] = await ctx.sql<{ status: string; head_sha: string }>(
    'select status, head_sha from project_runs where id = $1',
    [fixture.runId],
  );
  expect(run).toEqual({ status: 'completed', head_sha: shas.at(-1) });
}

describe('a build survives its worker being SIGKILLed (workers in separate OS processes)', () => {
  // Worker processes stop before their context drops the database under them.
  const workers: WorkerProcess[] = [];
  const stopWorkers = async () => {
    for (const worker of workers.splice(0)) await worker.stop();
  };

  describe('deterministic planner, paced', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext({ BUILD_PACE_MS: String(PACE_MS) });
    });
    afterAll(async () => {
      await stopWorkers();
      await ctx?.close();
    });

    it('completes on a new worker without duplicate events or commits', async () => {
      const fixture = await insertBuildFixture(ctx, { template: 'fullstack-builder' });
      const { atCrash } = await buildThroughCrash(ctx, fixture, workers);
      await expectNoDuplicates(ctx, fixture, atCrash, 3);
    }, 120_000);
  });

  describe('LLM brain, killed in the middle of a turn', () => {
    let ctx: TestContext;
    let llm: FakeLlm;
    beforeAll(async () => {
      llm = await startLlmServer();
      ctx = await createTestContext({ BUILD_PACE_MS: String(PACE_MS), LLM_BASE_URL: llm.url });
    });
    afterAll(async () => {
      await stopWorkers();
      await ctx?.close();
      await llm?.close();
    });

    it('the retried turn replays its recorded decision and resumes after its last result', async () => {
      const fixture = await insertBuildFixture(ctx, { template: 'bot-builder' });
      const write = (path: string, content: string) => ({
        name: 'write_file',
        args: { path, content },
      });
      const commit = (message: string) => ({ name: 'commit', args: { message } });
      llm.handler = (request) => {
        if (request.body.tool_choice !== 'auto') {
          return assistantReply(null, [{ name: 'update_plan', args: { steps: ['a', 'b'] } }]);
        }
        const turn = request.body.messages.filter((message) => message.role === 'assistant').length;
        if (turn === 1)
          return assistantReply('First file.', [write('a.txt', 'a\n'), commit('Add a')]);
        if (turn === 2) {
          // The crash comes right after "Add b", while slow.js runs.
          return assistantReply('Second file, then a slow check.', [
            write('b.txt', 'b\n'),
            commit('Add b'),
            write('slow.js', "setTimeout(() => console.log('slept'), 3000);\n"),
            { name: 'run_command', args: { command: 'node', args: ['slow.js'] } },
            commit('Add slow check'),
          ]);
        }
        return assistantReply('Done.');
      };
      const { handle, atCrash } = await buildThroughCrash(ctx, fixture, workers);
      await expectNoDuplicates(ctx, fixture, atCrash, 3);

      // Turn 2 really was cut short and retried, and the LLM was asked once per turn only.
      const history = await handle.fetchHistory();
      const attempts = (history.events ?? [])
        .map((event) => event.activityTaskStartedEventAttributes?.attempt ?? 0)
        .filter((attempt) => attempt > 1);
      expect(attempts.length).toBeGreaterThanOrEqual(1);
      expect(llm.requests).toHaveLength(4);
      const events = await projectEvents(ctx, fixture.projectId);
      const slow = events.find((event) => event.key === `${fixture.runId}:t2:result:3`)!;
      expect(slow.data.result).toEqual({ exitCode: 0, stdout: 'slept\n', stderr: '' });
    }, 120_000);
  });

  describe('a build waiting for its owner', () => {
    let ctx: TestContext;
    let llm: FakeLlm;
    let page: Server;
    let pageUrl: string;
    let pageHits = 0;
    beforeAll(async () => {
      llm = await startLlmServer();
      page = createServer((_req, res) => {
        pageHits += 1;
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('the page');
      });
      await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
      pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/page`;
      ctx = await createTestContext({ LLM_BASE_URL: llm.url, LLM_TIMEOUT_MS: '60000' });
    });
    afterAll(async () => {
      await stopWorkers();
      await ctx?.close();
      await llm?.close();
      await new Promise((resolve) => page.close(resolve));
    });

    it('is killed while it waits and again after the approval: done once, the page fetched once', async () => {
      let heldTurn2 = false;
      llm.handler = (request) => {
        if (request.body.tool_choice !== 'auto') {
          return assistantReply(null, [{ name: 'update_plan', args: { steps: ['Read'] } }]);
        }
        const turn = request.body.messages.filter((message) => message.role === 'assistant').length;
        if (turn === 1) {
          return assistantReply(null, [{ name: 'fetch_url', args: { url: pageUrl } }]);
        }
        // The first ask of turn 2 never answers: the worker is killed while it waits on it,
        // after the approved call's result is in the journal.
        if (!heldTurn2) {
          heldTurn2 = true;
          return { hang: true };
        }
        return assistantReply('Done.');
      };
      const fixture = await insertBuildFixture(ctx, { template: 'research-agent' });
      workers.push(await startWorkerProcess(ctx.config));
      const handle = await startBuild(ctx, fixture);
      const pending = async () =>
        (
          await ctx.sql<{ id: string; args_digest: string }>(
            `select id, args_digest from approval_requests
              where project_id = $1 and status = 'pending'`,
            [fixture.projectId],
          )
        )[0];
      await waitFor(async () => (await pending()) !== undefined, 60_000, 'an approval request');
      // Killed while the build waits: nothing runs then, and nothing may be lost.
      await workers.at(-1)!.crash();
      const request = (await pending())!;
      await resolveApproval(
        ctx.deps.orm.em.fork(),
        request.id,
        {
          to: 'approved',
          by: 'owner',
          userId: fixture.ownerId,
          argsDigest: request.args_digest,
          remember: null,
        },
        ctx.config.publicBaseUrl,
      );
      await handle.signal(projectBuildSignals.approvalDecided, request.id);

      workers.push(await startWorkerProcess(ctx.config));
      await waitFor(async () => heldTurn2, 60_000, 'turn 2 asking the LLM');
      expect(pageHits).toBe(1);
      // Killed again, right after the approved call ran and was recorded.
      await workers.at(-1)!.crash();
      workers.push(await startWorkerProcess(ctx.config));
      expect(await handle.result()).toEqual({ finalStatus: 'completed', reason: null });

      expect(pageHits).toBe(1);
      const events = await projectEvents(ctx, fixture.projectId);
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
      expect(new Set(events.map((event) => event.key)).size).toBe(events.length);
      expect(events.filter((event) => event.type === 'done')).toHaveLength(1);
      expect(events.filter((event) => event.type === 'approval_requested')).toHaveLength(1);
      expect(events.filter((event) => event.type === 'approval_resolved')).toHaveLength(1);
      const fetched = events.filter(
        (event) => event.type === 'tool_result' && event.key === `${fixture.runId}:t1:result:0`,
      );
      expect(fetched).toHaveLength(1);
      expect(fetched[0]!.data.result).toMatchObject({ text: 'the page' });
    }, 180_000);
  });
});
