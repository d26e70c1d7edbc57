import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from '../scripts/dev-env';

/**
 * The servers of bench/hot-reads.ts, each a plain `node <file>` child process (no tsx, no
 * loader, no IPC channel: exactly how the service runs in production), listening on a free
 * loopback port. Its stdout (request logs) goes to /dev/null; the tail of its stderr is kept
 * for the error message when it fails.
 *
 * Nothing may outlive the bench: each child is started through `sh`, whose background
 * subshell waits for the bench to close the child's stdin pipe and then sends the child
 * SIGTERM; the shell then `exec`s node, so the child's pid is node's. The pipe closes when the
 * bench stops the child, and also when the bench dies in any way, SIGKILL included.
 */

const READY_TIMEOUT_MS = 60_000;
const TERM_AFTER_MS = 3_000;
const KILL_AFTER_MS = 10_000;
const STDERR_TAIL = 4_000;

const WATCHED_EXEC = `exec 3<&0
( cat <&3 >/dev/null; kill -TERM $$ 2>/dev/null ) &
exec "$@" 3<&- </dev/null`;

export const ROOT = resolve(__dirname, '..');

export interface ServerProcess {
  name: string;
  pid: number;
  port: number;
  url(path: string): string;
  stop(): Promise<void>;
}

export { freePort };

const children = new Set<ChildProcess>();
let exitHookInstalled = false;

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Starts `node <args>` with exactly `env` (plus PATH and HOME: nothing else leaks in from the
 * bench, such as LOG_LEVEL or a loader in NODE_OPTIONS) and waits until GET `readyPath`
 * answers 200.
 */
export async function startServer(
  name: string,
  args: string[],
  env: Record<string, string>,
  readyPath: string,
): Promise<ServerProcess> {
  if (!exitHookInstalled) {
    // Last resort when the bench exits without stopping them (process.exit, a throw).
    process.once('exit', () => children.forEach((child) => child.kill('SIGKILL')));
    exitHookInstalled = true;
  }
  const port = await freePort();
  const child = spawn('/bin/sh', ['-c', WATCHED_EXEC, 'sh', process.execPath, ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
    },
    stdio: ['pipe', 'ignore', 'pipe'],
    // Its own process group: a Ctrl-C reaches the bench only, which stops it in order.
    detached: true,
  });
  children.add(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL);
  });
  child.once('exit', () => children.delete(child));
  const url = (path: string) => `http://127.0.0.1:${port}${path}`;
  const server: ServerProcess = {
    name,
    pid: child.pid ?? 0,
    port,
    url,
    stop: () => stop(child),
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (exited(child)) {
      throw new Error(`${name} exited before it was ready (${child.signalCode ?? child.exitCode}):
${stderr}`);
    }
    const status = await fetch(url(readyPath)).then(
      (response) => response.body?.cancel().then(() => response.status) ?? response.status,
      () => 0,
    );
    if (status === 200) return server;
    if (Date.now() > deadline) {
      await stop(child);
      throw new Error(`${name}: GET ${readyPath} not 200 after ${READY_TIMEOUT_MS} ms:\n${stderr}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** Closes its stdin (the watcher sends SIGTERM), then SIGTERM itself, then SIGKILL. */
function stop(child: ChildProcess): Promise<void> {
  if (exited(child)) {
    child.stdin?.destroy();
    return Promise.resolve();
  }
  return new Promise((done) => {
    const term = setTimeout(() => child.kill('SIGTERM'), TERM_AFTER_MS);
    const kill = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    child.once('exit', () => {
      clearTimeout(term);
      clearTimeout(kill);
      done();
    });
    child.stdin?.end();
  });
}

/** Stops every server still running (teardown; safe to call more than once). */
export async function stopServers(): Promise<void> {
  await Promise.all([...children].map(stop));
}
