import { spawn } from 'node:child_process';
import type { Logger as TemporalLogger } from '@temporalio/worker';

/**
 * The workflow bundle (webpack with swc, as `bundleWorkflowCode` does it), made in a child
 * process: the memory webpack takes (about 110 MB of RSS that a process keeps after bundling,
 * measured; a worker thread's is not given back to the system either) goes with the child,
 * instead of staying in the worker process for its whole life. The bundler's log calls are
 * relayed to `logger`.
 */

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error';
interface LogMessage {
  kind: 'log';
  level: Level;
  message: string;
  meta?: Record<string, unknown>;
}
interface DoneMessage {
  kind: 'done';
  code: string;
}

// Plain CommonJS, so the child needs no TypeScript loader.
const BUNDLER_SOURCE = `
const workerData = JSON.parse(process.argv[1]);
const { bundleWorkflowCode } = require(workerData.bundlerPath);
const relay = (level) => (message, meta) =>
  process.send({ kind: 'log', level, message: String(message), meta: meta && JSON.parse(JSON.stringify(meta)) });
const logger = {
  log: (level, message, meta) => relay(String(level).toLowerCase())(message, meta),
  trace: relay('trace'), debug: relay('debug'), info: relay('info'), warn: relay('warn'), error: relay('error'),
};
bundleWorkflowCode({ workflowsPath: workerData.workflowsPath, logger }).then(
  ({ code }) => process.send({ kind: 'done', code }, () => process.exit(0)),
  (error) => { console.error(error); process.exit(1); },
);
`;

export function bundleWorkflowsInChild(
  workflowsPath: string,
  logger: TemporalLogger,
): Promise<{ code: string }> {
  return new Promise((resolve, reject) => {
    // The bundler by path: an evaluated script would resolve it from the working directory.
    const data = { workflowsPath, bundlerPath: require.resolve('@temporalio/worker') };
    const child = spawn(process.execPath, ['-e', BUNDLER_SOURCE, JSON.stringify(data)], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    let code: string | null = null;
    child.on('message', (message: LogMessage | DoneMessage) => {
      if (message.kind === 'done') {
        code = message.code;
        return;
      }
      logger[message.level](message.message, message.meta);
    });
    child.once('error', reject);
    child.once('exit', (exitCode) => {
      if (code !== null) resolve({ code });
      else reject(new Error(`the workflow bundler exited (${exitCode}) without a bundle`));
    });
  });
}
