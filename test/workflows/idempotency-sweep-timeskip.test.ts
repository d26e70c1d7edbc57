import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { SWEEP_DEFAULTS } from '../../api/maintenance';
import { workflowIds, workflowTypes } from '../../shared/temporal';
import { createActivities } from '../../workers/activities';
import { createTestContext, type TestContext } from '../helpers/context';
import { findTemporalTestServer, readTestServices } from '../helpers/services';

let ctx: TestContext;
let env: TestWorkflowEnvironment;

beforeAll(async () => {
  ctx = await createTestContext();
  const path = findTemporalTestServer();
  const options = path ? { server: { executable: { type: 'existing-path' as const, path } } } : {};
  // The SDK gives the test server 5 s to listen; on a loaded CI machine it sometimes needs a
  // second try (a start-up race of the server process, not the behaviour under test).
  for (let attempt = 1; ; attempt++) {
    try {
      env = await TestWorkflowEnvironment.createTimeSkipping(options);
      break;
    } catch (error) {
      if (attempt === 3 || !/did not start/.test(String(error))) throw error;
    }
  }
});
afterAll(async () => {
  await env?.teardown();
  await ctx.close();
});

describe('idempotency sweep over days (time-skipping test server)', () => {
  it('purges every hour and continues as new after a day, with its real intervals', async () => {
    const taskQueue = ctx.config.temporal.taskQueue;
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
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(workflowTypes.idempotencySweep, {
        workflowId: workflowIds.idempotencySweep(taskQueue),
        taskQueue,
        args: [SWEEP_DEFAULTS],
      });
      // A day and a bit: 24 hourly purges, then the workflow must have continued as new.
      await env.sleep('25 hours');
      const description = await handle.describe();
      expect(description.status.name).toBe('RUNNING');
      expect(description.runId).not.toBe(handle.firstExecutionRunId);

      const history = await env.client.workflow
        .getHandle(handle.workflowId, handle.firstExecutionRunId)
        .fetchHistory();
      const purges = (history.events ?? []).filter(
        (event) =>
          event.activityTaskScheduledEventAttributes?.activityType?.name ===
          'purgeExpiredIdempotencyKeys',
      );
      expect(purges).toHaveLength(SWEEP_DEFAULTS.purgesPerRun);
      await handle.terminate('test finished');
    });
  });
});
