import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Where the shared services of a test run are, read from the environment once. */
export interface TestServices {
  adminDatabaseUrl: string;
  templateDatabase: string;
  redisUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  workflowBundlePath: string;
  runId: string;
}

export const DEFAULT_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** The `temporal` CLI: TEMPORAL_CLI_PATH, else the one on PATH, else undefined. */
export function findTemporalCli(): string | undefined {
  const configured = process.env.TEMPORAL_CLI_PATH;
  if (configured) {
    if (!existsSync(configured)) throw new Error(`TEMPORAL_CLI_PATH=${configured} does not exist`);
    return configured;
  }
  try {
    return (
      execFileSync('sh', ['-c', 'command -v temporal'], { encoding: 'utf8' }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}

/** Replaces the database name of a PostgreSQL URL. */
export function databaseUrl(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export function readTestServices(): TestServices {
  const raw = process.env.SVC_TEST_SERVICES;
  if (!raw) throw new Error('test services are not up: run the tests through jest (globalSetup)');
  return JSON.parse(raw) as TestServices;
}
