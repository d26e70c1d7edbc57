import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The layering rules of README.md "Architecture" (each folder's README: "May import") are
 * `no-restricted-imports` blocks in eslint.config.mjs. Probe imports are linted as text under
 * virtual paths (nothing is written into the tree) and must fail or pass as the rules say.
 * The same way, probe code proves SQL outside the one runner (shared/db/sql.ts) is refused by
 * the `no-restricted-syntax` bans.
 *
 * ESLint runs in a child process: it loads eslint.config.mjs with a dynamic import(), which
 * Jest's module sandbox refuses. The probes are not on disk, so the type-aware rules (which
 * need the file in the TypeScript project) are switched off for them; the import rules are not
 * type-aware.
 */

const ROOT = join(__dirname, '..', '..');

interface Probe {
  /** Where the probe pretends to live; the folder decides which rules apply. */
  filePath: string;
  code: string;
}

interface Finding {
  ruleId: string | null;
  message: string;
}

const LINT_PROBES = `
const { ESLint } = require('eslint');
const tseslint = require('typescript-eslint');
const probes = JSON.parse(process.argv[1]);
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: [{ files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked }],
});
(async () => {
  const findings = [];
  for (const { filePath, code } of probes) {
    const [result] = await eslint.lintText(code, { filePath });
    findings.push(
      result.messages
        .filter((m) => m.fatal || ['no-restricted-imports', 'no-restricted-syntax'].includes(m.ruleId))
        .map((m) => ({ ruleId: m.ruleId, message: m.message })),
    );
  }
  process.stdout.write(JSON.stringify(findings));
})().catch((err) => { console.error(err); process.exit(1); });
`;

async function lintProbes(probes: Probe[]): Promise<Finding[][]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['-e', LINT_PROBES, JSON.stringify(probes)],
    { cwd: ROOT, timeout: 50_000, maxBuffer: 4 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as Finding[][];
}

// `export {}` keeps each probe a module; unused imports are another rule's business.
const probe = (filePath: string, ...imports: string[]): Probe => ({
  filePath,
  code: `${imports.join('\n')}\nexport {};\n`,
});

/** Each forbidden probe, with words its message must contain (the rule it cites). */
const FORBIDDEN: Array<[string, Probe, string[]]> = [
  [
    'api → workers',
    probe(
      'api/routes/keys/__probe__.ts',
      "import { createWorkers } from '../../../workers/worker';",
    ),
    ['api/README.md', 'workers/'],
  ],
  [
    'api → workflows, even types',
    probe('api/__probe__.ts', "import type { projectBuildWorkflow } from '../workflows/index';"),
    ['api/README.md', 'workflows/'],
  ],
  [
    'api → test helpers',
    probe(
      'api/plugins/__probe__.ts',
      "import { createTestContext } from '../../test/helpers/context';",
    ),
    ['api/README.md', 'test/'],
  ],
  [
    'workers → api',
    probe('workers/activities/__probe__.ts', "import { buildApp } from '../../api/app';"),
    ['workers/README.md', 'api/'],
  ],
  [
    'workers → workflows',
    probe(
      'workers/__probe__.ts',
      "import { projectBuildWorkflow } from '../workflows/project-build';",
    ),
    ['workers/README.md', 'workflows/'],
  ],
  [
    'shared → api, even types',
    probe('shared/db/__probe__.ts', "import type { App } from '../../api/app';"),
    ['shared/README.md', 'api/'],
  ],
  [
    'shared → workers',
    probe('shared/__probe__.ts', "import { createWorkers } from '../workers/worker';"),
    ['shared/README.md', 'workers/'],
  ],
  [
    'client → shared',
    probe('client/__probe__.ts', "import { AppError } from '../shared/errors';"),
    ['client/README.md', 'shared/'],
  ],
  [
    'workflows → node:fs',
    probe('workflows/__probe__.ts', "import { readFileSync } from 'node:fs';"),
    ['deterministic', 'Node built-ins'],
  ],
  [
    'workflows → fs (bare built-in name)',
    probe('workflows/__probe__.ts', "import { readFileSync } from 'fs';"),
    ['deterministic'],
  ],
  [
    'workflows → ioredis',
    probe('workflows/__probe__.ts', "import Redis from 'ioredis';"),
    ['must not do I/O'],
  ],
  [
    'workflows → @mikro-orm/core',
    probe('workflows/__probe__.ts', "import { MikroORM } from '@mikro-orm/core';"),
    ['must not do I/O'],
  ],
  [
    'workflows → activity code (a value, not a type)',
    probe(
      'workflows/__probe__.ts',
      "import { createProjectActivities } from '../workers/activities/projects';",
    ),
    ['workflows/README.md', 'import type'],
  ],
  [
    'workflows → workers/ outside activities/, even types',
    probe('workflows/__probe__.ts', "import type { WorkerOptions } from '../workers/worker';"),
    ['workflows/README.md', 'workers/activities/'],
  ],
  [
    'workflows → shared code (a value)',
    probe('workflows/__probe__.ts', "import { loadConfig } from '../shared/config';"),
    ['workflows/README.md', 'import type'],
  ],
  [
    'workflows → api',
    probe('workflows/__probe__.ts', "import type { App } from '../api/app';"),
    ['workflows/README.md', 'api/'],
  ],
  [
    'workflows → a value of shared/ beside its pure modules (a name that only starts alike)',
    probe('workflows/__probe__.ts', "import { DAY_MS } from '../shared/domain/calendar-extra';"),
    ['workflows/README.md', 'import type'],
  ],
];

const ALLOWED: Array<[string, Probe]> = [
  [
    'api → shared and libraries',
    probe(
      'api/routes/keys/__probe__.ts',
      "import { AppError } from '../../../shared/errors';",
      "import type { FastifyInstance } from 'fastify';",
      "import { keySchema } from './schemas';",
    ),
  ],
  [
    'workers → shared and libraries',
    probe(
      'workers/activities/__probe__.ts',
      "import { appendProjectEvents } from '../../shared/projects/events';",
      "import { Context } from '@temporalio/activity';",
    ),
  ],
  [
    'workflows → @temporalio/workflow, activity types and shared types',
    probe(
      'workflows/__probe__.ts',
      "import { proxyActivities, sleep } from '@temporalio/workflow';",
      "import type { ProjectActivities } from '../workers/activities/projects';",
      "import type { WebhookDeliveryInput } from '../shared/temporal/workflows';",
      "import { chainSyncWorkflow } from './chain-sync';",
    ),
  ],
  [
    "workflows → values of shared/'s pure modules, shared with the activities",
    probe(
      'workflows/__probe__.ts',
      "import { OUTBOX_BATCH } from '../shared/temporal/workflow-constants';",
      "import { DAY_MS } from '../shared/domain/calendar';",
    ),
  ],
  [
    'shared → libraries and shared/temporal/workflows.ts (a file, not the workflows/ folder)',
    probe(
      'shared/temporal/__probe__.ts',
      "import type { ChainSyncInput } from './workflows';",
      "import { z } from 'zod';",
    ),
  ],
  [
    'test → everything',
    probe(
      'test/unit/__probe__.ts',
      "import { buildApp } from '../../api/app';",
      "import { createWorkers } from '../../workers/worker';",
      "import { projectBuildWorkflow } from '../../workflows/project-build';",
      "import { seed } from '../../scripts/seed';",
      "import { readFileSync } from 'node:fs';",
    ),
  ],
  [
    'scripts and bench → api and workers',
    probe(
      'scripts/__probe__.ts',
      "import { buildApp } from '../api/app';",
      "import { createWorkers } from '../workers/worker';",
    ),
  ],
];

/**
 * SQL outside the one runner (shared/db/sql.ts, docs/decisions.md "One SQL runner"): each
 * probe is code, not an import; the message must name the runner.
 */
const code = (filePath: string, ...lines: string[]): Probe => ({
  filePath,
  code: `${lines.join('\n')}\nexport {};\n`,
});
const EM =
  'declare const em: { execute(sql: string, params?: unknown[]): Promise<unknown>; getKnex(): unknown; getConnection(): { execute(sql: string): Promise<unknown> } };';

const SQL_FORBIDDEN: Array<[string, Probe, string[]]> = [
  [
    'em.execute in a route',
    code('api/routes/keys/__probe__.ts', EM, "void em.execute('select ?', [1]);"),
    ['shared/db/sql.ts', 'renders values into the SQL text'],
  ],
  [
    'em.getConnection().execute in a worker',
    code('workers/chain/__probe__.ts', EM, "void em.getConnection().execute('select 1');"),
    ['shared/db/sql.ts'],
  ],
  [
    'knex.raw in shared code',
    code(
      'shared/flow/__probe__.ts',
      'declare const knex: { raw(sql: string, params: unknown[]): Promise<unknown> };',
      "void knex.raw('select ?', [1]);",
    ),
    ['shared/db/sql.ts', 'knex.raw'],
  ],
  [
    'a connection taken from MikroORM in a test',
    code('test/integration/__probe__.ts', EM, 'void em.getKnex();'),
    ['shared/db/sql.ts'],
  ],
];

const SQL_ALLOWED: Array<[string, Probe]> = [
  [
    "Temporal's client.workflow.execute",
    code(
      'test/integration/__probe__.ts',
      'declare const client: { workflow: { execute(type: string): Promise<unknown> } };',
      "void client.workflow.execute('chainSyncWorkflow');",
    ),
  ],
  ['the runner itself takes the connection', code('shared/db/sql.ts', EM, 'void em.getKnex();')],
];

let findings: Finding[][];
let sqlFindings: Finding[][];

beforeAll(async () => {
  findings = await lintProbes([...FORBIDDEN.map(([, p]) => p), ...ALLOWED.map(([, p]) => p)]);
  sqlFindings = await lintProbes([
    ...SQL_FORBIDDEN.map(([, p]) => p),
    ...SQL_ALLOWED.map(([, p]) => p),
  ]);
});

describe('SQL outside the runner fails lint', () => {
  it.each(SQL_FORBIDDEN.map((entry, index) => [...entry, index] as const))(
    '%s',
    (_name, _probe, words, index) => {
      const messages = sqlFindings[index]!;
      expect(messages.length).toBeGreaterThan(0);
      expect(messages.every((m) => m.ruleId === 'no-restricted-syntax')).toBe(true);
      for (const word of words) expect(messages.map((m) => m.message).join('\n')).toContain(word);
    },
  );

  it.each(SQL_ALLOWED.map((entry, index) => [...entry, SQL_FORBIDDEN.length + index] as const))(
    '%s passes',
    (_name, _probe, index) => {
      expect(sqlFindings[index]).toEqual([]);
    },
  );
});

describe('forbidden imports fail lint', () => {
  it.each(FORBIDDEN.map((entry, index) => [...entry, index] as const))(
    '%s',
    (_name, _probe, words, index) => {
      const messages = findings[index]!;
      expect(messages.length).toBeGreaterThan(0);
      expect(messages.every((m) => m.ruleId === 'no-restricted-imports')).toBe(true);
      for (const word of words) expect(messages.map((m) => m.message).join('\n')).toContain(word);
    },
  );
});

describe('allowed imports pass', () => {
  it.each(ALLOWED.map((entry, index) => [...entry, FORBIDDEN.length + index] as const))(
    '%s',
    (_name, _probe, index) => {
      expect(findings[index]).toEqual([]);
    },
  );
});
