import type { MikroORM } from '@mikro-orm/postgresql';
import { createMaintenanceActivities } from './maintenance';

export interface ActivityDeps {
  orm: MikroORM;
}

/** Every activity the worker registers, built from real dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createMaintenanceActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
