import { loadConfig } from '../shared/config';
import { createLogger } from '../shared/logger';
import { runWorkerProcess } from './process';
import { installWorkerLogging } from './worker';

/** Worker process: runs activities and workflows until SIGTERM/SIGINT, then drains. */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel, 'worker');
  // Before anything connects to Temporal: the runtime's options are fixed once it exists.
  installWorkerLogging(logger, config.workerMetricsAddress);
  await runWorkerProcess(config, logger);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
