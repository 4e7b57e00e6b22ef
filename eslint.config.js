// Lint rules, including the layering rules of ARCHITECTURE.md: shared/ stands alone, the gateway never imports electron, the renderer never imports node or electron.
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = { group: ['node:*', ...builtinModules], message: 'This layer must not use Node built-ins.' };
const electronModule = { name: 'electron', message: 'Only electron/main and electron/preload may import electron.' };

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test-artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronModule],
          patterns: [nodeBuiltins, { group: ['../*', '!./*'], message: 'shared/ imports nothing of ours outside shared/.' }],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'Buffer'],
    },
  },
  {
    files: ['electron/gateway/**/*.ts', 'electron/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronModule],
          patterns: [{ group: ['**/main/*', '**/preload/*', '**/renderer/*'], message: 'The core does not know its hosts.' }],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronModule],
          patterns: [nodeBuiltins, { group: ['**/electron/**'], message: 'The renderer talks to the gateway over HTTP only.' }],
        },
      ],
    },
  },
  {
    // Tests read arbitrary JSON answers; `any` there keeps assertions readable.
    files: ['tests/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
