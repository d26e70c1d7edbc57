import {
  DefaultLogger,
  NativeConnection,
  Runtime,
  Worker,
  type ActivityInterceptorsFactory,
  type LogEntry,
  type Logger as TemporalLogger,
} from '@temporalio/worker';
import { redactError } from '../shared/db/error-redaction';
import { mainTaskQueue, webhookTaskQueue } from '../shared/temporal';
import { BUILD_LANES, buildTaskQueue } from '../shared/temporal/task-queues';
import type { Logger } from '../shared/logger';
import { createActivities, type ActivityDeps } from './activities';
import { bundleWorkflowsInChild } from './bundle';
import { startWaker } from './waker';

export interface WorkerDeps extends ActivityDeps {
  connection: NativeConnection;
  namespace: string;
  /** The base of the task queue names (TEMPORAL_TASK_QUEUE). */
  taskQueue: string;
  /** A prebuilt bundle (tests bundle once per run); otherwise workflows/ is bundled now. */
  workflowBundlePath?: string;
}

/**
 * A process's Temporal workers, sharing one workflow bundle and one set of activities:
 * - main queue: maintenance and the webhook dispatcher (SDK default slots), and builds started
 *   before the build lanes (a workflow stays on its queue), which finish here;
 * - webhook queue: webhook deliveries. Each attempt is a local activity that holds a
 *   workflow-task slot while it runs (a POST is cut at 10 s, the attempt at 30 s), so
 *   deliveries get slots of their own (`WEBHOOK_DELIVERY_CONCURRENCY`) and slow receivers
 *   cannot stall builds;
 * - one queue per build lane (standard, priority, dedicated; docs/decisions.md "Build lanes").
 *   A build's activities run on its workflow's queue, so a lane's activity slots
 *   (`BUILD_<LANE>_CONCURRENCY`) bound the build steps in flight on that lane: a step beyond
 *   them waits on the lane's queue (the build workflow sets no schedule-to-start timeout, so
 *   the wait costs nothing and fails nothing), while the other lanes' steps run on their own
 *   slots. A build between two steps (a pace timer) holds no slot.
 */
export async function createWorkers(deps: WorkerDeps): Promise<Worker[]> {
  const workflowBundle =
    deps.workflowBundlePath !== undefined
      ? { codePath: deps.workflowBundlePath }
      : await bundleWorkflowsInChild(
          require.resolve('../workflows'),
          // The logger Worker.create would bundle with (ours, once installWorkerLogging ran),
          // with webpack's report summarised to one line.
          bundlerLogger(Runtime.instance().logger),
        );
  const shared = {
    connection: deps.connection,
    namespace: deps.namespace,
    activities: createActivities(deps),
    workflowBundle,
    interceptors: { activity: [redactingActivityErrors, temporalMetricTags] },
  };
  const deliveries = deps.config.webhookDeliveryConcurrency;
  return Promise.all([
    Worker.create({ ...shared, taskQueue: mainTaskQueue(deps.taskQueue) }),
    Worker.create({
      ...shared,
      taskQueue: webhookTaskQueue(deps.taskQueue),
      maxConcurrentWorkflowTaskExecutions: deliveries,
      maxConcurrentLocalActivityExecutions: deliveries,
      // Room for a workflow between its attempts (a retry's pause) without eviction.
      maxCachedWorkflows: 2 * deliveries,
    }),
    ...BUILD_LANES.map((lane) =>
      Worker.create({
        ...shared,
        taskQueue: buildTaskQueue(deps.taskQueue, lane),
        maxConcurrentActivityTaskExecutions: deps.config.buildConcurrency[lane],
      }),
    ),
  ]);
}

/**
 * The workflow bundler logs webpack's whole report (every module group, a multi-line message)
 * as one info line. It becomes one summary at info (the bundle asset and webpack's closing
 * line) and the report itself at debug; a failed build still logs its full report as an error.
 */
export function bundlerLogger(base: TemporalLogger): TemporalLogger {
  return {
    log(level, message, meta) {
      base.log(level, message, meta);
    },
    trace(message, meta) {
      base.trace(message, meta);
    },
    debug(message, meta) {
      base.debug(message, meta);
    },
    info(message, meta) {
      if (!message.includes('\n')) {
        base.info(message, meta);
        return;
      }
      const lines = message
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line.length > 0);
      base.debug('webpack report', { ...meta, report: message });
      base.info('workflow bundle compiled', {
        ...meta,
        asset: lines.find((line) => line.startsWith('asset '))?.slice('asset '.length),
        webpack: lines.at(-1),
      });
    },
    warn(message, meta) {
      base.warn(message, meta);
    },
    error(message, meta) {
      base.error(message, meta);
    },
  };
}

/**
 * An activity's failure becomes a workflow history event (kept by Temporal) and an SDK log
 * line: a failed statement's values must reach neither (shared/db/error-redaction.ts). The
 * redacted error keeps its name, so retry policies that name error types still match.
 */
export const redactingActivityErrors: ActivityInterceptorsFactory = () => ({
  inbound: {
    async execute(input, next) {
      try {
        return await next(input);
      } catch (error) {
        throw redactError(error);
      }
    },
  },
});

/**
 * The labels the SDK adds to what an activity records through its metric meter
 * (shared/metrics/worker-metrics.ts), named as Temporal names them on its own series
 * (`task_queue`, `activity_type`), so one query can group or join both.
 */
const temporalMetricTags: ActivityInterceptorsFactory = () => ({
  outbound: {
    getMetricTags(input, next) {
      const { taskQueue, activityType, ...tags } = next(input);
      if (taskQueue !== undefined) tags.task_queue = taskQueue;
      if (activityType !== undefined) tags.activity_type = activityType;
      return tags;
    },
  },
});

export interface RunningWorkers {
  /** Settles once every worker has stopped; rejects with the first worker's failure. */
  done: Promise<void>;
  /** Stops polling and lets the tasks under way finish. */
  shutdown(): void;
}

/** Runs the workers together: one failing shuts the others down, so `done` always settles. */
export function runWorkers(workers: readonly Worker[]): RunningWorkers {
  const shutdown = () => {
    for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
  };
  const runs = workers.map((worker) =>
    worker.run().catch((error: unknown) => {
      shutdown();
      throw error;
    }),
  );
  const done = Promise.allSettled(runs).then((results) => {
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  });
  return { done, shutdown };
}

export interface StartedWorkers extends RunningWorkers {
  /** The task queues polled: main, webhooks, one per build lane. */
  taskQueues: string[];
  /**
   * Shuts down, waits for the activities under way, closes the Temporal connection; rejects
   * with a worker's failure, if one failed.
   */
  stop(): Promise<void>;
}

/**
 * Connects to Temporal (`config.temporal`) and runs this process's workers: the one wiring
 * every runner shares (the worker process, `npm run dev`, the tests, the screenshot script).
 */
export async function startWorkers(
  deps: Omit<WorkerDeps, 'connection' | 'namespace' | 'taskQueue'>,
): Promise<StartedWorkers> {
  const { address, namespace, taskQueue } = deps.config.temporal;
  const connection = await NativeConnection.connect({ address });
  try {
    const workers = await createWorkers({ ...deps, connection, namespace, taskQueue });
    const running = runWorkers(workers);
    // Nudges the polling loops when work arrives, so they can sleep while there is none.
    const waker = startWaker(deps);
    return {
      ...running,
      taskQueues: workers.map((worker) => worker.options.taskQueue),
      async stop() {
        await waker.stop();
        running.shutdown();
        try {
          await running.done;
        } finally {
          await connection.close();
        }
      },
    };
  } catch (error) {
    await connection.close();
    throw error;
  }
}

/**
 * Installs the process's Temporal runtime, once, before any connection or worker exists: the
 * SDK's own logs go through our pino logger (JSON, one format everywhere), and with
 * `metricsAddress` (`WORKER_METRICS_ADDRESS`) its Prometheus exporter serves `/metrics` there:
 * Temporal's worker metrics and the series activities record (docs/metrics.md).
 */
export function installWorkerLogging(logger: Logger, metricsAddress?: string): void {
  const methods = {
    TRACE: 'trace',
    DEBUG: 'debug',
    INFO: 'info',
    WARN: 'warn',
    ERROR: 'error',
  } as const;
  Runtime.install({
    logger: new DefaultLogger('INFO', (entry: LogEntry) => {
      logger[methods[entry.level]](entry.meta ?? {}, entry.message);
    }),
    telemetryOptions: {
      // Core's own (Rust) logs through the same logger, instead of plain text on stderr.
      logging: { forward: {} },
      ...(metricsAddress ? { metrics: { prometheus: { bindAddress: metricsAddress } } } : {}),
    },
  });
}

export { NativeConnection };
