import type { MikroORM } from '@mikro-orm/postgresql';
import { sqlOf, statement } from '../../shared/db/sql';
import { releaseExpiredHolds } from '../../shared/flow/ledger';

const PURGE_BATCH = 1000;

/** Up to `batch` Idempotency-Key records past their retention. */
const purgeExpiredKeys = statement<Record<string, never>, [batch: number]>(
  'maintenance.purge_idempotency_keys',
  `delete from idempotency_keys where id in (
     select id from idempotency_keys where expires_at <= now() limit $1
   )`,
);

/** Housekeeping activities. Each call forks its own EntityManager. */
export function createMaintenanceActivities(deps: { orm: MikroORM }) {
  return {
    /**
     * Deletes Idempotency-Key records past their 24 h retention, in batches so one call never
     * holds a long lock. Idempotent: running it twice deletes nothing more.
     */
    async purgeExpiredIdempotencyKeys(): Promise<{ deleted: number }> {
      const sql = sqlOf(deps.orm.em.fork());
      let deleted = 0;
      for (;;) {
        const purged = await sql.run(purgeExpiredKeys, [PURGE_BATCH]);
        deleted += purged;
        if (purged < PURGE_BATCH) return { deleted };
      }
    },

    /**
     * Gives back FLOW held for agent calls that never settled (the API process died mid-call).
     * Only holds past their expiry are touched, so a repeat releases nothing more.
     */
    async releaseExpiredFlowHolds(): Promise<{ released: number }> {
      const released = await releaseExpiredHolds(deps.orm.em.fork(), new Date());
      return { released };
    },
  };
}

export type MaintenanceActivities = ReturnType<typeof createMaintenanceActivities>;
