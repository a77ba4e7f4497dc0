import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // test/client is type-checked by its e2e suite against types generated from the live document.
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'test/client/**',
      'web/src/generated/**',
      'eslint.config.mjs',
      'jest.config.js',
      '.dependency-cruiser.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/no-extraneous-class': 'off',
      // Prettier wraps code at 160; this catches what it leaves alone (comments), not long texts.
      'max-len': ['error', { code: 160, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }],
    },
  },
  // The documented receivers are plain JavaScript, run as written: linted without types.
  {
    files: ['docs/examples/**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { console: 'readonly', process: 'readonly', setImmediate: 'readonly' },
    },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Data access: a table is read and written only through its owner's *.repository.ts (and
    // src/database/). Services open transactions and pass the manager down; they never use it.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.repository.ts', 'src/database/**', 'src/common/persistence/**', 'src/**/*.spec.ts', 'src/**/*.medium-spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(query|getRepository|createQueryBuilder)$/]',
          message: "Data access lives in the owning module's *.repository.ts (see docs/architecture.md, Data access)",
        },
        {
          selector: "CallExpression[callee.object.name='manager'], CallExpression[callee.object.property.name='manager']",
          message: 'An EntityManager is a transaction handle outside repositories: pass it to a repository method',
        },
        {
          selector: "MemberExpression[object.type='MemberExpression'][object.property.name='dataSource'][property.name='manager']",
          message: 'Outside a transaction, repositories use their own connection: do not pass dataSource.manager',
        },
        {
          selector: "Decorator[expression.callee.name='InjectRepository']",
          message: "Data access lives in the owning module's *.repository.ts",
        },
      ],
    },
  },
);
