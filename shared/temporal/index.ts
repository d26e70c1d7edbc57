export {
  createTemporalClient,
  pingTemporal,
  TEMPORAL_CALL_DEADLINE_MS,
  type TemporalSettings,
} from './client';
export { mainTaskQueue, webhookTaskQueue } from './task-queues';
export { workflowIds } from './workflow-ids';
export {
  workflowTypes,
  projectBuildSignals,
  projectBuildQueries,
  webhookDispatchSignals,
  chainSyncSignals,
  type ChainSyncInput,
  type ChainSyncPassResult,
  type HolderRewardDistributionInput,
  type HolderRewardDistributionResult,
  type HolderRewardsScheduleInput,
  type IdempotencySweepInput,
  type MarketplaceStatsRefreshInput,
  type ProjectBuildInput,
  type ProjectBuildStatus,
  type WebhookDispatchInput,
  type WebhookDeliveryInput,
} from './workflows';
