import { statement, type Sql } from '../../shared/db/sql';

/**
 * The database figures of a scrape (docs/metrics.md), one small statement each on the read
 * pool. A stalled database must not hold the scrape past Prometheus' own timeout (10 s by
 * default): each read gives up after READ_TIMEOUT_MS and its series is left out.
 */

const READ_TIMEOUT_MS = 2_000;

/** Seconds since the oldest undispatched outbox row was written (0: none). */
interface OutboxLagRow {
  seconds: number;
}

/**
 * The oldest undispatched outbox row: `min(created_at)` over the partial index
 * `outbox_events_pending_index` (created_at where dispatched_at is null), one index entry.
 */
const outboxLag = statement<OutboxLagRow>(
  'metrics.outbox_lag',
  `select coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as seconds
     from outbox_events where dispatched_at is null`,
);

/** How long ago an indexed chain's last committed block was made. */
interface BlockAgeRow {
  chainId: number;
  seconds: number;
}

/** One row per indexed chain: `head_time` is the timestamp of the last committed block. */
const indexedBlockAges = statement<BlockAgeRow>(
  'metrics.chain_block_ages',
  `select chain_id as "chainId", extract(epoch from now() - head_time)::float8 as seconds
     from chain_cursors where head_time is not null`,
);

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no answer within ${READ_TIMEOUT_MS} ms`)),
      READ_TIMEOUT_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function scrapeReads(db: Sql) {
  return {
    async outboxLagSeconds(): Promise<number> {
      const row = await withTimeout(db.row(outboxLag, []), 'outbox lag');
      // A row written a moment after `now()` of this statement's transaction.
      return Math.max(0, row?.seconds ?? 0);
    },
    async indexedBlockAges(): Promise<{ chainId: number; ageSeconds: number }[]> {
      const rows = await withTimeout(db.rows(indexedBlockAges, []), 'chain block ages');
      return rows.map((row) => ({ chainId: row.chainId, ageSeconds: Math.max(0, row.seconds) }));
    },
  };
}
