export { createTemporalClient, pingTemporal, type TemporalSettings } from './client';
export { mainTaskQueue } from './task-queues';
export { workflowIds } from './workflow-ids';
export { workflowTypes, type IdempotencySweepInput } from './workflows';
