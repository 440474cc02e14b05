// Flat config: typescript-eslint's recommended rules, formatting left to prettier.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['node_modules/', '.data/', 'viewer/dist/', 'bench/results.json', 'test-artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  // Plain-JavaScript scripts (scripts/healthcheck.mjs) run on Node: its globals are defined.
  {
    files: ['**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', fetch: 'readonly', AbortSignal: 'readonly' },
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
);
