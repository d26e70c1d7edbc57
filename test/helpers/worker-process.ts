import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import type { Config } from '../../shared/config';
import { testLogWriter } from './test-log';

const ROOT = resolve(__dirname, '..', '..');
const ENTRY = resolve(__dirname, 'worker-entry.ts');

/** A worker running in a separate OS process. */
export interface WorkerProcess {
  pid: number;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGKILL: the process dies mid-step, as a crashed machine would. */
  crash(): Promise<void>;
  /** SIGTERM: the worker drains and exits. */
  stop(): Promise<void>;
  output(): string;
}

/** `<chainId>=<value>` pairs, as the per-chain settings are written. */
function pairs(values: Record<number, string | number>): string {
  return Object.entries(values)
    .map(([chainId, value]) => `${chainId}=${value}`)
    .join(',');
}

/** The environment that makes a worker process see the same world as `config`. */
export function workerEnv(config: Config): Record<string, string> {
  const env: Record<string, string> = {
    NODE_ENV: config.env,
    LOG_LEVEL: 'warn',
    PUBLIC_BASE_URL: config.publicBaseUrl,
    DATABASE_URL: config.databaseUrl!,
    DATABASE_POOL_MAX: String(config.databasePoolMax),
    REDIS_URL: config.redisUrl!,
    REDIS_KEY_PREFIX: config.redisKeyPrefix,
    REDIS_COMMAND_TIMEOUT_MS: String(config.redisCommandTimeoutMs),
    TEMPORAL_ADDRESS: config.temporal.address,
    TEMPORAL_NAMESPACE: config.temporal.namespace,
    TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
    BUILD_WORKSPACE_ROOT: config.build.workspaceRoot,
    BUILD_COMMAND_TIMEOUT_MS: String(config.build.commandTimeoutMs),
    BUILD_MAX_TURNS: String(config.build.maxTurns),
    BUILD_PACE_MS: String(config.build.paceMs),
    BUILD_ARTIFACT_MAX_BYTES: String(config.build.artifactMaxBytes),
    BUILD_STANDARD_CONCURRENCY: String(config.buildConcurrency.standard),
    BUILD_PRIORITY_CONCURRENCY: String(config.buildConcurrency.priority),
    BUILD_DEDICATED_CONCURRENCY: String(config.buildConcurrency.dedicated),
    WEBHOOK_ALLOWED_HOSTS: config.webhookAllowedHosts.join(','),
    WEBHOOK_DELIVERY_CONCURRENCY: String(config.webhookDeliveryConcurrency),
    CHAIN_RPC_URLS: pairs(config.chainRpcUrls),
    LAUNCH_FACTORIES: Object.entries(config.launchFactories)
      .flatMap(([chainId, factories]) =>
        Object.entries(factories).map(([template, address]) => `${chainId}:${template}=${address}`),
      )
      .join(','),
    CHAIN_FINALITY_DEPTH: pairs(config.chainSync.finalityDepth),
    CHAIN_START_BLOCKS: pairs(config.chainSync.startBlocks),
    CHAIN_LOG_RANGE: String(config.chainSync.logRange),
    CHAIN_POLL_INTERVAL_MS: String(config.chainSync.pollIntervalMs),
    LAUNCH_TIMEOUT_HOURS: String(config.launchTimeoutHours),
  };
  if (config.workerMetricsAddress) env.WORKER_METRICS_ADDRESS = config.workerMetricsAddress;
  if (config.matrix.homeserverUrl) env.MATRIX_HOMESERVER_URL = config.matrix.homeserverUrl;
  if (config.matrix.accessToken) env.MATRIX_ACCESS_TOKEN = config.matrix.accessToken;
  if (config.llm) {
    env.LLM_BASE_URL = config.llm.baseUrl;
    env.LLM_MODEL = config.llm.model;
    env.LLM_TIMEOUT_MS = String(config.llm.timeoutMs);
    if (config.llm.apiKey) env.LLM_API_KEY = config.llm.apiKey;
  }
  return env;
}

/**
 * Starts `node --import tsx test/helpers/worker-entry.ts` (one process, so a signal reaches the
 * worker itself) and resolves once it polls its task queue.
 */
export async function startWorkerProcess(
  config: Config,
  timeoutMs = 60_000,
): Promise<WorkerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      SVC_TEST_SERVICES: process.env.SVC_TEST_SERVICES ?? '',
      // The jest worker's own chain (readTestServices).
      JEST_WORKER_ID: process.env.JEST_WORKER_ID ?? '1',
      ...workerEnv(config),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Also to the test file's log (test/README.md "Logs"), where a failed file's tail is shown.
  const toLog = testLogWriter();
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    toLog?.(chunk.toString('utf8'));
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const deadline = Date.now() + timeoutMs;
  while (!output.includes('worker-ready')) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`worker process exited before it was ready:\n${output}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`worker process not ready within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const pid = child.pid!;
  return {
    pid,
    exited,
    async crash() {
      if (child.exitCode === null && child.signalCode === null) process.kill(pid, 'SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(pid, 'SIGTERM');
      await exited;
    },
    output: () => output,
  };
}
