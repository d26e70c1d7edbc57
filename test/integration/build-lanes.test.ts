import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { mainTaskQueue, workflowIds } from '../../shared/temporal';
import { buildTaskQueue, type BuildLane } from '../../shared/temporal/task-queues';
import { signIn } from '../helpers/auth';
import { insertBuildFixture, startBuild } from '../helpers/build-fixtures';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { assistantReply, type ChatBody, type LlmReply } from '../helpers/llm-server';
import { insertProject } from '../helpers/project-fixtures';
import { grantTier, type SubscriptionStatus, type Tier } from '../helpers/tiers';

/**
 * Build lanes (docs/decisions.md "Build lanes") on a real Temporal server with this file's real
 * workers: the API picks a run's queue from its owner's tier, and each lane's worker has its
 * own slots, so a plus or max build runs while standard builds wait for the standard lane.
 *
 * Every lane has one slot here. The builds are planned by a loopback OpenAI-compatible server
 * that answers at once (a one-step plan, then "done"), except for projects whose title starts
 * with HELD: their requests wait until the test opens the gate. A held plan request is a build
 * step in flight, holding its lane's one slot for as long as the test wants.
 */

const HELD = 'Held step';
const { PENDING_ACTIVITY_STATE_SCHEDULED, PENDING_ACTIVITY_STATE_STARTED } =
  temporal.api.enums.v1.PendingActivityState;

interface GatedLlm {
  url: string;
  /** Requests of HELD projects waiting for the gate. */
  held: number;
  open(): void;
  close(): Promise<void>;
}

function reply(body: ChatBody): LlmReply {
  if (body.tool_choice !== 'auto') {
    return assistantReply(null, [{ name: 'update_plan', args: { steps: ['Probe'] } }]);
  }
  return assistantReply('Done.');
}

async function startGatedLlm(): Promise<GatedLlm> {
  let waiting: (() => void)[] | null = [];
  const gate: GatedLlm = {
    url: '',
    held: 0,
    open() {
      const released = waiting ?? [];
      waiting = null;
      for (const release of released) release();
    },
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatBody;
      const answer = () => {
        const { status, body: payload } = reply(body);
        res.writeHead(status ?? 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const isHeld = body.messages.some((message) => message.content?.includes(HELD));
      if (isHeld && waiting) {
        gate.held += 1;
        waiting.push(answer);
      } else {
        answer();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gate.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  gate.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return gate;
}

let llm: GatedLlm;

beforeAll(async () => {
  llm = await startGatedLlm();
});
const test = useTestApp({
  env: () => ({
    ...UNLIMITED_RATES,
    LLM_BASE_URL: llm.url,
    LLM_API_KEY: 'test-llm-key',
    LLM_MODEL: 'fake-model',
    LLM_TIMEOUT_MS: '120000',
    BUILD_STANDARD_CONCURRENCY: '1',
    BUILD_PRIORITY_CONCURRENCY: '1',
    BUILD_DEDICATED_CONCURRENCY: '1',
  }),
  worker: true,
  // Held plan requests answer, so the workers can drain.
  beforeClose: () => llm?.open(),
});
afterAll(async () => llm?.close());

/** A signed-in user with a subscription of `tier` in `status` (null tier: no row). */
async function userWith(tier: Tier | null, status: SubscriptionStatus = 'active') {
  const user = await signIn(test.app);
  if (tier) await grantTier(test.ctx, user.userId, tier, status);
  return user;
}

interface Started {
  projectId: string;
  runId: string;
  handle: WorkflowHandle;
}

/** Starts a run of `project` through the API, as its owner `user`. */
async function startProject(user: { cookie: string }, project: { id: string; slug: string }) {
  const response = await test.app.inject({
    method: 'POST',
    url: `/projects/${project.slug}/start`,
    headers: { cookie: user.cookie },
  });
  expect(response.statusCode).toBe(200);
  const { runId } = response.json<{ runId: string }>();
  const handle = test.ctx.deps.temporal.workflow.getHandle(
    workflowIds.projectBuild(project.id, runId),
  );
  return { projectId: project.id, runId, handle } satisfies Started;
}

/** A new project of `user` at rest (titled HELD when `held`), started through the API. */
async function startRun(user: { userId: number; cookie: string }, held = false) {
  const project = await insertProject(test.ctx, {
    ownerId: user.userId,
    status: 'idle',
    runId: null,
  });
  if (held) {
    const title = `${HELD} ${randomBytes(3).toString('hex')}`;
    await test.ctx.sql('update projects set title = $2 where id = $1', [project.id, title]);
  }
  return startProject(user, project);
}

/** The queue Temporal runs the build on, and the lane recorded in its start input. */
async function laneOf(run: Started): Promise<{ taskQueue: string; lane: unknown }> {
  const description = await run.handle.describe();
  const history = await run.handle.fetchHistory();
  const payload =
    history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  const input = payload ? defaultPayloadConverter.fromPayload<{ lane?: string }>(payload) : {};
  return { taskQueue: description.taskQueue, lane: input.lane };
}

const queueOf = (lane: BuildLane) => ({
  taskQueue: buildTaskQueue(test.ctx.config.temporal.taskQueue, lane),
  lane,
});

/** The build's pending activities as Temporal has them: type and state. */
async function pendingSteps(run: Started) {
  const { raw } = await run.handle.describe();
  return (raw.pendingActivities ?? []).map((activity) => ({
    type: activity.activityType?.name,
    state: activity.state,
  }));
}

async function runStatus(run: Started): Promise<string | undefined> {
  const [row] = await test.ctx.sql<{ status: string }>(
    'select status from project_runs where id = $1',
    [run.runId],
  );
  return row?.status;
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The build's result, or a failure naming `what` if it takes longer than `timeoutMs`. */
async function finishes(run: Started, what: string, timeoutMs = 20_000): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish in time`)), timeoutMs);
  });
  try {
    return await Promise.race([run.handle.result(), late]);
  } finally {
    clearTimeout(timer);
  }
}

const COMPLETED = { finalStatus: 'completed', reason: null };

describe('build lanes', () => {
  it('plus and max builds run to completion on their lanes while standard builds wait for the standard slot', async () => {
    const free = await userWith(null);
    try {
      // The standard lane's one slot: taken by a build step that does not end until the gate opens.
      const holder = await startRun(free, true);
      await until('the held build step is in flight', () => llm.held > 0);
      expect(await pendingSteps(holder)).toEqual([
        { type: 'planProjectRun', state: PENDING_ACTIVITY_STATE_STARTED },
      ]);

      // A second standard build: its first step is scheduled but no worker slot takes it.
      const waiting = await startRun(await userWith(null));
      await until(
        'the second standard build has scheduled its first step',
        async () => (await pendingSteps(waiting)).length > 0,
      );

      const plus = await startRun(await userWith('plus'));
      const max = await startRun(await userWith('max'));
      expect(await finishes(plus, "the plus user's build (standard lane held)")).toEqual(COMPLETED);
      expect(await finishes(max, "the max user's build (standard lane held)")).toEqual(COMPLETED);
      expect(await runStatus(plus)).toBe('completed');
      expect(await runStatus(max)).toBe('completed');

      // Meanwhile the standard builds have not moved: one step in flight, the other not begun.
      expect(await pendingSteps(waiting)).toEqual([
        { type: 'beginProjectRun', state: PENDING_ACTIVITY_STATE_SCHEDULED },
      ]);
      expect(await runStatus(waiting)).toBe('queued');
      expect(await runStatus(holder)).toBe('running');

      expect(await laneOf(holder)).toEqual(queueOf('standard'));
      expect(await laneOf(waiting)).toEqual(queueOf('standard'));
      expect(await laneOf(plus)).toEqual(queueOf('priority'));
      expect(await laneOf(max)).toEqual(queueOf('dedicated'));

      // The slot frees: both standard builds finish on their lane.
      llm.open();
      expect(await finishes(holder, 'the held standard build')).toEqual(COMPLETED);
      expect(await finishes(waiting, 'the waiting standard build')).toEqual(COMPLETED);
      expect(await runStatus(waiting)).toBe('completed');
    } finally {
      llm.open();
    }
  });

  it('takes the lane from the owner tier at the start: active or grace count, a lapsed one does not', async () => {
    const cases: [Tier | null, SubscriptionStatus, BuildLane][] = [
      [null, 'active', 'standard'],
      ['plus', 'active', 'priority'],
      ['pro', 'active', 'priority'],
      ['max', 'active', 'dedicated'],
      ['plus', 'grace', 'priority'],
      ['max', 'grace', 'dedicated'],
      ['max', 'canceled', 'standard'],
      ['pro', 'none', 'standard'],
    ];
    for (const [tier, status, lane] of cases) {
      const run = await startRun(await userWith(tier, status));
      expect({ tier, status, ...(await laneOf(run)) }).toEqual({ tier, status, ...queueOf(lane) });
      expect(await finishes(run, `the ${tier ?? 'free'} (${status}) build`)).toEqual(COMPLETED);
    }
  });

  it('moves the next run, not the current one, when the owner subscribes', async () => {
    const owner = await userWith(null);
    const project = await insertProject(test.ctx, {
      ownerId: owner.userId,
      status: 'idle',
      runId: null,
    });
    const start = () => startProject(owner, project);
    const first = await start();
    await grantTier(test.ctx, owner.userId, 'plus');
    expect(await finishes(first, 'the run started before the subscription')).toEqual(COMPLETED);
    expect(await laneOf(first)).toEqual(queueOf('standard'));
    const second = await start();
    expect(await finishes(second, 'the run started after the subscription')).toEqual(COMPLETED);
    expect(await laneOf(second)).toEqual(queueOf('priority'));
  });

  it('still runs a build started on the main queue, as runs started before the lanes were', async () => {
    const fixture = await insertBuildFixture(test.ctx);
    const handle = await startBuild(test.ctx, fixture);
    expect(await handle.result()).toEqual(COMPLETED);
    expect((await handle.describe()).taskQueue).toBe(
      mainTaskQueue(test.ctx.config.temporal.taskQueue),
    );
  });
});
