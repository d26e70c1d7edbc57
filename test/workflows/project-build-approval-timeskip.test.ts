import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { workflowIds, workflowTypes } from '../../shared/temporal';
import { createActivities } from '../../workers/activities';
import { insertBuildFixture, projectEvents, type BuildFixture } from '../helpers/build-fixtures';
import { createTestContext, type TestContext } from '../helpers/context';
import { assistantReply, startLlmServer, type FakeLlm } from '../helpers/llm-server';
import { readTestServices, startTimeSkipping } from '../helpers/services';

/**
 * An approval request nobody answers (docs/spec/contract.md §16), on the time-skipping test
 * server: the build's durable timer runs out at `expiresAt` and the request expires; then
 * `onTimeout` decides: `reject` refuses the call and the build goes on, `fail` fails it.
 */

let ctx: TestContext;
let env: TestWorkflowEnvironment;
let llm: FakeLlm;

beforeAll(async () => {
  llm = await startLlmServer();
  // The page is never fetched: nobody approves. Port 9 on loopback would refuse anyway.
  llm.handler = (request) => {
    if (request.body.tool_choice !== 'auto') {
      return assistantReply(null, [{ name: 'update_plan', args: { steps: ['Read'] } }]);
    }
    const turn = request.body.messages.filter((message) => message.role === 'assistant').length;
    return turn === 1
      ? assistantReply(null, [{ name: 'fetch_url', args: { url: 'http://127.0.0.1:9/page' } }])
      : assistantReply('Done without the page.');
  };
  ctx = await createTestContext({ LLM_BASE_URL: llm.url, LLM_TIMEOUT_MS: '5000' });
  env = await startTimeSkipping();
});
afterAll(async () => {
  await env?.teardown();
  await ctx?.close();
  await llm?.close();
});

async function buildWithPolicy(onTimeout: 'reject' | 'fail'): Promise<BuildFixture> {
  const fixture = await insertBuildFixture(ctx, { template: 'research-agent' });
  await ctx.sql(
    `insert into project_approval_policies (project_id, mode, rules, plan_approval,
       timeout_seconds, on_timeout, updated_by, updated_at)
     values ($1, 'ask_risky', '[]', false, 3600, $2, $3, now())`,
    [fixture.projectId, onTimeout, fixture.ownerId],
  );
  return fixture;
}

async function runBuild(fixture: BuildFixture): Promise<unknown> {
  const taskQueue = `${ctx.config.temporal.taskQueue}-approval-timeskip`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: readTestServices().workflowBundlePath },
    activities: createActivities({
      orm: ctx.deps.orm,
      config: ctx.config,
      redis: ctx.deps.redis,
      temporal: ctx.deps.temporal,
      logger: ctx.logger,
    }),
  });
  return worker.runUntil(async (): Promise<unknown> => {
    const handle = await env.client.workflow.start(workflowTypes.projectBuild, {
      workflowId: workflowIds.projectBuild(fixture.projectId, fixture.runId),
      taskQueue,
      args: [{ projectId: fixture.projectId, runId: fixture.runId, paceMs: 0 }],
    });
    // Awaiting the result lets the server skip the hour the request waits.
    return (await handle.result()) as unknown;
  });
}

const requestsOf = (fixture: BuildFixture) =>
  ctx.sql<{ status: string; decided_by: number | null }>(
    'select status, decided_by from approval_requests where project_id = $1',
    [fixture.projectId],
  );

describe('an approval request nobody answers', () => {
  it('expires at its deadline; onTimeout reject refuses the call and the build goes on', async () => {
    const fixture = await buildWithPolicy('reject');
    expect(await runBuild(fixture)).toEqual({ finalStatus: 'completed', reason: null });
    expect(await requestsOf(fixture)).toEqual([{ status: 'expired', decided_by: null }]);
    const events = await projectEvents(ctx, fixture.projectId);
    expect(events.find((event) => event.type === 'approval_resolved')?.data).toMatchObject({
      decision: 'expired',
      by: 'timeout',
    });
    expect(
      events.find((event) => event.type === 'tool_result' && event.data.error)?.data.error,
    ).toBe('the owner did not answer in time; this fetch_url call did not run');
    const audit = await ctx.sql<{ action: string; actor: string }>(
      'select action, actor from approval_audit where project_id = $1 order by id',
      [fixture.projectId],
    );
    expect(audit).toEqual([
      { action: 'requested', actor: 'system:build' },
      { action: 'notified', actor: 'system:build' },
      { action: 'expired', actor: 'system:timeout' },
    ]);
    const messages = await ctx.sql<{ kind: string }>(
      'select kind from notifications where user_id = $1 order by created_at',
      [fixture.ownerId],
    );
    // The owner (not a subscriber here) hears of the request and of its expiry.
    expect(messages.map((message) => message.kind)).toEqual([
      'project.approval_requested',
      'project.approval_resolved',
    ]);
  });

  it('fails the build under onTimeout fail, saying why', async () => {
    const fixture = await buildWithPolicy('fail');
    expect(await runBuild(fixture)).toEqual({
      finalStatus: 'failed',
      reason: 'the owner did not answer the approval request for fetch_url in time',
    });
    expect(await requestsOf(fixture)).toEqual([{ status: 'expired', decided_by: null }]);
  });
});
