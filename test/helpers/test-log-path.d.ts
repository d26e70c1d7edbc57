/** The folder of the per-test-file logs, `.data/test-logs`. */
export const TEST_LOG_DIR: string;
/** The log file of the test file at `testPath` (absolute). */
export function testLogPath(testPath: string): string;
