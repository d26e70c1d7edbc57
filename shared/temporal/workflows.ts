/**
 * Workflow type names and inputs, shared by the API (which starts workflows by name and
 * must not import workflow code) and the workflow implementations. JSON-safe types only.
 */
export const workflowTypes = {
  idempotencySweep: 'idempotencySweepWorkflow',
} as const;

export interface IdempotencySweepInput {
  /** Seconds between two purges of expired Idempotency-Key records. */
  intervalSeconds: number;
  /** Purges per run before the workflow continues as new, keeping its history short. */
  purgesPerRun: number;
}
