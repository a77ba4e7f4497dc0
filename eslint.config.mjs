import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // test/client is type-checked by its e2e suite against types generated from the live document.
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test/client/**', 'eslint.config.mjs', 'jest.config.js', '.dependency-cruiser.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/no-extraneous-class': 'off',
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
    // Data access: SQL text lives only in the owning module's *.repository.ts (and src/database/).
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.repository.ts', 'src/database/**', 'src/**/*.spec.ts', 'src/**/*.medium-spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='query']",
          message: "SQL lives in the owning module's *.repository.ts (see docs/architecture.md, Data access)",
        },
      ],
    },
  },
);
