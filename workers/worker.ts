import {
  DefaultLogger,
  NativeConnection,
  Runtime,
  Worker,
  type LogEntry,
  type WorkerOptions,
} from '@temporalio/worker';
import type { Logger } from '../shared/logger';
import { createActivities, type ActivityDeps } from './activities';

export interface WorkerDeps extends ActivityDeps {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  /** A prebuilt bundle (tests bundle once per run); otherwise workflows/ is bundled now. */
  workflowBundlePath?: string;
}

export async function createWorker(deps: WorkerDeps): Promise<Worker> {
  const workflows: Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> =
    deps.workflowBundlePath !== undefined
      ? { workflowBundle: { codePath: deps.workflowBundlePath } }
      : { workflowsPath: require.resolve('../workflows') };
  return Worker.create({
    connection: deps.connection,
    namespace: deps.namespace,
    taskQueue: deps.taskQueue,
    activities: createActivities(deps),
    ...workflows,
  });
}

/** Sends the Temporal SDK's own logs through our pino logger (JSON, one format everywhere). */
export function installWorkerLogging(logger: Logger): void {
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
  });
}

export { NativeConnection };
