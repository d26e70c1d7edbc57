import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import type { ChildProcess } from 'node:child_process';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { RunningObjectStore } from '../../scripts/seaweedfs';
import type { RunningSynapse } from '../../scripts/synapse';
import type { LocalService } from './local-services';
import type { TestServices } from './services';

/**
 * Drops this run's databases, stops a Temporal server, the chains, the homeserver and the object
 * store we started, removes the bundle and their files.
 */
export default async function globalTeardown(): Promise<void> {
  const state = (
    globalThis as {
      __svcTest?: {
        services: Omit<TestServices, 'anvilUrl'>;
        temporalEnv?: TestWorkflowEnvironment;
        anvils?: ChildProcess[];
        synapse?: RunningSynapse;
        objectStore?: RunningObjectStore;
        localServices?: LocalService[];
      };
    }
  ).__svcTest;
  if (!state) return;
  const { services, temporalEnv, anvils, synapse, objectStore, localServices } = state;
  for (const anvil of anvils ?? []) anvil.kill('SIGTERM');
  await synapse?.stop();
  await rm(join(tmpdir(), `svc-synapse-${services.runId}`), { recursive: true, force: true });
  await objectStore?.stop();
  await rm(join(tmpdir(), `svc-seaweedfs-${services.runId}`), { recursive: true, force: true });
  const admin = new PgClient({ connectionString: services.adminDatabaseUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'select datname from pg_database where datname like $1',
      [`svc_test_${services.runId}_%`],
    );
    for (const { datname } of rows)
      await admin.query(`drop database if exists "${datname}" with (force)`);
  } finally {
    await admin.end();
  }
  await temporalEnv?.teardown();
  await rm(services.workflowBundlePath, { force: true });
  // PostgreSQL and Redis this run started (none where the machine runs them).
  for (const service of localServices ?? []) await service.stop();
  await rm(join(tmpdir(), `svc-postgres-${services.runId}`), { recursive: true, force: true });
}
