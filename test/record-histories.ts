/**
 * Records the Temporal histories that test/workflows/replay.test.ts replays in CI, into
 * test/fixtures/histories/<scenario>.json (docs/decisions.md, "Workflow changes and replay tests": workflow changes that alter the
 * command order must go behind patched(), and recorded histories prove they did).
 *
 *   npx tsx test/record-histories.ts [scenario ...]   (all scenarios when none is named)
 *
 * Needs what `npm test` needs: PostgreSQL and Redis (TEST_DATABASE_URL / DATABASE_URL,
 * REDIS_URL, defaults on 127.0.0.1) and a Temporal server (TEMPORAL_ADDRESS, else a dev server
 * from the `temporal` CLI). Each scenario runs for real (real worker, real activities); the
 * history of its first run is saved with fetchHistory() + historyToJSON(), prettier-formatted.
 * Re-record when a workflow gains a scenario worth pinning, never to make a failing replay pass:
 * a failing replay means running workflows would break on deploy.
 *
 * A plain script rather than a jest file behind RECORD_HISTORIES=1: recording asserts nothing
 * worth reporting, and a gated test file would show up as skipped in every CI run. It reuses
 * jest's global setup and teardown and the test helpers, so services boot exactly as in tests.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { NativeConnection, Worker } from '@temporalio/worker';
import {
  chainSyncInput,
  ensureChainSync,
  ensureHolderRewardsSchedule,
  ensureMarketplaceStatsRefresh,
  ensureNotificationDelivery,
  ensurePaymentsReconcile,
  ensureWebhookDispatcher,
} from '../api/maintenance';
import { enqueueNotification } from '../shared/notifications/queue';
import { resolveApproval } from '../shared/projects/approval-store';
import { enqueueOutboxEvent } from '../shared/outbox/outbox';
import {
  chainSyncSignals,
  projectBuildSignals,
  subscriptionSignals,
  webhookTaskQueue,
  workflowIds,
  workflowTypes,
} from '../shared/temporal';
import { notificationDeliverySignals } from '../shared/temporal/workflows';
import { createActivities } from '../workers/activities';
import {
  insertBuildFixture,
  startBuild,
  waitFor,
  waitForProjectEvent,
} from './helpers/build-fixtures';
import { createTestContext, type TestContext } from './helpers/context';
import globalSetup from './helpers/global-setup';
import globalTeardown from './helpers/global-teardown';
import { startLlmServer } from './helpers/llm-server';
import { registerMatrixUser } from './helpers/matrix';
import { readTestServices } from './helpers/services';
import { envelopeOf, insertDelivery, insertUser, insertWebhook } from './helpers/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver';

const HISTORIES_DIR = resolve(__dirname, 'fixtures/histories');
/** Small so the sweep continues as new within seconds and its history stays short. */
const SWEEP_INPUT = { intervalSeconds: 1, purgesPerRun: 2 };
type SchedulerInput = { intervalSeconds: number; roundsPerRun: number };

async function saveHistory(name: string, handle: WorkflowHandle): Promise<void> {
  const history = await handle.fetchHistory();
  const path = join(HISTORIES_DIR, `${name}.json`);
  const options = await resolveConfig(path);
  const text = await format(historyToJSON(history), { ...options, filepath: path });
  await writeFile(path, text);
  console.log(`recorded ${path} (${history.events?.length ?? 0} events, ${text.length} bytes)`);
}

/** Fails the recording when a scenario did not end the way its name says. */
function expectOutcome(name: string, actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${name}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

async function buildCompleted(ctx: TestContext): Promise<void> {
  const fixture = await insertBuildFixture(ctx, { template: 'fullstack-builder' });
  const handle = await startBuild(ctx, fixture);
  expectOutcome('build completed', await handle.result(), {
    finalStatus: 'completed',
    reason: null,
  });
  await saveHistory('project-build-completed', handle);
}

/** Paced, so the history also holds the durable timers a cancel signal cuts short. */
async function buildCanceled(ctx: TestContext): Promise<void> {
  const fixture = await insertBuildFixture(ctx, { template: 'fullstack-builder' });
  const handle = await startBuild(ctx, fixture, 300);
  await waitForProjectEvent(ctx, fixture.projectId, 'commit');
  await handle.signal(projectBuildSignals.cancel);
  expectOutcome('build canceled', await handle.result(), {
    finalStatus: 'canceled',
    reason: 'the build was canceled',
  });
  await saveHistory('project-build-canceled', handle);
}

/**
 * A build that waits twice: for its plan (planApproval) and before its run_command (a rule
 * asks for it); both approved as the API approves, row first, then the signal.
 */
async function buildApproved(ctx: TestContext): Promise<void> {
  const fixture = await insertBuildFixture(ctx, { template: 'fullstack-builder' });
  await ctx.sql(
    `insert into project_approval_policies (project_id, mode, rules, plan_approval,
       timeout_seconds, on_timeout, updated_by, updated_at)
     values ($1, 'ask_risky', '[{"tool": "run_command", "action": "ask"}]', true, 3600,
             'reject', $2, now())`,
    [fixture.projectId, fixture.ownerId],
  );
  const handle = await startBuild(ctx, fixture);
  for (let approvals = 0; approvals < 2; approvals++) {
    let pending: { id: string; args_digest: string } | undefined;
    await waitFor(
      async () => {
        [pending] = await ctx.sql<{ id: string; args_digest: string }>(
          `select id, args_digest from approval_requests
            where project_id = $1 and status = 'pending'`,
          [fixture.projectId],
        );
        return pending !== undefined;
      },
      20_000,
      'a pending approval request',
    );
    await resolveApproval(
      ctx.deps.orm.em.fork(),
      pending!.id,
      {
        to: 'approved',
        by: 'owner',
        userId: fixture.ownerId,
        argsDigest: pending!.args_digest,
        remember: null,
      },
      ctx.config.publicBaseUrl,
    );
    await handle.signal(projectBuildSignals.approvalDecided, pending!.id);
  }
  expectOutcome('build approved', await handle.result(), {
    finalStatus: 'completed',
    reason: null,
  });
  await saveHistory('project-build-approved', handle);
}

/** An LLM brain whose endpoint answers 500: planning fails after its bounded retries. */
async function buildFailed(): Promise<void> {
  const llm = await startLlmServer();
  llm.handler = () => ({ status: 500, body: { error: { message: 'upstream exploded' } } });
  const ctx = await createTestContext({
    LLM_BASE_URL: llm.url,
    LLM_API_KEY: 'test-llm-key',
    LLM_MODEL: 'fake-model',
    LLM_TIMEOUT_MS: '5000',
  });
  try {
    await ctx.startWorker();
    const fixture = await insertBuildFixture(ctx, { template: 'research-agent' });
    const handle = await startBuild(ctx, fixture);
    expectOutcome('build failed', await handle.result(), {
      finalStatus: 'failed',
      reason: 'the LLM endpoint answered 500',
    });
    await saveHistory('project-build-failed', handle);
  } finally {
    await ctx.close();
    await llm.close();
  }
}

/** Starts a sweep, waits until its first run continued as new, saves that run, stops it. */
async function recordSweep(ctx: TestContext, taskQueue: string, name: string): Promise<void> {
  const handle = await ctx.deps.temporal.workflow.start(workflowTypes.idempotencySweep, {
    workflowId: workflowIds.idempotencySweep(taskQueue),
    taskQueue,
    args: [SWEEP_INPUT],
  });
  const firstRun = ctx.deps.temporal.workflow.getHandle(
    handle.workflowId,
    handle.firstExecutionRunId,
  );
  await waitFor(
    async () => (await firstRun.describe()).status.name === 'CONTINUED_AS_NEW',
    30_000,
    `${name}: continue-as-new`,
  );
  await saveHistory(name, firstRun);
  await handle.terminate('recorded');
}

/** The sweep as it ran before patched('release-expired-flow-holds'), on a worker of its own. */
async function sweepBeforeFlowHolds(ctx: TestContext): Promise<void> {
  const taskQueue = `${ctx.config.temporal.taskQueue}-before-flow-holds`;
  const connection = await NativeConnection.connect({
    address: readTestServices().temporalAddress,
  });
  const worker = await Worker.create({
    connection,
    namespace: ctx.config.temporal.namespace,
    taskQueue,
    workflowsPath: require.resolve('./fixtures/workflows-before-flow-holds'),
    activities: createActivities({
      orm: ctx.deps.orm,
      config: ctx.config,
      redis: ctx.deps.redis,
      logger: ctx.logger,
      temporal: ctx.deps.temporal,
    }),
  });
  try {
    await worker.runUntil(recordSweep(ctx, taskQueue, 'idempotency-sweep-before-flow-holds'));
  } finally {
    await connection.close();
  }
}

/** A receiver answering 500, 500, 200: two full-jitter pauses, three attempts. */
async function webhookDeliveryRetried(ctx: TestContext, receiver: WebhookReceiver) {
  const path = '/recorded/retried';
  receiver.script(path, [500, 500, 200]);
  const userId = await insertUser(ctx);
  const hook = await insertWebhook(ctx, userId, receiver.url(path));
  const deliveryId = await insertDelivery(ctx, hook.id, envelopeOf(userId, { recorded: true }));
  const handle = await ctx.deps.temporal.workflow.start(workflowTypes.webhookDelivery, {
    workflowId: workflowIds.webhookDelivery(deliveryId),
    taskQueue: webhookTaskQueue(ctx.config.temporal.taskQueue),
    args: [{ deliveryId }],
  });
  expectOutcome('webhook delivery retried', await handle.result(), { ok: true, attempts: 3 });
  await saveHistory('webhook-delivery-retried', handle);
}

/** A dispatcher run that dispatches one event, polls twice more and continues as new. */
async function webhookDispatch(ctx: TestContext, receiver: WebhookReceiver) {
  const path = '/recorded/dispatch';
  const userId = await insertUser(ctx);
  await insertWebhook(ctx, userId, receiver.url(path));
  await ctx.deps.orm.em.fork().transactional((em) =>
    enqueueOutboxEvent(em, {
      userId,
      event: 'agent.published',
      data: { slug: 'recorded' },
      dedupeKey: `recorded:${Date.now()}`,
    }),
  );
  const taskQueue = ctx.config.temporal.taskQueue;
  const input = { pollIntervalMs: 200, pollsPerRun: 3 };
  const firstRunId = await ensureWebhookDispatcher(ctx.deps.temporal, taskQueue, input);
  const id = workflowIds.webhookDispatch(taskQueue);
  const firstRun = ctx.deps.temporal.workflow.getHandle(id, firstRunId);
  await waitFor(
    async () => (await firstRun.describe()).status.name === 'CONTINUED_AS_NEW',
    30_000,
    'webhook dispatch: continue-as-new',
  );
  await receiver.waitFor(path, 1);
  await saveHistory('webhook-dispatch', firstRun);
  await ctx.deps.temporal.workflow.getHandle(id).terminate('recorded');
}

/** A refresh run over one expired row, continued as new after two refreshes. */
async function marketplaceStatsRefresh(ctx: TestContext) {
  const [owner] = await ctx.sql<{ id: number }>(
    `insert into users (address) values ('0x${'e'.repeat(40)}') returning id`,
  );
  await ctx.sql(
    `insert into agents (id, owner_id, slug, name, tags, endpoint_url, endpoint_secret,
                         created_at, updated_at)
     values (gen_random_uuid(), $1, 'recorded-refresh', 'Recorded', '{}', 'https://a.example',
             'whsec_x', now(), now())`,
    [owner?.id],
  );
  await ctx.sql(`update agent_market_stats set days_expire_on = '2000-01-01'`);
  const taskQueue = ctx.config.temporal.taskQueue;
  const input = { intervalSeconds: 1, refreshesPerRun: 2 };
  const firstRunId = await ensureMarketplaceStatsRefresh(ctx.deps.temporal, taskQueue, input);
  const id = workflowIds.marketplaceStatsRefresh(taskQueue);
  const firstRun = ctx.deps.temporal.workflow.getHandle(id, firstRunId);
  await waitFor(
    async () => (await firstRun.describe()).status.name === 'CONTINUED_AS_NEW',
    30_000,
    'marketplace stats refresh: continue-as-new',
  );
  await saveHistory('marketplace-stats-refresh', firstRun);
  await ctx.deps.temporal.workflow.getHandle(id).terminate('recorded');
}

/** An indexer run on the test chain: three passes (one nudged awake), then continue-as-new. */
async function chainSync(ctx: TestContext) {
  const taskQueue = ctx.config.temporal.taskQueue;
  const input = { ...chainSyncInput(ctx.config, 31337), pollIntervalMs: 500, passesPerRun: 3 };
  const firstRunId = await ensureChainSync(ctx.deps.temporal, taskQueue, input);
  const id = workflowIds.chainSync(31337, taskQueue);
  const firstRun = ctx.deps.temporal.workflow.getHandle(id, firstRunId);
  await firstRun.signal(chainSyncSignals.nudge);
  await waitFor(
    async () => (await firstRun.describe()).status.name === 'CONTINUED_AS_NEW',
    30_000,
    'chain sync: continue-as-new',
  );
  await saveHistory('chain-sync', firstRun);
  await ctx.deps.temporal.workflow.getHandle(id).terminate('recorded');
}

/**
 * A maintenance scheduler started as on boot, recorded over its first run: two rounds with
 * nothing to do, then continue-as-new.
 */
async function recordScheduler(
  ctx: TestContext,
  name: string,
  ensure: (client: Client, taskQueue: string, input: SchedulerInput) => Promise<string>,
  idOf: (taskQueue: string) => string,
) {
  const taskQueue = ctx.config.temporal.taskQueue;
  const firstRunId = await ensure(ctx.deps.temporal, taskQueue, {
    intervalSeconds: 1,
    roundsPerRun: 2,
  });
  const id = idOf(taskQueue);
  const firstRun = ctx.deps.temporal.workflow.getHandle(id, firstRunId);
  await waitFor(
    async () => (await firstRun.describe()).status.name === 'CONTINUED_AS_NEW',
    30_000,
    `${name}: continue-as-new`,
  );
  await saveHistory(name, firstRun);
  await ctx.deps.temporal.workflow.getHandle(id).terminate('recorded');
}

/** A distribution of a token that has nothing to share (no launch, an empty pool). */
async function holderRewardDistribution(ctx: TestContext) {
  const owner = await insertUser(ctx);
  const [token] = await ctx.sql<{ id: string }>(
    `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, params, state,
                         created_at)
     values (gen_random_uuid(), $1, 'recorded-rewards', 'Recorded', 'RWRD', 'dpnm', 31337, '{}',
             'pending', now())
     returning id`,
    [owner],
  );
  const period = '2026-11-24';
  const handle = await ctx.deps.temporal.workflow.start(workflowTypes.holderRewardDistribution, {
    workflowId: workflowIds.holderRewardDistribution(token!.id, period),
    taskQueue: ctx.config.temporal.taskQueue,
    args: [{ tokenId: token!.id, period }],
  });
  expectOutcome('holder reward distribution', await handle.result(), {
    distributionId: null,
    credited: 0,
    creditedFlow: 0,
  });
  await saveHistory('holder-reward-distribution', handle);
}

/** Inserts a confirmed subscription payment (as a provider callback would leave it). */
async function paidPayment(ctx: TestContext, userId: number, purpose: string, applied: boolean) {
  const [payment] = await ctx.sql<{ id: string }>(
    `insert into payments (id, user_id, purpose, tier, provider, amount_usd_cents, status,
       provider_invoice_id, provider_payment_id, expires_at, paid_at, applied_at, created_at,
       updated_at)
     values (gen_random_uuid(), $1, $2, 'plus', 'cryptobot', 2000, 'paid', gen_random_uuid(),
       gen_random_uuid(), now() + interval '1 hour', now(), $3, now(), now())
     returning id`,
    [userId, purpose, applied ? new Date() : null],
  );
  return payment!.id;
}

function subscriptionInput(ctx: TestContext, userId: number) {
  return { userId, renewalLeadMs: ctx.config.payments.renewalLeadHours * 3_600_000 };
}

/** A payment signalled with signal-with-start activates; a `changed` signal reloads the row. */
async function subscriptionActivated(ctx: TestContext) {
  const userId = await insertUser(ctx);
  const paymentId = await paidPayment(ctx, userId, 'subscription', false);
  const handle = await ctx.deps.temporal.workflow.signalWithStart(workflowTypes.subscription, {
    workflowId: workflowIds.subscription(userId),
    taskQueue: ctx.config.temporal.taskQueue,
    args: [subscriptionInput(ctx, userId)],
    signal: subscriptionSignals.paymentConfirmed,
    signalArgs: [{ paymentId }],
  });
  await waitFor(
    async () =>
      (
        await ctx.sql('select 1 from payments where id = $1 and applied_at is not null', [
          paymentId,
        ])
      ).length === 1,
    30_000,
    'subscription: activation',
  );
  await ctx.sql('update subscriptions set cancel_at_period_end = true where user_id = $1', [
    userId,
  ]);
  await handle.signal(subscriptionSignals.changed);
  await waitFor(
    async () =>
      (await handle.fetchHistory()).events!.filter((e) => e.activityTaskCompletedEventAttributes)
        .length >= 3,
    30_000,
    'subscription: reload after the change',
  );
  await handle.terminate('recorded');
  await saveHistory('subscription-activated', handle);
}

/** A prepaid period ends: the next period starts and the workflow continues as new. */
async function subscriptionRenewed(ctx: TestContext) {
  const userId = await insertUser(ctx);
  const paymentId = await paidPayment(ctx, userId, 'renewal', true);
  await ctx.sql(
    `insert into subscriptions (user_id, tier, status, provider, renews_at,
       next_period_payment_id, created_at, updated_at)
     values ($1, 'plus', 'active', 'cryptobot', now() + interval '2 seconds', $2, now(), now())`,
    [userId, paymentId],
  );
  const handle = await ctx.deps.temporal.workflow.start(workflowTypes.subscription, {
    workflowId: workflowIds.subscription(userId),
    taskQueue: ctx.config.temporal.taskQueue,
    args: [subscriptionInput(ctx, userId)],
  });
  const firstRun = ctx.deps.temporal.workflow.getHandle(
    handle.workflowId,
    handle.firstExecutionRunId,
  );
  await waitFor(
    async () => (await firstRun.describe()).status.name === 'CONTINUED_AS_NEW',
    30_000,
    'subscription: continue-as-new after the renewal',
  );
  await saveHistory('subscription-renewed', firstRun);
  await ctx.deps.temporal.workflow.getHandle(handle.workflowId).terminate('recorded');
}

/**
 * A delivery run on its own context (the bot configured, on the run's Synapse): one linked
 * user's notification delivered by the first poll, a nudge, three polls, continue-as-new.
 */
async function notificationDelivery(): Promise<void> {
  const [bot, subscriber] = [await registerMatrixUser(), await registerMatrixUser()];
  const ctx = await createTestContext({
    MATRIX_HOMESERVER_URL: readTestServices().synapse.url,
    MATRIX_ACCESS_TOKEN: bot.accessToken,
  });
  try {
    await ctx.startWorker();
    const userId = await insertUser(ctx);
    await ctx.sql('update users set matrix_user_id = $1 where id = $2', [
      subscriber.userId,
      userId,
    ]);
    await enqueueNotification(ctx.deps.orm.em.fork(), {
      userId,
      kind: 'project.completed',
      text: 'Build of "Recorded" completed.',
      data: { slug: 'recorded' },
      dedupeKey: `recorded:${Date.now()}`,
    });
    const taskQueue = ctx.config.temporal.taskQueue;
    const input = { pollIntervalMs: 1000, pollsPerRun: 3 };
    const firstRunId = await ensureNotificationDelivery(ctx.deps.temporal, taskQueue, input);
    const id = workflowIds.notificationDelivery(taskQueue);
    const firstRun = ctx.deps.temporal.workflow.getHandle(id, firstRunId);
    await waitFor(
      async () =>
        (
          await ctx.sql('select 1 from notifications where user_id = $1 and sent_at is not null', [
            userId,
          ])
        ).length === 1,
      30_000,
      'notification delivery: sent',
    );
    await firstRun.signal(notificationDeliverySignals.nudge);
    await waitFor(
      async () => (await firstRun.describe()).status.name === 'CONTINUED_AS_NEW',
      30_000,
      'notification delivery: continue-as-new',
    );
    await saveHistory('notification-delivery', firstRun);
    await ctx.deps.temporal.workflow.getHandle(id).terminate('recorded');
  } finally {
    await ctx.close();
  }
}

type Scenario = (ctx: TestContext, receiver: WebhookReceiver) => Promise<void>;

/** Scenarios on the shared context and worker; `project-build-failed` needs its own. */
const SCENARIOS: Record<string, Scenario> = {
  'project-build-completed': buildCompleted,
  'project-build-canceled': buildCanceled,
  'project-build-approved': buildApproved,
  'idempotency-sweep': (ctx) =>
    recordSweep(ctx, ctx.config.temporal.taskQueue, 'idempotency-sweep'),
  'idempotency-sweep-before-flow-holds': sweepBeforeFlowHolds,
  'webhook-delivery-retried': webhookDeliveryRetried,
  'webhook-dispatch': webhookDispatch,
  'marketplace-stats-refresh': marketplaceStatsRefresh,
  'chain-sync': chainSync,
  'holder-rewards-schedule': (ctx) =>
    recordScheduler(
      ctx,
      'holder-rewards-schedule',
      ensureHolderRewardsSchedule,
      workflowIds.holderRewardsSchedule,
    ),
  'holder-reward-distribution': holderRewardDistribution,
  'subscription-activated': subscriptionActivated,
  'subscription-renewed': subscriptionRenewed,
  'payments-reconcile': (ctx) =>
    recordScheduler(
      ctx,
      'payments-reconcile',
      ensurePaymentsReconcile,
      workflowIds.paymentsReconcile,
    ),
  // On a context of its own (the bot configured) and its own worker, beside the shared one.
  'notification-delivery': () => notificationDelivery(),
};
const OWN_CONTEXT = 'project-build-failed';

function chosenScenarios(): string[] {
  const known = [...Object.keys(SCENARIOS), OWN_CONTEXT];
  const named = process.argv.slice(2);
  const unknown = named.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
  }
  return named.length > 0 ? named : known;
}

async function main(): Promise<void> {
  const chosen = chosenScenarios();
  await mkdir(HISTORIES_DIR, { recursive: true });
  await globalSetup();
  try {
    const ctx = await createTestContext();
    const receiver = await startWebhookReceiver();
    try {
      await ctx.startWorker();
      for (const [name, record] of Object.entries(SCENARIOS)) {
        if (chosen.includes(name)) await record(ctx, receiver);
      }
    } finally {
      await receiver.close();
      await ctx.close();
    }
    if (chosen.includes(OWN_CONTEXT)) await buildFailed();
  } finally {
    await globalTeardown();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
