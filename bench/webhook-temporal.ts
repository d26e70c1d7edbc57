import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Connection } from '@temporalio/client';

/**
 * The webhook bench's Temporal server: TEMPORAL_ADDRESS when set, else a fresh
 * `temporal server start-dev` (in memory, no UI) on a free port, started and stopped by the
 * bench. A private server keeps other users' workflows out of the measurement.
 */

const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;

export interface BenchTemporal {
  address: string;
  namespace: string;
  /** Whether the bench started the server (and so may stop it). */
  owned: boolean;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Resolves once the namespace answers: the frontend listens before the namespace exists. */
async function waitUntilReady(address: string, namespace: string, server?: ChildProcess) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (server && server.exitCode !== null) {
      throw new Error(`temporal server exited early (${server.exitCode})`);
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: 2_000 });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`Temporal at ${address} not ready: ${String(err)}`);
      await new Promise((done) => setTimeout(done, 250));
    }
  }
}

function stopChild(child: ChildProcess): Promise<void> {
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

export async function startBenchTemporal(): Promise<BenchTemporal> {
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
  const existing = process.env.TEMPORAL_ADDRESS;
  if (existing) {
    await waitUntilReady(existing, namespace);
    return { address: existing, namespace, owned: false, stop: async () => {} };
  }
  const port = await freePort();
  const cli = process.env.TEMPORAL_CLI_PATH ?? 'temporal';
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port)];
  const child = spawn(cli, [...args, '--headless', '--log-level', 'error'], { stdio: 'ignore' });
  // Last resort when the bench exits without its teardown (process.exit, an uncaught throw).
  const killNow = () => child.kill('SIGKILL');
  process.once('exit', killNow);
  const stop = async () => {
    await stopChild(child);
    process.off('exit', killNow);
  };
  const address = `127.0.0.1:${port}`;
  try {
    await waitUntilReady(address, namespace, child);
  } catch (err) {
    await stop();
    throw err;
  }
  return { address, namespace, owned: true, stop };
}
