import { loadConfig } from '../../shared/config';
import { createLogger } from '../../shared/logger';
import { runWorkerProcess } from '../../workers/process';
import { installWorkerLogging } from '../../workers/worker';
import { readTestServices } from './services';

/**
 * A worker in its own OS process (test/helpers/worker-process.ts starts it), so a test can
 * kill it with SIGKILL as a crash would. Uses the run's prebuilt workflow bundle to start fast,
 * and prints `worker-ready` once it polls.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel, 'worker-process');
  installWorkerLogging(logger, config.workerMetricsAddress);
  await runWorkerProcess(config, logger, {
    workflowBundlePath: readTestServices().workflowBundlePath,
    onReady: () => process.stdout.write('worker-ready\n'),
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
