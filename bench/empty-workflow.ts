import { proxyActivities } from '@temporalio/workflow';

/**
 * The webhook bench's baselines, bundled for a bench-only worker on its own task queue (never
 * part of workflows/). `emptyWorkflow` is the floor the issue names: one workflow task, no
 * activity. `oneActivityWorkflow` adds the one thing every delivery needs, a (no-op) activity
 * round trip, so the report shows how much of the gap is Temporal's own activity cost.
 */

export interface BaselineActivities {
  noop(): Promise<void>;
}

const { noop } = proxyActivities<BaselineActivities>({ startToCloseTimeout: '30 seconds' });

export async function emptyWorkflow(): Promise<void> {}

export async function oneActivityWorkflow(): Promise<void> {
  await noop();
}
