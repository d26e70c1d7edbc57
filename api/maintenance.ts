import { WorkflowIdConflictPolicy, type Client } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import { mainTaskQueue, workflowIds, workflowTypes } from '../shared/temporal';
import { ensureSearchAttributesRegistered } from '../shared/temporal/search-attribute-registration';
import { searchAttributes } from '../shared/temporal/search-attributes';
import type { Config } from '../shared/config';
import type {
  ChainSyncInput,
  HolderRewardsScheduleInput,
  IdempotencySweepInput,
  MarketplaceStatsRefreshInput,
  PaymentsReconcileInput,
  WebhookDispatchInput,
} from '../shared/temporal';
import type { NotificationDeliveryInput } from '../shared/temporal/workflows';

export const SWEEP_DEFAULTS: IdempotencySweepInput = { intervalSeconds: 3600, purgesPerRun: 24 };

/**
 * Starts the idempotency sweep unless it already runs. Every API instance calls this on
 * boot; the "use existing" policy makes all but the first a no-op. Returns the run id.
 */
export function ensureIdempotencySweep(
  client: Client,
  taskQueueBase: string,
  input: IdempotencySweepInput = SWEEP_DEFAULTS,
): Promise<string> {
  return startSingleton(client, 'idempotencySweep', taskQueueBase, input);
}

/** Polls per dispatcher run before it continues as new (about 10 history events per poll). */
export const DISPATCH_POLLS_PER_RUN = 500;

/**
 * Starts the webhook outbox dispatcher unless it already runs (one per deployment, "use
 * existing" like the sweep). Returns the run id.
 */
export function ensureWebhookDispatcher(
  client: Client,
  taskQueueBase: string,
  input: WebhookDispatchInput,
): Promise<string> {
  return startSingleton(client, 'webhookDispatch', taskQueueBase, input);
}

/**
 * Once a minute: the bound on how long a marketplace figure that changes with time alone (UTC
 * midnight, a call leaving the 30 × 24 h median window) may lag. 500 refreshes (~8 hours, about
 * 10 history events each) per run before it continues as new.
 */
export const MARKETPLACE_REFRESH_DEFAULTS: MarketplaceStatsRefreshInput = {
  intervalSeconds: 60,
  refreshesPerRun: 500,
};

/**
 * Starts the marketplace stats refresh unless it already runs (one per deployment, "use
 * existing" like the sweep). Returns the run id.
 */
export function ensureMarketplaceStatsRefresh(
  client: Client,
  taskQueueBase: string,
  input: MarketplaceStatsRefreshInput = MARKETPLACE_REFRESH_DEFAULTS,
): Promise<string> {
  return startSingleton(client, 'marketplaceStatsRefresh', taskQueueBase, input);
}

/**
 * Hourly: a token's daily distribution follows within the hour after UTC midnight (or after
 * the first user starts holding it). 24 rounds (a day, about 10 history events each) per run.
 */
export const HOLDER_REWARDS_SCHEDULE_DEFAULTS: HolderRewardsScheduleInput = {
  intervalSeconds: 3600,
  roundsPerRun: 24,
};

/**
 * Starts the holder-reward scheduler unless it already runs (one per deployment, "use
 * existing" like the sweep; docs/decisions.md "Holder rewards"). Returns the run id.
 */
export function ensureHolderRewardsSchedule(
  client: Client,
  taskQueueBase: string,
  input: HolderRewardsScheduleInput = HOLDER_REWARDS_SCHEDULE_DEFAULTS,
): Promise<string> {
  return startSingleton(client, 'holderRewardsSchedule', taskQueueBase, input);
}

/**
 * Every 5 minutes: a payment whose callback was lost is confirmed within minutes. 48 rounds
 * (4 hours, about 10 history events each) per run.
 */
export const PAYMENTS_RECONCILE_DEFAULTS: PaymentsReconcileInput = {
  intervalSeconds: 300,
  roundsPerRun: 48,
};

/**
 * Starts the payments reconciler unless it already runs (one per deployment, "use existing";
 * docs/payments.md "Lost callbacks"). Returns the run id.
 */
export function ensurePaymentsReconcile(
  client: Client,
  taskQueueBase: string,
  input: PaymentsReconcileInput = PAYMENTS_RECONCILE_DEFAULTS,
): Promise<string> {
  return startSingleton(client, 'paymentsReconcile', taskQueueBase, input);
}

/**
 * Every 2 s (a `nudge` signal looks at once; a full batch looks again at once): the delay
 * between a milestone and its Matrix message when the bot is idle. 500 polls (about 17 idle
 * minutes, about 6 history events each) per run before it continues as new.
 */
export const NOTIFICATION_DELIVERY_DEFAULTS: NotificationDeliveryInput = {
  pollIntervalMs: 2_000,
  pollsPerRun: 500,
};

/**
 * Starts the milestone notification delivery unless it already runs (one per deployment, "use
 * existing" like the sweep; docs/decisions.md "Milestone notifications"). Returns the run id.
 */
export function ensureNotificationDelivery(
  client: Client,
  taskQueueBase: string,
  input: NotificationDeliveryInput = NOTIFICATION_DELIVERY_DEFAULTS,
): Promise<string> {
  return startSingleton(client, 'notificationDelivery', taskQueueBase, input);
}

type SingletonType =
  | 'idempotencySweep'
  | 'webhookDispatch'
  | 'marketplaceStatsRefresh'
  | 'holderRewardsSchedule'
  | 'paymentsReconcile'
  | 'notificationDelivery';

/** Singletons are found by `WorkflowType` (and `TaskQueue`): no custom search attribute applies. */
function startSingleton(
  client: Client,
  type: SingletonType,
  taskQueueBase: string,
  input: unknown,
): Promise<string> {
  return startUnlessRunning(client, type, (taskQueue) => workflowIds[type](taskQueue), {
    taskQueueBase,
    input,
  });
}

/**
 * Starts one long-running workflow on the main task queue unless it already runs: every API
 * instance calls this on boot, and "use existing" makes all but the first a no-op. Returns the
 * run id (of the running one when it already ran).
 */
async function startUnlessRunning(
  client: Client,
  type: SingletonType | 'chainSync',
  workflowId: (taskQueue: string) => string,
  start: { taskQueueBase: string; input: unknown; attributes?: SearchAttributePair[] },
): Promise<string> {
  await ensureSearchAttributesRegistered(client);
  const taskQueue = mainTaskQueue(start.taskQueueBase);
  const handle = await client.workflow.start(workflowTypes[type], {
    workflowId: workflowId(taskQueue),
    taskQueue,
    args: [start.input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    ...(start.attributes ? { typedSearchAttributes: start.attributes } : {}),
  });
  return handle.firstExecutionRunId;
}

/** Indexer passes per run before it continues as new (about 10 history events per pass). */
export const CHAIN_SYNC_PASSES_PER_RUN = 500;

export function chainSyncInput(config: Config, chainId: number): ChainSyncInput {
  return {
    chainId,
    pollIntervalMs: config.chainSync.pollIntervalMs,
    maxLogRange: config.chainSync.logRange,
    logRange: config.chainSync.logRange,
    passesPerRun: CHAIN_SYNC_PASSES_PER_RUN,
  };
}

/**
 * Starts the indexer of one chain unless it already runs (one per chain and deployment, "use
 * existing" like the sweep; docs/chain.md "Indexer"), search attribute `ChainId`. Returns the
 * run id.
 */
export function ensureChainSync(
  client: Client,
  taskQueueBase: string,
  input: ChainSyncInput,
): Promise<string> {
  return startUnlessRunning(
    client,
    'chainSync',
    (taskQueue) => workflowIds.chainSync(input.chainId, taskQueue),
    { taskQueueBase, input, attributes: searchAttributes({ chainId: input.chainId }) },
  );
}
