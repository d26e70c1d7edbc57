import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildApp } from '../api/app';
import type { ApiDeps } from '../api/deps';
import { loadConfig } from '../shared/config';
import { createLogger } from '../shared/logger';

/**
 * `npm run client:generate`: writes the typed client's inputs from the route schemas.
 *
 * - `client/openapi.json`: the OpenAPI document `GET /openapi.json` serves in production
 *   (NODE_ENV=production: no development-only route), built without listening and without
 *   any service (see `offlineDeps`), pretty-printed with `paths` and every `components` map
 *   in alphabetical order, so a diff shows only what changed;
 * - `client/schema.d.ts`: the `paths` / `components` types openapi-typescript derives from it.
 *
 * `npm run client:check` (`--check`) builds both in memory and exits 1, naming each committed
 * file that differs, when they are out of date. Nothing here depends on the time or the
 * environment: the same code gives the same bytes.
 */

const ROOT = join(__dirname, '..');
export const DOCUMENT_FILE = 'client/openapi.json';
export const SCHEMA_FILE = 'client/schema.d.ts';

const SCHEMA_HEADER = `/**
 * GENERATED FILE: do not edit. \`npm run client:generate\` (scripts/client-generate.ts) writes
 * it with openapi-typescript from client/openapi.json, the OpenAPI document built from the
 * route schemas; \`npm run client:check\` fails while it is out of date.
 */

`;

/**
 * Route registration reads only the config and the logger, and keeps a Redis connection to
 * duplicate (the SSE hub's subscriber) and to define its rate-limit script on: neither
 * connects. The Redis here connects only on a first command, and PostgreSQL and Temporal are
 * stand-ins that throw on any use, so a plugin that starts to need a service while being
 * registered fails the generation loudly instead of hanging or reaching a real server.
 */
function offlineDeps(): { deps: ApiDeps; redis: Redis } {
  // An explicit source, not process.env: the document must not depend on the environment.
  // Production's, so the client has the routes a deployment serves (no development-only
  // ones such as POST /dev/faucet); the URLs and secrets it requires are never used.
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
    REDIS_URL: 'redis://127.0.0.1:1',
    JWT_SECRET: 'client-generate-never-signs-anything',
    API_KEY_PEPPER: 'client-generate-never-hashes-a-key',
  });
  const logger = createLogger('silent', 'client-generate');
  const redis = new Redis({
    host: '127.0.0.1',
    port: 1,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  const unusable = <T>(name: string): T =>
    new Proxy(
      {},
      {
        get(_target, property) {
          // Not a thenable: `await` on it must not count as a use.
          if (property === 'then') return undefined;
          throw new Error(
            `client:generate builds the app without services, but registering the routes used ` +
              `deps.${name}.${String(property)}; keep service calls out of route registration`,
          );
        },
      },
    ) as T;
  return {
    deps: {
      config,
      logger,
      orm: unusable('orm'),
      db: unusable('db'),
      temporal: unusable('temporal'),
      redis,
    },
    redis,
  };
}

/** The OpenAPI document of the app, as `GET /openapi.json` serves it, as plain JSON data. */
export async function buildDocument(): Promise<Record<string, unknown>> {
  const { deps, redis } = offlineDeps();
  let connected = false;
  redis.once('connecting', () => (connected = true));
  const app = buildApp(deps);
  try {
    await app.ready();
    const document = JSON.parse(JSON.stringify(app.swagger())) as Record<string, unknown>;
    if (connected) throw new Error('client:generate: registering the routes used Redis');
    return document;
  } finally {
    await app.close();
    redis.disconnect();
  }
}

function sortedKeys<T>(map: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Route registration order decides the order of `paths` and of component maps in the served
 * document; the committed one sorts them by name instead, so moving a route between plugins
 * changes no byte. Everything inside an operation or a schema keeps its order (properties
 * appear as declared).
 */
export function stableDocument(document: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...document };
  if (document.paths) result.paths = sortedKeys(document.paths as Record<string, unknown>);
  if (document.components) {
    const components = document.components as Record<string, Record<string, unknown>>;
    result.components = Object.fromEntries(
      Object.entries(components).map(([kind, map]) => [kind, sortedKeys(map)]),
    );
  }
  return result;
}

/** Both generated files, keyed by their path relative to the repository. */
export async function renderClientFiles(
  document: Record<string, unknown>,
): Promise<Record<string, string>> {
  const stable = stableDocument(document);
  const ast = await openapiTS(structuredClone(stable) as unknown as OpenAPI3, {
    silent: true,
  });
  return {
    [DOCUMENT_FILE]: `${JSON.stringify(stable, null, 2)}\n`,
    [SCHEMA_FILE]: SCHEMA_HEADER + astToString(ast),
  };
}

/** Paths of the committed files that differ from `files` (or are missing). */
export async function outdatedFiles(files: Record<string, string>): Promise<string[]> {
  const outdated: string[] = [];
  for (const [path, content] of Object.entries(files)) {
    const committed = await readFile(join(ROOT, path), 'utf8').catch(() => undefined);
    if (committed !== content) outdated.push(path);
  }
  return outdated;
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const files = await renderClientFiles(await buildDocument());
  if (check) {
    const outdated = await outdatedFiles(files);
    if (outdated.length > 0) {
      console.error(
        `The generated client is out of date: ${outdated.join(' and ')} ` +
          `${outdated.length === 1 ? 'differs' : 'differ'} from what the route schemas ` +
          `give now. Run npm run client:generate and commit the result.`,
      );
      process.exit(1);
    }
    console.log(`${Object.keys(files).join(' and ')} are up to date.`);
    return;
  }
  for (const [path, content] of Object.entries(files)) {
    await writeFile(join(ROOT, path), content);
    console.log(`wrote ${path}`);
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  });
}
