// The order jest hands test files to its workers: longest first, so no long file starts last
// and keeps one worker busy after the others ran out of files (test/README.md "Parallel
// files"). How long a file takes comes from test/helpers/durations.json, a measured run's
// seconds per file; a file not in it counts by its size, as jest's own sequencer does (about
// 1 s per 1,000 bytes on this suite). Refreshed from a run's `jest --json --outputFile=<file>`
// by `node test/helpers/sequencer.js <file>`.
const { createHash } = require('node:crypto');
const { readFileSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const DURATIONS = JSON.parse(readFileSync(join(__dirname, 'durations.json'), 'utf8'));

function expectedSeconds(path) {
  const known = DURATIONS[relative(ROOT, path)];
  if (typeof known === 'number') return known;
  try {
    return statSync(path).size / 1000;
  } catch {
    return 0;
  }
}

class LongestFirstSequencer {
  sort(tests) {
    const seconds = new Map(tests.map((test) => [test.path, expectedSeconds(test.path)]));
    return [...tests].sort(
      (a, b) => seconds.get(b.path) - seconds.get(a.path) || (a.path < b.path ? -1 : 1),
    );
  }

  /** Nothing is kept between runs (durations.json is the record), so none failed before. */
  cacheResults() {}

  allFailedTests() {
    return [];
  }

  /** `--shard=i/n` as jest's own sequencer splits: by the hash of each file's path. */
  shard(tests, { shardIndex, shardCount }) {
    const size = Math.ceil(tests.length / shardCount);
    const hashOf = (test) => createHash('sha1').update(relative(ROOT, test.path)).digest('hex');
    return tests
      .map((test) => ({ test, hash: hashOf(test) }))
      .sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0))
      .slice(size * (shardIndex - 1), size * shardIndex)
      .map(({ test }) => test);
  }
}

module.exports = LongestFirstSequencer;

if (require.main === module) {
  const { writeFileSync } = require('node:fs');
  const run = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const seconds = run.testResults
    .map((file) => [relative(ROOT, file.name), (file.endTime - file.startTime) / 1000])
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([file, taken]) => [file, Math.round(taken * 10) / 10]);
  writeFileSync(
    join(__dirname, 'durations.json'),
    `${JSON.stringify(Object.fromEntries(seconds), null, 2)}\n`,
  );
}
