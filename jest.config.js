/**
 * Three projects: fast unit specs next to the code; medium specs, also next to the code, that run
 * real services against a migrated PostgreSQL database, Redis and the sandboxes
 * (`*.medium-spec.ts`, helper in test/support/medium.ts); and black-box e2e suites against real services.
 * Specs are transpiled without type checking (`npm run typecheck` does that).
 */
const transform = {
  '^.+\\.[tj]s$': ['ts-jest', { tsconfig: { isolatedModules: true, allowJs: true } }],
};

module.exports = {
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/sandbox/**/*.spec.ts'],
      transform,
    },
    {
      displayName: 'medium',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.medium-spec.ts'],
      globalSetup: '<rootDir>/test/support/build.global-setup.ts',
      transform,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/build.global-setup.ts',
      transform,
    },
  ],
};
