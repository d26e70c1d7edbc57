/**
 * Task queue names. Each deployment (and each test file) sets its own base name through
 * `TEMPORAL_TASK_QUEUE`, so several stacks can share one Temporal namespace without
 * stealing each other's tasks.
 */
export function mainTaskQueue(base: string): string {
  return base;
}
