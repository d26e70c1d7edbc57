import { randomUUID } from 'node:crypto';
import { chainSyncInput, ensureChainSync, ensureWebhookDispatcher } from '../../api/maintenance';
import { workflowIds } from '../../shared/temporal';
import { localChain } from '../helpers/chain';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { backedOffSleep, howSleepEnded } from '../helpers/idle';
import { insertUser } from '../helpers/webhook-fixtures';

/**
 * Idle loops sleep, and work wakes them (docs/decisions.md "Idle"): the outbox dispatcher and
 * the chain indexer, left with nothing to do, sleep longer and longer (up to a minute); a
 * committed outbox event (PostgreSQL NOTIFY) and a new block (the waker's block watch) end
 * the sleep at once with a `nudge`, so the work is done as quickly as when the loop polled
 * every interval. The history says which ended each sleep: the nudge, not the timer.
 * Notifications: test/integration/notifications.test.ts.
 */

jest.setTimeout(90_000);

const POLL_MS = 100;
/** Six empty looks in a row: the sleep is 64 × the interval, 6.4 s. */
const BACKED_OFF_MS = POLL_MS * 64;

const test = useTestApp({ env: UNLIMITED_RATES, worker: true });

afterAll(async () => {
  const queue = test.ctx.config.temporal.taskQueue;
  for (const id of [workflowIds.webhookDispatch(queue), workflowIds.chainSync(31337, queue)]) {
    await test.ctx.deps.temporal.workflow
      .getHandle(id)
      .terminate('test over')
      .catch(() => undefined);
  }
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('the outbox dispatcher backs off while idle; a committed event wakes it at once', async () => {
  const queue = test.ctx.config.temporal.taskQueue;
  await ensureWebhookDispatcher(test.ctx.deps.temporal, queue, {
    pollIntervalMs: POLL_MS,
    pollsPerRun: 500,
  });
  const handle = test.ctx.deps.temporal.workflow.getHandle(workflowIds.webhookDispatch(queue));
  const timerId = await backedOffSleep(handle, BACKED_OFF_MS, 60_000);

  const userId = await insertUser(test.ctx);
  const [event] = await test.ctx.sql<{ id: string }>(
    `insert into outbox_events (id, user_id, event, data, dedupe_key, created_at)
     values ($1, $2, 'agent.published', '{}'::jsonb, $3, now()) returning id`,
    [randomUUID(), userId, `idle-wake:${randomUUID()}`],
  );
  await waitUntil(
    async () => {
      const [row] = await test.ctx.sql<{ dispatched: boolean }>(
        'select dispatched_at is not null as dispatched from outbox_events where id = $1',
        [event!.id],
      );
      return row!.dispatched;
    },
    // Generous: the history, not the time, tells whether the nudge or the timer woke it.
    60_000,
    'the outbox event dispatched',
  );
  expect(await howSleepEnded(handle, timerId)).toBe('nudge');
});

it('the chain indexer backs off while no block comes; a new block wakes it at once', async () => {
  const queue = test.ctx.config.temporal.taskQueue;
  const chain = localChain(test.ctx.config.chainRpcUrls[31337]!);
  await ensureChainSync(test.ctx.deps.temporal, queue, {
    ...chainSyncInput(test.ctx.config, 31337),
    pollIntervalMs: POLL_MS,
  });
  const handle = test.ctx.deps.temporal.workflow.getHandle(workflowIds.chainSync(31337, queue));
  const timerId = await backedOffSleep(handle, BACKED_OFF_MS, 60_000);

  await chain.anvil.mine({ blocks: 1 });
  const head = Number(await chain.reader.getBlockNumber());
  await waitUntil(
    async () => {
      const [row] = await test.ctx.sql<{ next: string }>(
        'select next_block::text as next from chain_cursors where chain_id = 31337',
      );
      return Number(row?.next ?? 0) > head;
    },
    60_000,
    `block ${head} indexed`,
  );
  expect(await howSleepEnded(handle, timerId)).toBe('nudge');
});
