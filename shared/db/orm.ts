import { MikroORM, defineConfig, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from '../logger';
import { entities } from './entities';
import { migrationsList } from './migrations';

export { MikroORM } from '@mikro-orm/postgresql';
export type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The ORM's settings. With `logger`, what Knex reports about its connections (a connection
 * the server dropped, say) goes to it as JSON, not to the console.
 */
export function ormOptions(databaseUrl: string, poolMax: number, logger?: Logger): Options {
  const knexLog = logger?.child({ component: 'knex' });
  return defineConfig({
    clientUrl: databaseUrl,
    entities,
    extensions: [Migrator],
    migrations: {
      migrationsList,
      path: 'shared/db/migrations',
      pathTs: 'shared/db/migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      // The migrator would print ANSI-coloured `[migrator]` lines to stdout; `migrate` logs
      // each migration through the process's pino logger instead (one JSON object per line).
      silent: true,
    },
    pool: { min: 0, max: poolMax },
    // During an outage a request answers 503 within seconds (shared/db/sql.ts), not after
    // Knex's default minute: a connection attempt gives up after 5 s, and a request waits at
    // most 10 s for a connection of the pool (a refused attempt fails it at once).
    driverOptions: {
      acquireConnectionTimeout: 10_000,
      connection: { connectionTimeoutMillis: 5_000 },
      ...(knexLog && {
        log: {
          warn: (message: unknown) => knexLog.warn({ detail: String(message) }, 'knex warning'),
          error: (message: unknown) => knexLog.warn({ detail: String(message) }, 'knex error'),
          deprecate: (message: unknown) => knexLog.warn({ detail: String(message) }, 'knex'),
          debug: () => undefined,
        },
      }),
    },
    forceUtcTimezone: true,
    // Every request and activity must fork its own EntityManager.
    allowGlobalContext: false,
    discovery: { warnWhenNoEntities: true },
    debug: false,
    colors: false,
  });
}

export async function initOrm(
  databaseUrl: string,
  poolMax: number,
  logger?: Logger,
): Promise<MikroORM> {
  return MikroORM.init(ormOptions(databaseUrl, poolMax, logger));
}

/**
 * Applies every committed migration that has not run yet; returns their names. With a
 * logger, each migration is logged as it starts and once applied (JSON, like every log line).
 */
export async function migrate(orm: MikroORM, logger?: Logger): Promise<string[]> {
  const migrator = orm.getMigrator();
  const log = logger?.child({ component: 'migrator' });
  const migrating = ({ name }: { name: string }) => log?.info({ migration: name }, 'migrating');
  const migrated = ({ name }: { name: string }) => log?.info({ migration: name }, 'migrated');
  migrator.on('migrating', migrating).on('migrated', migrated);
  try {
    const applied = await migrator.up();
    return applied.map((migration) => migration.name);
  } finally {
    migrator.off('migrating', migrating).off('migrated', migrated);
  }
}
