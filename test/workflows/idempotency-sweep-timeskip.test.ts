import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { SWEEP_DEFAULTS } from '../../api/maintenance';
import { workflowIds, workflowTypes } from '../../shared/temporal';
import { createActivities } from '../../workers/activities';
import { createTestContext, type TestContext } from '../helpers/context';
import { readTestServices, startTimeSkipping } from '../helpers/services';

let ctx: TestContext;
let env: TestWorkflowEnvironment;

beforeAll(async () => {
  ctx = await createTestContext();
  env = await startTimeSkipping();
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
