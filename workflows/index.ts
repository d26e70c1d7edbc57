// The worker bundles this file: every workflow is exported from here.
export { chainSyncWorkflow } from './chain-sync';
export { holderRewardDistributionWorkflow, holderRewardsScheduleWorkflow } from './holder-rewards';
export { idempotencySweepWorkflow } from './idempotency-sweep';
export { marketplaceStatsRefreshWorkflow } from './marketplace-stats-refresh';
export { notificationDeliveryWorkflow } from './notification-delivery';
export { projectBuildWorkflow } from './project-build';
export { webhookDeliveryWorkflow } from './webhook-delivery';
export { webhookDispatchWorkflow } from './webhook-dispatch';
export { subscriptionWorkflow } from './subscription';
export { paymentsReconcileWorkflow } from './payments-reconcile';
