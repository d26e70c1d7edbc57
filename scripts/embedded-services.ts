import { mkdir } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import RedisMock from 'ioredis-mock';
import type { Redis } from 'ioredis';

/**
 * Stand-ins that let `npm run dev` run on a machine with only Node: PostgreSQL compiled to
 * WASM (PGlite) behind a real PostgreSQL wire socket, an in-process Redis, a Temporal dev
 * server; the local chain is `anvil.ts`. Development only: production and the tests use the
 * real services.
 */

export interface Running<T> {
  value: T;
  stop: () => Promise<void>;
}

export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
): Promise<Running<string>> {
  await mkdir(dataDir, { recursive: true });
  // pg_trgm backs search's substring indexes (the migrations create the extension).
  const db = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  // PGlite runs one query at a time; the socket server queues the pool's connections.
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 16 });
  await server.start();
  return {
    value: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

export function startInProcessRedis(): Redis {
  return new RedisMock();
}

function temporalCli(explicit: string | undefined): string | undefined {
  if (explicit) return explicit;
  try {
    return (
      execFileSync('sh', ['-c', 'command -v temporal'], { encoding: 'utf8' }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}

export async function startTemporalDevServer(options: {
  cliPath: string | undefined;
  dbFile: string;
}): Promise<Running<{ address: string; uiUrl: string; source: string }>> {
  const cli = temporalCli(options.cliPath);
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      // Without a CLI on PATH the SDK downloads the dev server (needs internet access).
      ...(cli ? { executable: { type: 'existing-path' as const, path: cli } } : {}),
      dbFilename: options.dbFile,
      ui: true,
    },
  });
  const port = Number(env.address.split(':').pop());
  return {
    value: {
      address: env.address,
      uiUrl: `http://localhost:${port + 1000}`,
      source: cli ? `the temporal CLI at ${cli}` : 'a downloaded Temporal dev server',
    },
    stop: () => env.teardown(),
  };
}
