import { fork, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { resolve } from 'node:path';

/**
 * The SSE bench's server processes (our API and the bare baseline), each a child of the bench
 * so that its memory is measured alone, and the bench's teardown. Both sides of one protocol:
 * the child sends `{port}` once listening, answers `memory` with its memory after a full GC
 * and its open stream count, `cpu` with the CPU time it has used so far (no GC first), and
 * exits on SIGTERM/SIGINT or when the bench goes away. Nothing may outlive the bench, even
 * when it fails midway or is interrupted.
 */

const READY_TIMEOUT_MS = 60_000;
const REPLY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 10_000;

export interface ServerMemory {
  rss: number;
  heapUsed: number;
  /** Streams the server holds open right now. */
  connections: number;
}

export interface ServerProcess {
  name: string;
  pid: number;
  port: number;
  memory(): Promise<ServerMemory>;
  /** User + system CPU time of the process so far, in µs. */
  cpu(): Promise<number>;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Last resort when the bench exits without stopping its children (process.exit, a throw). */
function killChildrenNow(): void {
  for (const child of children) child.kill('SIGKILL');
}

/** Forks `file` (a .ts file run through tsx, with --expose-gc) and waits until it listens. */
export function startServerProcess(
  name: string,
  file: string,
  env: Record<string, string>,
): Promise<ServerProcess> {
  if (!exitHookInstalled) process.once('exit', killChildrenNow);
  exitHookInstalled = true;
  const child = fork(file, [], {
    cwd: resolve(__dirname, '..'),
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: { ...process.env, ...env },
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${name}: not listening after ${READY_TIMEOUT_MS} ms`));
    }, READY_TIMEOUT_MS);
    child.once('error', (err) => {
      clearTimeout(timer);
      fail(err);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`${name} exited before listening (${signal ?? code})`));
    });
    child.once('message', (ready) => {
      clearTimeout(timer);
      const { port } = ready as { port: number };
      done({
        name,
        pid: child.pid ?? 0,
        port,
        memory: () => ask<{ memory: ServerMemory }>(name, child, 'memory').then((r) => r.memory),
        cpu: () => ask<{ cpuMicros: number }>(name, child, 'cpu').then((r) => r.cpuMicros),
        stop: () => stop(child),
      });
    });
  });
}

/** One question at a time: the bench awaits each reply before it asks again. */
function ask<Reply>(name: string, child: ChildProcess, question: 'memory' | 'cpu'): Promise<Reply> {
  return new Promise((done, fail) => {
    if (child.exitCode !== null || child.signalCode !== null || !child.connected) {
      return fail(new Error(`${name} is not running`));
    }
    const onExit = () => settle(new Error(`${name} exited while asked for its ${question}`));
    const timer = setTimeout(
      () => settle(new Error(`${name}: no ${question} reply`)),
      REPLY_TIMEOUT_MS,
    );
    const onMessage = (reply: unknown) => settle(null, reply as Reply);
    function settle(err: Error | null, reply?: Reply): void {
      clearTimeout(timer);
      child.off('exit', onExit);
      child.off('message', onMessage);
      if (err) fail(err);
      else done(reply!);
    }
    child.once('exit', onExit);
    child.once('message', onMessage);
    child.send(question);
  });
}

/** SIGTERM, then SIGKILL if it has not exited within the grace period. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

const SETTLE_TIMEOUT_MS = 20_000;

/** Waits until the server has closed every stream of the previous phase, then lets it idle. */
export async function settle(server: ServerProcess): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while ((await server.memory()).connections > 0) {
    if (Date.now() > deadline) throw new Error(`${server.name}: streams still open`);
    await new Promise((done) => setTimeout(done, 250));
  }
  await new Promise((done) => setTimeout(done, 500));
}

/** Stops every server process still running (teardown; safe to call more than once). */
export async function stopServerProcesses(): Promise<void> {
  await Promise.all([...children].map(stop));
}

/** What a server process reports over IPC, and how it shuts down. */
export interface ServedProcess {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

/** Child side: report the port, answer memory requests, exit when told or orphaned. */
export function reportToParent(served: ServedProcess): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', (question) => {
    if (question === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpuMicros: user + system });
      return;
    }
    gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.send?.({ memory: { rss, heapUsed, connections: served.connections() } });
  });
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    setTimeout(() => process.exit(1), STOP_GRACE_MS / 2).unref();
    void served.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  // The bench died without stopping us (a crash, SIGKILL): do not linger as an orphan.
  process.once('disconnect', shutdown);
  process.send?.({ port: served.port });
}

/**
 * Undo steps run newest first, each at most once and each even if an earlier one failed,
 * whether the bench ends, throws or is interrupted (SIGINT/SIGTERM). The signal handlers stay
 * until the steps are done: tsx relays a Ctrl-C to its child a second time, and a signal
 * without a handler would end the process halfway through the cleanup.
 */
export class Teardown {
  private readonly steps: { name: string; undo: () => Promise<void> }[] = [];
  private running: Promise<void> | null = null;
  private readonly onSignal = (signal: NodeJS.Signals) => {
    if (!this.running) console.error(`${this.label}: ${signal}, cleaning up`);
    void this.run().finally(() => process.exit(128 + constants.signals[signal]));
  };

  constructor(private readonly label: string) {
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
  }

  add(name: string, undo: () => Promise<void>): void {
    this.steps.push({ name, undo });
  }

  run(): Promise<void> {
    this.running ??= this.runSteps();
    return this.running;
  }

  private async runSteps(): Promise<void> {
    for (const { name, undo } of [...this.steps].reverse()) {
      try {
        await undo();
      } catch (err) {
        console.error(`${this.label}: cleanup "${name}" failed:`, err);
      }
    }
    process.off('SIGINT', this.onSignal);
    process.off('SIGTERM', this.onSignal);
  }
}
