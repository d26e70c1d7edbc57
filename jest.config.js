/** Jest runs TypeScript through SWC; services boot once per run in globalSetup. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(ts|js)$': ['@swc/jest'] },
  // The OpenAPI validator ships ESM only; Jest on Node 20 loads CommonJS, so SWC converts it.
  transformIgnorePatterns: ['/node_modules/(?!@seriousme/openapi-schema-validator/)'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  testTimeout: 60_000,
  reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
};
