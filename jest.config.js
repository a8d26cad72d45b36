/**
 * ts-jest transpiles each file on its own (tsconfig sets isolatedModules), so tests start fast;
 * `npm run typecheck` type-checks the same files with tsc.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The load test (test/load) and the fault scenarios (test/faults) run alone after the rest (npm run
  // test:load, test:faults): they measure real processes under load, which other suites beside them
  // would distort.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/load/', '<rootDir>/test/faults/'],
  // Tests run as CommonJS, so the gateway's `import('jose')` becomes a require, and jose (ES modules
  // only) is turned into CommonJS for them (test/support/esm-to-cjs-transform.js).
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false, tsconfig: { module: 'commonjs', moduleResolution: 'node10' } }],
    '/node_modules/jose/.+\\.js$': '<rootDir>/test/support/esm-to-cjs-transform.js',
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  testTimeout: 30000,
  // The examples import the package by name, as users do; here it is the source.
  moduleNameMapper: { '^docjoin$': '<rootDir>/src/index.ts', '^docjoin/embedded-mongo$': '<rootDir>/src/embedded-mongo/index.ts' },
  // Fails any test whose operations cost more than their static estimate (src/gateway/operation/cost/estimate-check.ts).
  setupFilesAfterEnv: ['<rootDir>/test/support/fail-on-estimate-violations.ts'],
};
