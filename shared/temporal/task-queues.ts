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
