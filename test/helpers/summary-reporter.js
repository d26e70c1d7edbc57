// Ends every run with one plain line, "N passed, N failed, N skipped", that any CI can read.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
    const skipped = numPendingTests + numTodoTests;
    console.log(`\n${numPassedTests} passed, ${numFailedTests} failed, ${skipped} skipped`);
  }
}

module.exports = SummaryReporter;
