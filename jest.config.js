/**
 * Three projects: fast unit specs next to the code; medium specs, also next to the code, that run
 * real services against a migrated PostgreSQL database, Redis and the sandboxes
 * (`*.medium-spec.ts`, helper in test/support/medium.ts); and black-box e2e suites against real services.
 * Specs are transpiled without type checking (`npm run typecheck` does that).
 */
const transform = {
  '^.+\\.[tj]s$': ['ts-jest', { tsconfig: { isolatedModules: true, allowJs: true } }],
};
/**
 * Node loads the ESM-only builds of otplib's @scure/@noble dependencies with `require`; Jest's
 * module runtime cannot, so those are transpiled like our sources. Every other package is not.
 */
const transformIgnorePatterns = ['/node_modules/(?!(@otplib|@scure|@noble)/)'];

module.exports = {
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/sandbox/**/*.spec.ts'],
      transform,
      transformIgnorePatterns,
    },
    {
      displayName: 'medium',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.medium-spec.ts'],
      globalSetup: '<rootDir>/test/support/build.global-setup.ts',
      transform,
      transformIgnorePatterns,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/build.global-setup.ts',
      transform,
      transformIgnorePatterns,
    },
  ],
};
