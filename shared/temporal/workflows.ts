/**
 * Workflow type names, inputs, signals and queries, shared by the API (which starts workflows
 * by name and must not import workflow code) and the workflow implementations. JSON-safe
 * types only.
 */
export const workflowTypes = {
  idempotencySweep: 'idempotencySweepWorkflow',
  marketplaceStatsRefresh: 'marketplaceStatsRefreshWorkflow',
  projectBuild: 'projectBuildWorkflow',
  webhookDispatch: 'webhookDispatchWorkflow',
  webhookDelivery: 'webhookDeliveryWorkflow',
  chainSync: 'chainSyncWorkflow',
  holderRewardDistribution: 'holderRewardDistributionWorkflow',
  holderRewardsSchedule: 'holderRewardsScheduleWorkflow',
} as const;

export interface IdempotencySweepInput {
  /** Seconds between two purges of expired Idempotency-Key records. */
  intervalSeconds: number;
  /** Purges per run before the workflow continues as new, keeping its history short. */
  purgesPerRun: number;
}

export interface MarketplaceStatsRefreshInput {
  /** Seconds between two refreshes: the staleness bound of time-driven marketplace figures. */
  intervalSeconds: number;
  /** Refreshes per run before the workflow continues as new, keeping its history short. */
  refreshesPerRun: number;
}

export interface ProjectBuildInput {
  projectId: string;
  runId: string;
  /** Pause between two build steps (config BUILD_PACE_MS), so a build can be watched. */
  paceMs: number;
}

/** Signal and query names of the build workflow. */
export const projectBuildSignals = { cancel: 'cancel' } as const;
export const projectBuildQueries = { status: 'status' } as const;

export interface ProjectBuildStatus {
  phase: 'starting' | 'planning' | 'building' | 'finishing' | 'done';
  /** Steps (turns) finished so far. */
  turns: number;
  cancelRequested: boolean;
  finalStatus: 'completed' | 'failed' | 'canceled' | null;
}

export interface WebhookDispatchInput {
  /** Longest wait between two outbox polls; a `nudge` signal polls at once. */
  pollIntervalMs: number;
  /** Polls per run before the workflow continues as new, keeping its history short. */
  pollsPerRun: number;
}

export interface WebhookDeliveryInput {
  deliveryId: string;
}

/** Signal names of the dispatcher: `nudge` makes it read the outbox now. */
export const webhookDispatchSignals = { nudge: 'nudge' } as const;

export interface ChainSyncInput {
  chainId: number;
  /** Wait between passes once the index has caught up with the head (CHAIN_POLL_INTERVAL_MS). */
  pollIntervalMs: number;
  /** Most blocks per eth_getLogs (CHAIN_LOG_RANGE); a pass may use fewer after refusals. */
  maxLogRange: number;
  /** The range that worked last (carried across continue-as-new); starts at `maxLogRange`. */
  logRange: number;
  /** Passes per run before the workflow continues as new, keeping its history short. */
  passesPerRun: number;
}

/** What one indexer pass did: small figures only, never logs (decisions §10). */
export interface ChainSyncPassResult {
  nextBlock: number;
  head: number;
  caughtUp: boolean;
  logRange: number;
  logs: number;
  rolledBackTo: number | null;
}

/** Signal names of the indexer: `nudge` starts a pass now (a launch was just sent). */
export const chainSyncSignals = { nudge: 'nudge' } as const;

export interface HolderRewardDistributionInput {
  tokenId: string;
  /** The UTC day (YYYY-MM-DD) the distribution belongs to: at most one per token and day. */
  period: string;
}

/** What one distribution run credited (a repeat of a paid distribution credits nothing). */
export interface HolderRewardDistributionResult {
  /** Null when there was nothing to distribute (an empty pool, no user holding the token). */
  distributionId: string | null;
  /** Payouts credited by this run. */
  credited: number;
  creditedFlow: number;
}

export interface HolderRewardsScheduleInput {
  /** Seconds between two looks for tokens due a distribution today. */
  intervalSeconds: number;
  /** Looks per run before the workflow continues as new, keeping its history short. */
  roundsPerRun: number;
}
