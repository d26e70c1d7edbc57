// Ends every run with one plain line, "N passed, N failed, N skipped", that any CI can read,
// and, under each test file that failed, the end of its service and worker log
// (test/README.md "Logs").
const { existsSync, readFileSync } = require('node:fs');
const { relative } = require('node:path');
const { testLogPath } = require('./test-log-path');

const TAIL_LINES = 100;

class SummaryReporter {
  onTestResult(_test, result) {
    if (result.numFailingTests === 0 && !result.testExecError) return;
    const failed = relative(process.cwd(), result.testFilePath);
    const path = testLogPath(result.testFilePath);
    const shown = relative(process.cwd(), path);
    if (!existsSync(path)) {
      console.log(`\nNo log for the failed ${failed} (${shown}).`);
      return;
    }
    const lines = readFileSync(path, 'utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    const tail = lines.slice(-TAIL_LINES);
    if (tail.length === 0) {
      console.log(`\nLog of the failed ${failed}: ${shown} (empty)`);
      return;
    }
    const what = tail.length < lines.length ? `last ${tail.length} of ${lines.length}` : 'all';
    console.log(`\nLog of the failed ${failed}: ${shown}`);
    console.log(`--- ${what} lines ---\n${tail.join('\n')}\n--- end of ${shown} ---`);
  }

  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
    const skipped = numPendingTests + numTodoTests;
    console.log(`\n${numPassedTests} passed, ${numFailedTests} failed, ${skipped} skipped`);
  }
}

module.exports = SummaryReporter;
