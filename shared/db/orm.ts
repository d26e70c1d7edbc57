import { MikroORM, defineConfig, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './entities';
import { migrationsList } from './migrations';

export { MikroORM } from '@mikro-orm/postgresql';
export type { EntityManager } from '@mikro-orm/postgresql';

export function ormOptions(databaseUrl: string, poolMax: number): Options {
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
    },
    pool: { min: 0, max: poolMax },
    forceUtcTimezone: true,
    // Every request and activity must fork its own EntityManager.
    allowGlobalContext: false,
    discovery: { warnWhenNoEntities: true },
    debug: false,
  });
}

export async function initOrm(databaseUrl: string, poolMax: number): Promise<MikroORM> {
  return MikroORM.init(ormOptions(databaseUrl, poolMax));
}

/** Applies every committed migration that has not run yet; returns their names. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((migration) => migration.name);
}
