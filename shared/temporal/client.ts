import { Client, Connection } from '@temporalio/client';

export interface TemporalSettings {
  address: string;
  namespace: string;
}

/**
 * One Temporal client per process. The connection is lazy, so the API starts (and reports
 * Temporal as unready on /readyz) even while the Temporal server is still coming up.
 */
export function createTemporalClient(settings: TemporalSettings): Client {
  const connection = Connection.lazy({ address: settings.address });
  return new Client({ connection, namespace: settings.namespace });
}

/**
 * How long one request-path call to Temporal (start, signal) may take: without a deadline the
 * client keeps retrying an unreachable server, and the request would hang.
 */
export const TEMPORAL_CALL_DEADLINE_MS = 5_000;

/** Resolves when the Temporal frontend answers within `timeoutMs`; rejects otherwise. */
export async function pingTemporal(client: Client, timeoutMs: number): Promise<void> {
  await client.connection.withDeadline(Date.now() + timeoutMs, () =>
    client.workflowService.getSystemInfo({}),
  );
}
