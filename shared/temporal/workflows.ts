import type { BuildLane } from './task-queues';

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
  subscription: 'subscriptionWorkflow',
  paymentsReconcile: 'paymentsReconcileWorkflow',
  notificationDelivery: 'notificationDeliveryWorkflow',
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
  /**
   * The lane the API chose from the owner's tier when it started the run (the workflow runs on
   * that lane's queue; it does not read this). Absent on runs started before build lanes.
   */
  lane?: BuildLane;
}

/** Signal and query names of the build workflow. */
export const projectBuildSignals = {
  cancel: 'cancel',
  approvalDecided: 'approvalDecided',
} as const;
export const projectBuildQueries = { status: 'status' } as const;

export interface ProjectBuildStatus {
  phase: 'starting' | 'planning' | 'building' | 'awaiting_approval' | 'finishing' | 'done';
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

/** What one indexer pass did: small figures only, never logs (docs/spec/contract.md §10). */
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

export interface SubscriptionWorkflowInput {
  userId: number;
  /** A renewal invoice is issued this long before `renewsAt` (SUBSCRIPTION_RENEWAL_LEAD_HOURS). */
  renewalLeadMs: number;
  /** Confirmed payments signalled but not yet applied (carried across continue-as-new). */
  paymentIds?: string[];
}

/**
 * Signals of `subscription:<userId>`, sent with signal-with-start: `paymentConfirmed` when a
 * provider confirmed one of the user's subscription payments, `changed` when the API changed
 * the row's intent (cancel, resume, a pending downgrade).
 */
export const subscriptionSignals = {
  paymentConfirmed: 'paymentConfirmed',
  changed: 'changed',
} as const;

export interface PaymentConfirmedSignal {
  paymentId: string;
}

/** The subscription row as the workflow plans from it (JSON-safe; times in epoch ms). */
export interface SubscriptionState {
  /** Null: the user has no subscription row. */
  status: 'active' | 'grace' | 'canceled' | 'none' | null;
  renewsAtMs: number | null;
  graceUntilMs: number | null;
  cancelAtPeriodEnd: boolean;
  /** The period starting at `renewsAt` is paid already. */
  nextPeriodPaid: boolean;
  /** A renewal invoice for the period starting at `renewsAt` is open. */
  renewalIssued: boolean;
  /** Confirmed subscription payments the lifecycle has not applied yet, oldest first. */
  unappliedPaymentIds: string[];
}

/** What a lifecycle step is about: the period ending at `renewsAtMs`, at workflow time. */
export interface SubscriptionStepInput {
  userId: number;
  renewsAtMs: number;
  nowMs: number;
  /** Grace reminders: the day of grace (1..6); day 0 is sent when grace begins. */
  day?: number;
}

export interface PaymentsReconcileInput {
  /** Seconds between two looks at open invoices and unapplied payments. */
  intervalSeconds: number;
  /** Rounds per run before the workflow continues as new, keeping its history short. */
  roundsPerRun: number;
}

/** What one reconciliation round did: counts only. */
export interface PaymentsReconcileResult {
  /** Open invoices asked about at their provider. */
  checked: number;
  /** Of those, confirmed because the provider says they are paid. */
  confirmed: number;
  /** Confirmed subscription payments whose lifecycle was signalled again. */
  signalled: number;
}

export interface NotificationDeliveryInput {
  /** Longest wait between two looks for due notifications; a `nudge` signal looks at once. */
  pollIntervalMs: number;
  /** Polls per run before the workflow continues as new, keeping its history short. */
  pollsPerRun: number;
}

/** Signal names of the notification delivery: `nudge` makes it look for due rows now. */
export const notificationDeliverySignals = { nudge: 'nudge' } as const;

/**
 * What delivering one notification came to. Matrix failures are values, recorded on the row
 * with its next attempt; only infrastructure failures (the database) throw.
 */
export type NotificationDeliveryOutcome =
  | { status: 'sent'; eventId: string }
  /** Sent before (a retried activity, or a concurrent one), or the row is gone. */
  | { status: 'done' }
  /** The user has no linked Matrix account (any more): the row stays queued. */
  | { status: 'not_linked' }
  /** An older notification of the same user is still unsent: this one waits behind it. */
  | { status: 'blocked' }
  | {
      status: 'failed';
      /** What the row's `last_error` now says. */
      error: string;
      /** The wait before this row is due again (its `next_attempt_at`). */
      retryInMs: number;
      /**
       * The failure is the homeserver's or the bot's (unreachable, 5xx, rate-limited, the
       * bot's token refused), not this notification's: the rest of the batch waits too.
       */
      homeserverFailed: boolean;
    };
