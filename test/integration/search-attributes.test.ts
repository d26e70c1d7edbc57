import { randomBytes } from 'node:crypto';
import type { WorkflowExecutionInfo } from '@temporalio/client';
import type { App } from '../../api/app';
import {
  chainSyncInput,
  ensureChainSync,
  ensureHolderRewardsSchedule,
  ensureIdempotencySweep,
  ensureMarketplaceStatsRefresh,
  ensureNotificationDelivery,
  ensurePaymentsReconcile,
  ensureWebhookDispatcher,
} from '../../api/maintenance';
import { workflowIds, workflowTypes } from '../../shared/temporal';
import {
  ensureSearchAttributes,
  SEARCH_ATTRIBUTE_KEYS,
  searchAttributeKeys,
} from '../../shared/temporal/search-attributes';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { signIn, type SignedIn } from '../helpers/auth';
import { createTestContext, UNLIMITED_RATES, type TestContext } from '../helpers/context';
import { insertProject } from '../helpers/project-fixtures';
import { grantTier } from '../helpers/tiers';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

/**
 * An operator finds a user's workflows in Temporal by their search attributes (docs/decisions.md
 * "Workflow search attributes"): one workflow of each family, started the way the service
 * starts it (API requests, the webhook dispatcher, the holder-reward scheduler, the boot-time
 * singletons), is found by a visibility query on its attributes. Visibility is eventually
 * consistent, so each query is polled until a deadline.
 */

jest.setTimeout(120_000);

const CHAIN_ID = 31337;

let ctx: TestContext;
let app: App;
let receiver: WebhookReceiver;
let alice: SignedIn;
/** Workflow ids this file started, terminated at the end (the singletons run forever). */
const started = new Set<string>();

beforeAll(async () => {
  ctx = await createTestContext({
    ...UNLIMITED_RATES,
    BUILD_PACE_MS: '50',
    WEBHOOK_DISPATCH_INTERVAL_MS: '200',
  });
  app = await ctx.newApi();
  await app.ready();
  await ctx.startWorker();
  receiver = await startWebhookReceiver();
  alice = await signIn(app);
});

afterAll(async () => {
  for (const workflowId of started) {
    await ctx?.deps.temporal.workflow
      .getHandle(workflowId)
      .terminate('test over')
      .catch(() => undefined);
  }
  await receiver?.close();
  await ctx?.close();
});

const taskQueue = () => ctx.config.temporal.taskQueue;

/** The executions `query` matches, once at least one does (within 20 s). */
async function findWorkflows(query: string): Promise<WorkflowExecutionInfo[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found: WorkflowExecutionInfo[] = [];
    for await (const execution of ctx.deps.temporal.workflow.list({ query })) {
      found.push(execution);
    }
    for (const execution of found) started.add(execution.workflowId);
    if (found.length > 0) return found;
    if (Date.now() > deadline) throw new Error(`no workflow matches ${query}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The ids of the workflows `query` finds, without repeats (continue-as-new runs share one). */
async function findIds(query: string): Promise<string[]> {
  return [...new Set((await findWorkflows(query)).map((execution) => execution.workflowId))];
}

it('has every attribute registered with its type on the server the tests use', async () => {
  // The global setup registered them: registering again adds nothing.
  expect(
    await ensureSearchAttributes(ctx.deps.temporal.connection, ctx.config.temporal.namespace),
  ).toEqual([]);
  const listed = await ctx.deps.temporal.connection.operatorService.listSearchAttributes({
    namespace: ctx.config.temporal.namespace,
  });
  for (const key of SEARCH_ATTRIBUTE_KEYS) {
    expect([key.name, listed.customAttributes?.[key.name]]).toEqual([
      key.name,
      encodeSearchAttributeIndexedValueType(key.type),
    ]);
  }
});

describe('a user’s workflows, found by UserId', () => {
  let project: { id: string; slug: string };
  let runId: string;
  let webhookId: string;

  beforeAll(async () => {
    const subscribed = await app.inject({
      method: 'POST',
      url: '/me/webhooks',
      headers: { cookie: alice.cookie },
      payload: { url: receiver.url('/builds'), events: ['project.completed'] },
    });
    expect(subscribed.statusCode).toBe(201);
    webhookId = subscribed.json<{ webhook: { id: string } }>().webhook.id;
    await ensureWebhookDispatcher(ctx.deps.temporal, taskQueue(), {
      pollIntervalMs: ctx.config.webhookDispatchIntervalMs,
      pollsPerRun: 500,
    });

    project = await insertProject(ctx, { ownerId: alice.userId, status: 'idle', runId: null });
    const start = await app.inject({
      method: 'POST',
      url: `/projects/${project.slug}/start`,
      headers: { cookie: alice.cookie },
    });
    expect(start.statusCode).toBe(200);
    runId = start.json<{ runId: string }>().runId;
  });

  it('finds a project build by its owner and project', async () => {
    const ids = await findIds(
      `UserId = '${alice.userId}' AND ProjectId = '${project.id}' ` +
        `AND WorkflowType = '${workflowTypes.projectBuild}'`,
    );
    expect(ids).toEqual([workflowIds.projectBuild(project.id, runId)]);
  });

  it('finds the delivery of the finished build’s webhook by its user and subscription', async () => {
    // project.completed → outbox → dispatcher → the delivery's workflow, started by the worker.
    const [execution, ...others] = await findWorkflows(
      `UserId = '${alice.userId}' AND WebhookId = '${webhookId}' ` +
        `AND WorkflowType = '${workflowTypes.webhookDelivery}'`,
    );
    expect(others).toEqual([]);
    expect(execution!.typedSearchAttributes.get(searchAttributeKeys.userId)).toBe(
      String(alice.userId),
    );
    // What an operator types to see everything of one user: both families at once.
    const types = new Set(
      (await findWorkflows(`UserId = '${alice.userId}'`)).map((found) => found.type),
    );
    expect(types).toEqual(new Set([workflowTypes.projectBuild, workflowTypes.webhookDelivery]));
  });

  it('finds a test ping by its user and subscription', async () => {
    // Started by the API itself (POST …/test), not by the dispatcher: it carries them too.
    const ping = await app.inject({
      method: 'POST',
      url: `/me/webhooks/${webhookId}/test`,
      headers: { cookie: alice.cookie },
    });
    expect(ping.statusCode).toBe(202);
    const deliveryId = ping.json<{ delivery_id: string }>().delivery_id;
    // Named by id too: the webhook's earlier deliveries match the attributes as well, and
    // visibility catches up with this one a moment after the start.
    const id = workflowIds.webhookDelivery(deliveryId);
    const ids = await findIds(
      `WorkflowId = '${id}' AND UserId = '${alice.userId}' AND WebhookId = '${webhookId}'`,
    );
    expect(ids).toEqual([id]);
  });

  it('finds a subscription lifecycle by its user', async () => {
    const bob = await signIn(app);
    await grantTier(ctx, bob.userId, 'plus');
    // A change of intent signals `subscription:<userId>`, starting it (signal-with-start).
    const canceled = await app.inject({
      method: 'POST',
      url: '/me/subscription/cancel',
      headers: { cookie: bob.cookie },
    });
    expect(canceled.statusCode).toBe(200);
    const ids = await findIds(
      `UserId = '${bob.userId}' AND WorkflowType = '${workflowTypes.subscription}'`,
    );
    expect(ids).toEqual([workflowIds.subscription(bob.userId)]);
  });
});

it('finds a holder-reward distribution by token address, chain and token owner', async () => {
  const owner = await signIn(app);
  const suffix = randomBytes(3).toString('hex');
  const instance = `0x${randomBytes(20).toString('hex')}`;
  const [token] = await ctx.sql<{ id: string }>(
    `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, params, state,
                         instance, holder_reward_pool, created_at)
     values (gen_random_uuid(), $1, $2, 'Reward token', $3, 'virtuals', $4, '{}', 'live',
             $5, 1000000, now())
     returning id`,
    [owner.userId, `reward-${suffix}`, suffix.toUpperCase(), CHAIN_ID, instance],
  );
  // The scheduler's first round starts the day's distribution of every token due one.
  await ensureHolderRewardsSchedule(ctx.deps.temporal, taskQueue());
  const [execution, ...others] = await findWorkflows(
    `TokenAddress = '${instance}' AND ChainId = ${CHAIN_ID} AND UserId = '${owner.userId}' ` +
      `AND WorkflowType = '${workflowTypes.holderRewardDistribution}'`,
  );
  expect(others).toEqual([]);
  expect(execution!.workflowId).toMatch(new RegExp(`^holder-rewards:${token!.id}:`));
});

it('finds the chain indexer by its chain, in every run after continue-as-new', async () => {
  const input = { ...chainSyncInput(ctx.config, CHAIN_ID), pollIntervalMs: 100, passesPerRun: 1 };
  const firstRunId = await ensureChainSync(ctx.deps.temporal, taskQueue(), input);
  const query =
    `ChainId = ${CHAIN_ID} AND TaskQueue = '${taskQueue()}' ` +
    `AND WorkflowType = '${workflowTypes.chainSync}'`;
  const deadline = Date.now() + 20_000;
  let runs: WorkflowExecutionInfo[] = [];
  // After one pass it continues as new: the new run keeps the attributes of the first.
  while (!runs.some((run) => run.runId !== firstRunId)) {
    if (Date.now() > deadline) throw new Error('the indexer never continued as new');
    runs = await findWorkflows(`${query} AND ExecutionStatus = 'Running'`);
  }
  expect(new Set(runs.map((run) => run.workflowId))).toEqual(
    new Set([workflowIds.chainSync(CHAIN_ID, taskQueue())]),
  );
});

it('finds each singleton of a deployment by its type and task queue', async () => {
  await ensureIdempotencySweep(ctx.deps.temporal, taskQueue());
  await ensureMarketplaceStatsRefresh(ctx.deps.temporal, taskQueue());
  await ensurePaymentsReconcile(ctx.deps.temporal, taskQueue());
  await ensureNotificationDelivery(ctx.deps.temporal, taskQueue());
  await ensureHolderRewardsSchedule(ctx.deps.temporal, taskQueue());
  await ensureWebhookDispatcher(ctx.deps.temporal, taskQueue(), {
    pollIntervalMs: 200,
    pollsPerRun: 500,
  });
  const singletons = [
    ['notificationDelivery', workflowIds.notificationDelivery],
    ['idempotencySweep', workflowIds.idempotencySweep],
    ['marketplaceStatsRefresh', workflowIds.marketplaceStatsRefresh],
    ['paymentsReconcile', workflowIds.paymentsReconcile],
    ['holderRewardsSchedule', workflowIds.holderRewardsSchedule],
    ['webhookDispatch', workflowIds.webhookDispatch],
  ] as const;
  for (const [type, id] of singletons) {
    const ids = await findIds(
      `WorkflowType = '${workflowTypes[type]}' AND TaskQueue = '${taskQueue()}'`,
    );
    expect([type, ids]).toEqual([type, [id(taskQueue())]]);
  }
});
