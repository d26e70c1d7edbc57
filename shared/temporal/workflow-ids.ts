/**
 * The one module that knows workflow ids. Ids are business ids, so starting the same
 * business operation twice finds the existing workflow instead of running it again.
 */
export const workflowIds = {
  projectBuild: (projectId: string, runId: string) => `project-build:${projectId}:${runId}`,
  webhookDelivery: (deliveryId: string) => `webhook-delivery:${deliveryId}`,
  subscription: (userId: number) => `subscription:${userId}`,
  /** One indexer per chain and deployment (the task queue, as for every singleton). */
  chainSync: (chainId: number, taskQueue: string) => `chain-sync:${chainId}:${taskQueue}`,
  /** One distribution per token and UTC day (YYYY-MM-DD). */
  holderRewardDistribution: (tokenId: string, period: string) =>
    `holder-rewards:${tokenId}:${period}`,
  /** Singleton per task queue: one holder-reward scheduler per deployment. */
  holderRewardsSchedule: (taskQueue: string) => `maintenance:holder-rewards:${taskQueue}`,
  /** Singleton per task queue: one payments reconciler per deployment. */
  paymentsReconcile: (taskQueue: string) => `maintenance:payments-reconcile:${taskQueue}`,
  /** Singleton per task queue: one outbox dispatcher per deployment. */
  webhookDispatch: (taskQueue: string) => `webhooks:dispatch:${taskQueue}`,
  /** Singleton per task queue: one notification deliverer per deployment. */
  notificationDelivery: (taskQueue: string) => `notifications:deliver:${taskQueue}`,
  /** Singleton per task queue: one sweeper per deployment. */
  idempotencySweep: (taskQueue: string) => `maintenance:idempotency-sweep:${taskQueue}`,
  /** Singleton per task queue: one marketplace stats refresher per deployment. */
  marketplaceStatsRefresh: (taskQueue: string) =>
    `maintenance:marketplace-stats-refresh:${taskQueue}`,
};
