/**
 * Task queue names. Each deployment (and each test file) sets its own base name through
 * `TEMPORAL_TASK_QUEUE`, so several stacks can share one Temporal namespace without
 * stealing each other's tasks.
 */
export function mainTaskQueue(base: string): string {
  return base;
}

/**
 * Webhook deliveries run on a queue of their own, served by a worker of their own: an attempt
 * holds a workflow-task slot while its POST runs (a local activity), so slow receivers must
 * not take the slots project builds and maintenance need.
 */
export function webhookTaskQueue(base: string): string {
  return `${base}-webhooks`;
}

/**
 * Build lanes (docs/decisions.md "Build lanes"): `standard` for everyone, `priority` for tiers
 * with `priorityQueue`, `dedicated` for tiers with `dedicatedRuntime`. The API picks a run's
 * lane when it starts it; the run stays on that lane's queue for its whole life.
 */
export const BUILD_LANES = ['standard', 'priority', 'dedicated'] as const;
export type BuildLane = (typeof BUILD_LANES)[number];

/**
 * A lane's build queue, served by a worker of its own with the lane's slots. Builds are off
 * the main queue so that they never take the slots of maintenance and the webhook dispatcher
 * (builds started before the lanes existed finish there: the main worker keeps the build
 * workflow and its activities).
 */
export function buildTaskQueue(base: string, lane: BuildLane): string {
  return `${base}-builds-${lane}`;
}
