import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './hot-reads-processes';

/**
 * The worker process of bench/chain-indexer.ts, run as deployed: `node dist/workers/main.js`
 * (plain node, no tsx, no IPC channel), with exactly the environment it is given (plus PATH and
 * HOME). It is ready when it logs `worker started` (it bundles the workflows first). Like the
 * servers of bench/hot-reads-processes.ts it cannot outlive the bench: a watcher subshell
 * sends it SIGTERM when the bench closes its stdin pipe, which also happens when the bench
 * dies, SIGKILL included. Its stdout (JSON logs) is read for the ready line and dropped; the
 * tail of its output is kept for the error message when it fails. The bench's anvil is
 * started the same way (`spawnWatched`).
 */

const READY_TIMEOUT_MS = 120_000;
const KILL_AFTER_MS = 15_000;
const OUTPUT_TAIL = 4_000;

const WATCHED_EXEC = `exec 3<&0
( cat <&3 >/dev/null; kill -TERM $$ 2>/dev/null ) &
exec "$@" 3<&- </dev/null`;

export interface WorkerProcess {
  pid: number;
  stop: () => Promise<void>;
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * `command args…` as a child that exits when the bench closes its stdin or dies (the watcher
 * subshell), in a process group of its own (a Ctrl-C reaches the bench only, which stops it
 * in order). The child's pid is the command's (the shell `exec`s it).
 */
export function spawnWatched(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; output: 'pipe' | 'ignore' },
): ChildProcess {
  return spawn('/bin/sh', ['-c', WATCHED_EXEC, 'sh', command, ...args], {
    cwd: ROOT,
    env: options.env
      ? {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/tmp',
          ...options.env,
        }
      : process.env,
    stdio: ['pipe', options.output, options.output],
    detached: true,
  });
}

export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawnWatched(process.execPath, ['dist/workers/main.js'], { env, output: 'pipe' });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  let output = '';
  let ready = false;
  const keep = (chunk: string) => {
    output = (output + chunk).slice(-OUTPUT_TAIL);
    if (!ready && output.includes('worker started')) ready = true;
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  const stop = (): Promise<void> => {
    process.off('exit', kill);
    if (exited(child)) {
      child.stdin?.destroy();
      return Promise.resolve();
    }
    return new Promise((done) => {
      const timer = setTimeout(kill, KILL_AFTER_MS);
      child.once('exit', () => {
        clearTimeout(timer);
        done();
      });
      child.stdin?.end();
    });
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!ready) {
    if (exited(child)) {
      throw new Error(`worker exited before it was ready (${child.signalCode ?? child.exitCode}):
${output}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`worker not ready after ${READY_TIMEOUT_MS} ms:\n${output}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  return { pid: child.pid ?? 0, stop };
}
