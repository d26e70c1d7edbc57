import { DefaultLogger, Runtime, type LogEntry } from '@temporalio/worker';
import { startTestLog, testLogWriter } from './test-log';

/**
 * Runs before every test file (jest `setupFilesAfterEnv`, test/README.md "Logs"): empties the
 * file's log and sends the Temporal SDK's own logs (worker state changes, core warnings), which
 * would go to stderr, to it as JSON lines like pino's. Test files never install a runtime
 * themselves, so the SDK's default options are where the logger goes: `Runtime.instance()`
 * creates the runtime with them.
 */

/** pino's numbers for the SDK's level names, so every line of the log reads alike. */
const LEVELS = { TRACE: 10, DEBUG: 20, INFO: 30, WARN: 40, ERROR: 50 } as const;

startTestLog();
const write = testLogWriter();
if (write) {
  Runtime.defaultOptions = {
    ...Runtime.defaultOptions,
    // Core's own warnings (in Rust) go to stderr unless forwarded to the logger below.
    telemetryOptions: { logging: { forward: {} } },
    logger: new DefaultLogger('INFO', ({ level, message, meta, timestampNanos }: LogEntry) =>
      write(
        JSON.stringify({
          level: LEVELS[level],
          time: Number(timestampNanos / 1_000_000n),
          name: 'temporal',
          msg: message,
          ...meta,
        }) + '\n',
      ),
    ),
  };
}
