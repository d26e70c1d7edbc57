// @ts-check
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Workflow code is replayed deterministically by Temporal: it must not touch the outside world.
const nodeBuiltins = builtinModules.flatMap((name) => [name, `node:${name}`]);
const ioLibraries = [
  'ioredis',
  'pg',
  'viem',
  'fastify',
  'undici',
  '@mikro-orm/*',
  '@temporalio/client',
  '@temporalio/worker',
  '@temporalio/activity',
  '@temporalio/testing',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Fastify plugins, hooks and handlers are async by contract, awaited or not.
      '@typescript-eslint/require-await': 'off',
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration through shared/config.ts, not process.env.',
        },
      ],
    },
  },
  {
    // Entry points and tooling are where the environment is read (examples/: client scripts,
    // which do not import the service at all).
    files: ['api/main.ts', 'workers/main.ts', 'scripts/**', 'test/**', 'bench/**', 'examples/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'Workflow code must be deterministic: no Node built-ins.',
          })),
          patterns: [
            {
              group: ioLibraries,
              message: 'Workflow code must not do I/O: call an activity instead.',
            },
            {
              group: ['../workers/*', '../workers/**', '../shared/*', '../shared/**'],
              allowTypeImports: true,
              message: 'Workflows import only types from workers/ and shared/.',
            },
          ],
        },
      ],
    },
  },
);
