/** Jest runs TypeScript through SWC; services boot once per run in globalSetup. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(ts|js)$': ['@swc/jest'] },
  // content-disposition 3 (under @fastify/static) ships ESM only; Jest on Node 20 needs CJS.
  transformIgnorePatterns: ['/node_modules/(?!content-disposition/)'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  testTimeout: 60_000,
};
