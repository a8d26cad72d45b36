/** Jest transpiles with SWC (fast, no type check); `npm run typecheck` runs tsc over the same files. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  testTimeout: 30000,
};
