import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { testLogPath } from './test-log-path';

/**
 * The running test file's log (test/README.md "Logs"): what its apps, workers and worker
 * processes write goes there instead of the terminal, and the summary reporter shows its end
 * when the file fails.
 */

/** The log file of the test file jest is running; undefined outside jest (a script). */
export function currentTestLogPath(): string | undefined {
  const testPath =
    typeof expect === 'undefined' ? undefined : (expect.getState().testPath ?? undefined);
  return testPath ? testLogPath(testPath) : undefined;
}

/** Empties the running file's log, so it holds this run only. */
export function startTestLog(): void {
  const path = currentTestLogPath();
  if (!path) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '');
}

/**
 * A writer to the running file's log, its path fixed now: a worker still shutting down when
 * jest has moved on writes where it belongs. Text goes as given (lines end in `\n`).
 * Synchronous, so the log is complete when the reporter reads it. Undefined outside jest.
 */
export function testLogWriter(): ((text: string) => void) | undefined {
  const path = currentTestLogPath();
  if (!path) return undefined;
  mkdirSync(dirname(path), { recursive: true });
  return (text) => {
    try {
      appendFileSync(path, text);
    } catch {
      // A log that cannot be written must not fail the test that logged.
    }
  };
}
