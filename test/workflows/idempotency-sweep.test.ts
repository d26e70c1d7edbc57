import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { ensureIdempotencySweep } from '../../api/maintenance';
import { workflowIds } from '../../shared/temporal';
import { createTestContext, type TestContext } from '../helpers/context';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.startWorker();
});
afterAll(async () => ctx.close());

async function insertKey(key: string, expiresIn: string) {
  await ctx.sql(
    `insert into idempotency_keys (id, principal, method, path, key, fingerprint, status,
       response_status, created_at, expires_at)
     values (gen_random_uuid(), 'user:1', 'POST', '/x', $1, 'f', 'completed', 201, now(),
       now() + $2::interval)`,
    [key, expiresIn],
  );
}

async function remainingKeys(): Promise<string[]> {
  const rows = await ctx.sql<{ key: string }>('select key from idempotency_keys order by key');
  return rows.map((row) => row.key);
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('idempotency sweep workflow (real Temporal server, real worker)', () => {
  it('is started by the API once and purges only expired keys, again and again', async () => {
    const { temporal } = ctx.deps;
    const taskQueue = ctx.config.temporal.taskQueue;
    await insertKey('expired-a', '-1 hour');
    await insertKey('expired-b', '-1 second');
    await insertKey('live', '23 hours');

    const input = { intervalSeconds: 1, purgesPerRun: 2 };
    const runId = await ensureIdempotencySweep(temporal, taskQueue, input);
    // A second API instance booting finds the running workflow instead of starting another.
    expect(await ensureIdempotencySweep(temporal, taskQueue, input)).toBe(runId);

    await waitFor(async () => (await remainingKeys()).length === 1, 15_000);
    expect(await remainingKeys()).toEqual(['live']);

    // Later expiries are purged by later iterations, across continue-as-new.
    await insertKey('expired-later', '-1 minute');
    await waitFor(async () => (await remainingKeys()).length === 1, 15_000);

    const handle = temporal.workflow.getHandle(workflowIds.idempotencySweep(taskQueue));
    const description = await handle.describe();
    expect(description.type).toBe('idempotencySweepWorkflow');
    expect(description.status.name).toBe('RUNNING');
    expect(description.taskQueue).toBe(taskQueue);
    await handle.terminate('test finished');
  });

  it('releases FLOW held by agent calls that never settled, and only expired holds', async () => {
    const { temporal } = ctx.deps;
    const [user] = await ctx.sql<{ id: number }>(
      `insert into users (address, created_at) values ($1, now()) returning id`,
      [`0x${'ab'.repeat(20)}`],
    );
    await ctx.sql(
      `insert into flow_accounts (user_id, balance, held, updated_at) values ($1, 10000000, 5000000, now())`,
      [user!.id],
    );
    await ctx.sql(
      `insert into flow_holds (id, user_id, amount, created_at, expires_at) values
         (gen_random_uuid(), $1, 3000000, now() - interval '1 hour', now() - interval '1 minute'),
         (gen_random_uuid(), $1, 2000000, now(), now() + interval '1 hour')`,
      [user!.id],
    );
    const taskQueue = `${ctx.config.temporal.taskQueue}`;
    const id = workflowIds.idempotencySweep(`${taskQueue}-holds`);
    const handle = await temporal.workflow.start('idempotencySweepWorkflow', {
      workflowId: id,
      taskQueue,
      args: [{ intervalSeconds: 60, purgesPerRun: 1 }],
    });
    const held = async () =>
      (
        await ctx.sql<{ held: string }>('select held from flow_accounts where user_id = $1', [
          user!.id,
        ])
      )[0]!.held;
    await waitFor(async () => (await held()) === '2000000', 15_000);
    const holds = await ctx.sql('select amount from flow_holds where user_id = $1', [user!.id]);
    expect(holds).toEqual([{ amount: '2000000' }]);
    await handle.terminate('test finished');
  });

  it('refuses a duplicate start under the default policy (ids are business ids)', async () => {
    const { temporal } = ctx.deps;
    const taskQueue = ctx.config.temporal.taskQueue;
    const id = workflowIds.idempotencySweep(`${taskQueue}-dup`);
    const options = { workflowId: id, taskQueue, args: [{ intervalSeconds: 60, purgesPerRun: 1 }] };
    const handle = await temporal.workflow.start('idempotencySweepWorkflow', options);
    await expect(
      temporal.workflow.start('idempotencySweepWorkflow', options),
    ).rejects.toBeInstanceOf(WorkflowExecutionAlreadyStartedError);
    await handle.terminate('test finished');
  });
});
