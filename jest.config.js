/**
 * Jest runs TypeScript through SWC; services boot once per run in globalSetup. `npm test` runs
 * four workers (package.json): each test file has its own database, Redis key prefix and
 * Temporal task queue, and each worker its own chain (test/README.md "Parallel files").
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(ts|js)$': ['@swc/jest'] },
  // The OpenAPI validator and the API reference (Scalar, with its slugger) ship ESM only; Jest
  // on Node 20 loads CommonJS, so SWC converts them.
  transformIgnorePatterns: [
    '/node_modules/(?!(@seriousme/openapi-schema-validator|@scalar|github-slugger)/)',
  ],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  // Service and worker logs go to one file per test file, not the terminal (test/README.md).
  setupFilesAfterEnv: ['<rootDir>/test/helpers/test-log-setup.ts'],
  testTimeout: 60_000,
  // A worker that ran the heavier files (Temporal's native runtime, a 2 GB heap) takes about
  // a second to exit once the run ends; jest's 500 ms would force it and warn of a leak that
  // is not there. A worker that never exits is still forced, and reported, after 10 s.
  workerGracefulExitTimeout: 10_000,
  reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
  // Longest files first (test/helpers/durations.json), so none starts last.
  testSequencer: '<rootDir>/test/helpers/sequencer.js',
};
