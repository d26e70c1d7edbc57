import { Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { findTemporalCli } from '../test/helpers/services';

/**
 * The webhook bench's Temporal server: TEMPORAL_ADDRESS when set, else a fresh dev server (in
 * memory, no UI) from the `temporal` CLI (TEMPORAL_CLI_PATH, else PATH), started and stopped
 * by the SDK's test environment as the tests start theirs. A private server keeps other users'
 * workflows out of the measurement.
 */

export interface BenchTemporal {
  address: string;
  namespace: string;
  stop(): Promise<void>;
}

export async function startBenchTemporal(): Promise<BenchTemporal> {
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
  const existing = process.env.TEMPORAL_ADDRESS;
  if (existing) {
    const connection = await Connection.connect({ address: existing, connectTimeout: 10_000 });
    try {
      await connection.workflowService.describeNamespace({ namespace });
    } finally {
      await connection.close();
    }
    return { address: existing, namespace, stop: async () => {} };
  }
  const cli = findTemporalCli();
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      // Without a local CLI the SDK downloads one, which needs internet access.
      ...(cli ? { executable: { type: 'existing-path' as const, path: cli } } : {}),
      namespace,
      ip: '127.0.0.1',
      log: { format: 'pretty', level: 'error' },
    },
  });
  return { address: env.address, namespace, stop: () => env.teardown() };
}
