import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join, resolve } from 'node:path';

/**
 * What the development scripts (`npm run dev`, `seed`, `reset`) share: the `.env` file, where
 * the embedded database answers, port checks, and the error that ends a script with one line.
 */

/** Port of the embedded PostgreSQL of `npm run dev`, unless DEV_POSTGRES_PORT. */
export const DEV_POSTGRES_DEFAULT_PORT = 54329;

/**
 * A failure the developer can act on: the script prints its message alone (no stack trace)
 * and exits non-zero.
 */
export class DevError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DevError';
  }
}

/**
 * Loads `.env` of the current directory into `process.env` with Node's own parser, if the file
 * exists. Variables already in the environment win. Returns the file's path, or null.
 */
export function loadDotEnv(file = '.env'): string | null {
  const path = resolve(file);
  if (!existsSync(path)) return null;
  try {
    process.loadEnvFile(path);
  } catch (error) {
    throw new DevError(`${path} could not be read: ${(error as Error).message}`);
  }
  return path;
}

export function devPostgresUrl(env: Record<string, string | undefined>): string {
  const port = Number(env.DEV_POSTGRES_PORT ?? DEV_POSTGRES_DEFAULT_PORT);
  return `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}

/**
 * Fails with one line when `port` cannot be listened on at `host` (`variable` names the
 * setting to change). The listener is closed at once: this only asks whether the port is free.
 */
export async function assertPortFree(host: string, port: number, variable: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((done, fail) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        fail(new DevError(`port ${port} is in use: set ${variable} to another port`));
      } else if (error.code === 'EACCES') {
        fail(new DevError(`port ${port} needs privileges: set ${variable} to a port above 1023`));
      } else if (error.code === 'EADDRNOTAVAIL') {
        fail(new DevError(`${host} is not an address of this machine: check HOST`));
      } else {
        fail(error);
      }
    });
    server.listen({ host, port, exclusive: true }, () => server.close(() => done()));
  });
}

/** A TCP port free on 127.0.0.1 right now (for a server started a moment later). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** True when something accepts TCP connections at 127.0.0.1:`port`. */
export function portAnswers(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host, port });
    const finish = (answered: boolean) => {
      socket.destroy();
      done(answered);
    };
    socket.setTimeout(1000, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/** Ends a script: a DevError (or a configuration error) as its message alone, else the stack. */
export function exitWith(error: unknown): never {
  const plain = error instanceof DevError || (error as Error)?.name === 'ConfigError';
  const text = plain
    ? (error as Error).message
    : error instanceof Error
      ? (error.stack ?? error.message)
      : String(error);
  process.stderr.write(`${text}\n`);
  process.exit(1);
}

/**
 * What a running `npm run dev` serves, written to `.data/dev-server.json` once it listens and
 * removed when it stops, so `npm run seed` and `npm run reset` in another shell find the
 * service where it is (its PORT, its database, its chain) instead of assuming the defaults.
 */
export interface DevServerRecord {
  pid: number;
  port: number;
  databaseUrl: string;
  chainRpcUrls: string | null;
}

const DEV_SERVER_RECORD = 'dev-server.json';

export function writeDevServerRecord(dataDir: string, record: DevServerRecord): void {
  // It holds the database URL (a password, for a configured database): the user's eyes only.
  writeFileSync(join(dataDir, DEV_SERVER_RECORD), `${JSON.stringify(record, null, 2)}\n`, {
    mode: 0o600,
  });
}

export function removeDevServerRecord(dataDir: string): void {
  rmSync(join(dataDir, DEV_SERVER_RECORD), { force: true });
}

/** The record of the `npm run dev` running from this directory; null when none runs. */
export function runningDevServer(dataDir = resolve('.data')): DevServerRecord | null {
  let record: DevServerRecord;
  try {
    record = JSON.parse(readFileSync(join(dataDir, DEV_SERVER_RECORD), 'utf8')) as DevServerRecord;
  } catch {
    return null;
  }
  try {
    // Signal 0 only asks whether the process lives (a record a crash left is stale).
    process.kill(record.pid, 0);
    return record;
  } catch {
    return null;
  }
}
