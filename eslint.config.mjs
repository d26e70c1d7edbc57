// @ts-check
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
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

// Layering (README.md "Architecture"; each folder's README says what it may import). The rules
// are `no-restricted-imports` patterns, one block per folder: flat config does not merge a
// rule's options across blocks (the last block wins), so each folder's block carries all of its
// bans. test/unit/layering.test.ts lints probe imports against them.

/** Relative specifiers reaching the top-level folder `folder` from any depth (`../../x/y`). */
function climbingTo(folder, suffixes = ['']) {
  return [1, 2, 3, 4, 5, 6].flatMap((depth) => {
    const up = Array.from({ length: depth }, () => '..').join('/');
    return suffixes.map((suffix) => `${up}/${folder}${suffix}`);
  });
}

/** One pattern per forbidden folder, so the message names the folder and the rule broken. */
function forbid(folders, rule) {
  return folders.map((folder) => ({
    group: climbingTo(folder),
    message: `${rule} It must not import ${folder}/.`,
  }));
}

const API_RULE = 'api/README.md: "May import: shared/" (workflows are started by name).';
const WORKERS_RULE = 'workers/README.md: "May import: shared/".';
const SHARED_RULE = 'shared/README.md: "May import: libraries only".';
const CLIENT_RULE = 'client/README.md: "Imports only openapi-fetch and its own generated types".';
const WORKFLOWS_RULE =
  'workflows/README.md: "May import: @temporalio/workflow, and types from workers/activities and shared/".';
const TOOLING = ['scripts', 'test', 'bench', 'examples', 'client'];

/**
 * The workflow folder's options: determinism (no Node built-ins, no I/O libraries) plus its
 * layering. `typeOnlyExceptions` lists further workers/ modules a file may take types from.
 */
/** Modules of shared/ workflows may take values from: pure, without imports. */
const PURE_SHARED_MODULES = ['temporal/workflow-constants', 'domain/calendar'];

function workflowImports(typeOnlyExceptions = []) {
  return {
    paths: nodeBuiltins.map((name) => ({
      name,
      message: 'Workflow code must be deterministic: no Node built-ins.',
    })),
    patterns: [
      {
        group: ioLibraries,
        message: 'Workflow code must not do I/O: call an activity instead.',
      },
      ...forbid(['api', ...TOOLING], WORKFLOWS_RULE),
      {
        group: [
          ...climbingTo('workers', ['/**', '/activities', '/activities/**']).map((pattern) =>
            pattern.includes('/activities') ? `!${pattern}` : pattern,
          ),
          // Git semantics: a path is re-included only with its folders, so each is negated.
          ...typeOnlyExceptions.flatMap((path) =>
            path
              .split('/')
              .map((_, i, parts) => `!${parts.slice(0, i + 1).join('/')}`)
              .slice(2),
          ),
        ],
        message: `${WORKFLOWS_RULE} Outside workers/activities/ it imports nothing from workers/.`,
      },
      {
        group: [...climbingTo('workers', ['/activities', '/activities/**']), ...typeOnlyExceptions],
        allowTypeImports: true,
        message: `${WORKFLOWS_RULE} Use \`import type\`: the worker bundle must not pull this code in.`,
      },
      {
        // shared/ gives types only, except its pure modules (no imports, no I/O), whose values
        // workflows and activities share instead of keeping two copies in step.
        regex: `^(\\.\\./)+shared(/(?!(${PURE_SHARED_MODULES.join('|')})$).*)?$`,
        allowTypeImports: true,
        message: `${WORKFLOWS_RULE} Use \`import type\`: of shared/, only ${PURE_SHARED_MODULES.join(' and ')} give values to workflows.`,
      },
    ],
  };
}

// One way SQL reaches PostgreSQL (docs/decisions.md "One SQL runner"): statements declared with
// statement() and run through a Sql. MikroORM's em.execute renders every value into the SQL
// text on the client; Knex's raw() and a bare connection bypass the runner's binding, typed
// rows and outage handling. Temporal's `client.workflow.execute` is not SQL.
const SQL_RUNNER =
  'Run SQL through the one runner, shared/db/sql.ts: declare statement(name, text) with $n ' +
  'placeholders and run it with sqlOf(em).rows/row/run or deps.db (CONTRIBUTING.md "A statement").';
const SQL_RUNNER_BANS = [
  {
    selector:
      "CallExpression[callee.property.name='execute']:not([callee.object.property.name='workflow'])",
    message: `${SQL_RUNNER} em.execute renders values into the SQL text.`,
  },
  {
    selector: "CallExpression[callee.property.name='raw']",
    message: `${SQL_RUNNER} knex.raw bypasses it.`,
  },
  {
    selector: 'CallExpression[callee.property.name=/^(getKnex|getTransactionContext)$/]',
    message: `${SQL_RUNNER} Only the runner takes connections from MikroORM.`,
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '.data/**',
      '**/*.js',
      // Except the live build page's script (api/pages/build-page.ts): browser code, see below.
      '!api/pages/assets/build-page.js',
      '**/*.mjs',
      // Generated by `npm run client:generate` (openapi-typescript); client/index.ts is linted.
      'client/schema.d.ts',
    ],
  },
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
        ...SQL_RUNNER_BANS,
      ],
    },
  },
  {
    // The live build page's script: JavaScript for browsers, served as it is written (no build
    // step), typed through its JSDoc against the DOM by tsconfig.browser.json.
    files: ['api/pages/assets/build-page.js'],
    languageOptions: {
      sourceType: 'script',
      globals: globals.browser,
      parserOptions: { projectService: false, project: './tsconfig.browser.json' },
    },
  },
  {
    // Entry points and tooling are where the environment is read (examples/: client scripts,
    // which do not import the service at all).
    files: ['api/main.ts', 'workers/main.ts', 'scripts/**', 'test/**', 'bench/**', 'examples/**'],
    rules: { 'no-restricted-syntax': ['error', ...SQL_RUNNER_BANS] },
  },
  {
    // The runner itself, and migrations (MikroORM's migration API writes schema SQL).
    files: ['shared/db/sql.ts', 'shared/db/migrations/**'],
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
  // test/, scripts/, bench/ and examples/ may import everything: no block.
  {
    files: ['api/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: forbid(['workers', 'workflows', ...TOOLING], API_RULE) },
      ],
    },
  },
  {
    files: ['workers/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: forbid(['api', 'workflows', ...TOOLING], WORKERS_RULE) },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: forbid(['api', 'workers', 'workflows', ...TOOLING], SHARED_RULE) },
      ],
    },
  },
  {
    files: ['client/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: forbid(
            ['api', 'workers', 'workflows', 'shared', ...TOOLING.filter((f) => f !== 'client')],
            CLIENT_RULE,
          ),
        },
      ],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', workflowImports()] },
  },
);
