import type { MikroORM } from '@mikro-orm/postgresql';
import { sqlOf, statement } from '../../shared/db/sql';

/** Rows recomputed per transaction: each batch holds its row locks for a short moment only. */
const REFRESH_BATCH = 500;
/** Batches per activity run; whatever is left waits for the next refresh. */
const MAX_BATCHES = 40;

/** How many stale rows one batch recomputed. */
interface RefreshedRow {
  refreshed: number;
}

/** One batch of stale `agent_market_stats` rows, recomputed in its own transaction. */
const refreshStale = statement<RefreshedRow, [limit: number]>(
  'market_stats.refresh_stale',
  'select agent_market_refresh_stale($1::int) as refreshed',
);

/** Marketplace read-model activities. Each call forks its own EntityManager. */
export function createMarketplaceActivities(deps: { orm: MikroORM }) {
  return {
    /**
     * Recomputes the `agent_market_stats` rows whose figures expired with time (a day window
     * moved, or a call left the median's window), oldest expiry first, in batches of their own
     * transactions (`agent_market_refresh_stale`). Idempotent: a repeat finds nothing expired.
     */
    async refreshMarketplaceStats(): Promise<{ refreshed: number }> {
      const sql = sqlOf(deps.orm.em.fork());
      let refreshed = 0;
      for (let batch = 0; batch < MAX_BATCHES; batch++) {
        const row = await sql.row(refreshStale, [REFRESH_BATCH]);
        const count = row?.refreshed ?? 0;
        refreshed += count;
        if (count < REFRESH_BATCH) break;
      }
      return { refreshed };
    },
  };
}

export type MarketplaceActivities = ReturnType<typeof createMarketplaceActivities>;
