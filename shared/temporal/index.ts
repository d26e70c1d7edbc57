export { createTemporalClient, pingTemporal } from './client';
export { mainTaskQueue, webhookTaskQueue } from './task-queues';
export { workflowIds } from './workflow-ids';
export {
  workflowTypes,
  projectBuildSignals,
  projectBuildQueries,
  chainSyncSignals,
  subscriptionSignals,
  type PaymentsReconcileInput,
  type SubscriptionWorkflowInput,
  type ChainSyncInput,
  type HolderRewardDistributionInput,
  type HolderRewardDistributionResult,
  type HolderRewardsScheduleInput,
  type IdempotencySweepInput,
  type MarketplaceStatsRefreshInput,
  type ProjectBuildInput,
  type WebhookDispatchInput,
  type WebhookDeliveryInput,
} from './workflows';
