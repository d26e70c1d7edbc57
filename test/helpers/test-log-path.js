// Where a test file's service and worker logs go (test/README.md "Logs"). CommonJS, so the
// summary reporter, which jest loads without transforming it, shares the rule with the tests.
const { basename, isAbsolute, join, relative, resolve } = require('node:path');

const ROOT = resolve(__dirname, '..', '..');
const TEST_LOG_DIR = join(ROOT, '.data', 'test-logs');

/**
 * `test/integration/auth.test.ts` logs to `.data/test-logs/integration/auth.log`; a test file
 * outside test/ (a one-off run from elsewhere) to its bare name there, never outside the folder.
 */
function testLogPath(testPath) {
  const inTest = relative(join(ROOT, 'test'), testPath);
  const name = inTest.startsWith('..') || isAbsolute(inTest) ? basename(testPath) : inTest;
  return join(TEST_LOG_DIR, `${name.replace(/\.test\.[cm]?[jt]s$/, '')}.log`);
}

module.exports = { TEST_LOG_DIR, testLogPath };
