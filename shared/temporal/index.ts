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
  subscriptionSignals,
  type PaymentConfirmedSignal,
  type PaymentsReconcileInput,
  type PaymentsReconcileResult,
  type SubscriptionState,
  type SubscriptionStepInput,
  type SubscriptionWorkflowInput,
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
