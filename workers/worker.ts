import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createActivities } from './activities';

export interface WorkerDeps {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  orm: MikroORM;
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
    activities: createActivities({ orm: deps.orm }),
    ...workflows,
  });
}

export { NativeConnection };
