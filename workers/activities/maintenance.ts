import type { MikroORM } from '@mikro-orm/postgresql';
import { releaseExpiredHolds } from '../../shared/flow/ledger';

const PURGE_BATCH = 1000;

/** Housekeeping activities. Each call forks its own EntityManager. */
export function createMaintenanceActivities(deps: { orm: MikroORM }) {
  return {
    /**
     * Deletes Idempotency-Key records past their 24 h retention, in batches so one call never
     * holds a long lock. Idempotent: running it twice deletes nothing more.
     */
    async purgeExpiredIdempotencyKeys(): Promise<{ deleted: number }> {
      const em = deps.orm.em.fork();
      let deleted = 0;
      for (;;) {
        const rows = await em.execute<{ id: string }[]>(
          `delete from idempotency_keys where id in (
             select id from idempotency_keys where expires_at <= now() limit ${PURGE_BATCH}
           ) returning id`,
        );
        deleted += rows.length;
        if (rows.length < PURGE_BATCH) return { deleted };
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
