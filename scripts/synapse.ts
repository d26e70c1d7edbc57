import { execFile, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { wheelFile } from './pypi-binary';
import { TOOLS_DIR } from './tools';

/**
 * A real Matrix homeserver (Synapse, from PyPI) on loopback for the tests and development: its
 * own SQLite database, registration only through the shared-secret admin API, federation off,
 * and rate limits high enough that only tests which set their own (per-user overrides) meet
 * them. Synapse has no Debian package; it installs into a virtualenv (`SYNAPSE_PYTHON` names
 * an interpreter that has it, otherwise one is made in `.data/synapse-venv` on first use).
 */

/**
 * pip for the virtualenv, from its own wheel (pip runs from its wheel file): Debian's python3
 * has no `ensurepip` without the python3-venv package, so the virtualenv is made without pip
 * and this one is installed into it. Pinned, like every tool the runs fetch.
 */
const PIP_VERSION = '26.2.1';

const run = promisify(execFile);

export interface RunningSynapse {
  /** `http://127.0.0.1:<port>`: client-server and admin APIs. */
  url: string;
  serverName: string;
  /** `registration_shared_secret`: registers users through the admin API. */
  registrationSecret: string;
  stop(): Promise<void>;
}

async function hasSynapse(python: string): Promise<boolean> {
  try {
    await run(python, ['-c', 'import synapse']);
    return true;
  } catch {
    return false;
  }
}

/** An interpreter with Synapse: SYNAPSE_PYTHON, else a virtualenv under `.data` (made once). */
export async function synapsePython(dataDir = resolve('.data')): Promise<string> {
  const configured = process.env.SYNAPSE_PYTHON;
  if (configured) {
    if (!(await hasSynapse(configured))) {
      throw new Error(
        `SYNAPSE_PYTHON=${configured} cannot import synapse (pip install matrix-synapse)`,
      );
    }
    return configured;
  }
  const venv = join(dataDir, 'synapse-venv');
  const python = join(venv, 'bin', 'python');
  if (existsSync(python) && (await hasSynapse(python))) return python;
  const pip = ['-q', '--disable-pip-version-check', '--no-input'];
  try {
    await run('python3', ['-m', 'venv', '--clear', '--without-pip', venv]);
    const pipWheel = await wheelFile('pip', PIP_VERSION, TOOLS_DIR);
    await run(python, [join(pipWheel, 'pip'), 'install', ...pip, pipWheel]);
    await run(python, ['-m', 'pip', 'install', ...pip, 'matrix-synapse'], {
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    throw new Error(
      `Synapse could not be installed into ${venv} (python3 -m venv, pip ${PIP_VERSION} from ` +
        `PyPI, pip install matrix-synapse): ${(error as Error).message}. Set SYNAPSE_PYTHON ` +
        'to an interpreter that has it.',
    );
  }
  return python;
}

/** Messages, joins, invites, logins and registrations: far above what a test sends. */
const GENEROUS = { per_second: 1000, burst_count: 1000 };

function homeserverConfig(dir: string, port: number, registrationSecret: string) {
  return {
    server_name: 'localhost',
    pid_file: join(dir, 'homeserver.pid'),
    listeners: [
      {
        port,
        bind_addresses: ['127.0.0.1'],
        type: 'http',
        tls: false,
        x_forwarded: false,
        resources: [{ names: ['client', 'federation'], compress: false }],
      },
    ],
    database: { name: 'sqlite3', args: { database: join(dir, 'homeserver.db') } },
    media_store_path: join(dir, 'media'),
    // Below the gateway's 50 MiB for documents, so the gateway's use of the homeserver's own
    // limit (`m.upload.size`) is exercised by the tests and seen in development.
    max_upload_size: '40M',
    signing_key_path: join(dir, 'localhost.signing.key'),
    registration_shared_secret: registrationSecret,
    macaroon_secret_key: randomBytes(32).toString('hex'),
    form_secret: randomBytes(32).toString('hex'),
    enable_registration: false,
    report_stats: false,
    trusted_key_servers: [],
    suppress_key_server_warning: true,
    rc_message: GENEROUS,
    rc_registration: GENEROUS,
    rc_login: { address: GENEROUS, account: GENEROUS, failed_attempts: GENEROUS },
    rc_joins: { local: GENEROUS, remote: GENEROUS },
    rc_invites: { per_room: GENEROUS, per_user: GENEROUS, per_issuer: GENEROUS },
  };
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`)).ok;
  } catch {
    return false;
  }
}

/**
 * Starts Synapse on 127.0.0.1:`port` with its state in `dir` (JSON is YAML, so the config is
 * written as JSON). Resolves once `/health` answers; the log is `dir/synapse.log`.
 */
export async function startSynapse(options: {
  dir: string;
  port: number;
  python: string;
}): Promise<RunningSynapse> {
  const { dir, port, python } = options;
  mkdirSync(dir, { recursive: true });
  const registrationSecret = randomBytes(24).toString('hex');
  const configPath = join(dir, 'homeserver.yaml');
  writeFileSync(configPath, JSON.stringify(homeserverConfig(dir, port, registrationSecret)));
  const module = ['-m', 'synapse.app.homeserver', '--config-path', configPath];
  await run(python, [...module, '--generate-keys']);
  const log = openSync(join(dir, 'synapse.log'), 'a');
  const child = spawn(python, module, { stdio: ['ignore', log, log] });
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  for (let waited = 0; !(await healthy(url)); waited += 100) {
    if (child.exitCode !== null || waited > 30_000) {
      await stop();
      throw new Error(`Synapse did not start on ${url}: see ${join(dir, 'synapse.log')}`);
    }
    await new Promise((resolvePause) => setTimeout(resolvePause, 100));
  }
  return { url, serverName: 'localhost', registrationSecret, stop };
}

/**
 * Registers `localpart` through the shared-secret admin API (`/_synapse/admin/v1/register`:
 * a nonce, then an HMAC-SHA1 of nonce, user, password and role) and returns its first login.
 */
export async function registerSynapseUser(
  server: { url: string; registrationSecret: string },
  localpart: string,
  options: { admin?: boolean; password?: string } = {},
): Promise<{ userId: string; accessToken: string }> {
  const endpoint = `${server.url}/_synapse/admin/v1/register`;
  const { nonce } = (await (await fetch(endpoint)).json()) as { nonce: string };
  const password = options.password ?? randomBytes(12).toString('hex');
  const admin = options.admin ?? false;
  const mac = createHmac('sha1', server.registrationSecret)
    .update(`${nonce}\0${localpart}\0${password}\0${admin ? 'admin' : 'notadmin'}`)
    .digest('hex');
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ nonce, username: localpart, password, admin, mac }),
  });
  const body = (await response.json()) as { user_id?: string; access_token?: string };
  if (!response.ok || !body.user_id || !body.access_token) {
    throw new Error(`registering @${localpart}: ${response.status} ${JSON.stringify(body)}`);
  }
  return { userId: body.user_id, accessToken: body.access_token };
}
