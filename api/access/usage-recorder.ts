import { v7 as uuidv7 } from 'uuid';
import type { MikroORM } from '../../shared/db/orm';
import { sqlOf, statement } from '../../shared/db/sql';
import type { Logger } from '../../shared/logger';

/**
 * Per-key usage logging (spec Authentication rule 5): requests are buffered in memory and
 * written in batches, once a second or sooner when the buffer fills, so a request never
 * waits for its usage row and a crash loses at most the last second. A failed write keeps
 * the rows for the next attempt, up to a bound (then the oldest are dropped, loudly).
 */

export interface UsageEntry {
  apiKeyId: string;
  method: string;
  route: string;
  status: number;
  latencyMs: number;
  flowCost: bigint;
  model: string | null;
  inputTokens: number;
  outputTokens: number;
  createdAt: Date;
}

export interface UsageRecorderOptions {
  flushIntervalMs?: number;
  batchSize?: number;
  maxBuffered?: number;
}

/**
 * A batch of usage rows: one array parameter per column, bound (never inlined into the text),
 * so a batch of any size is one short statement PostgreSQL parses once per connection.
 */
const insertUsage = statement<
  Record<string, never>,
  [
    ids: string[],
    apiKeyIds: string[],
    methods: string[],
    routes: string[],
    statuses: number[],
    latenciesMs: number[],
    flowCosts: string[],
    models: (string | null)[],
    inputTokens: number[],
    outputTokens: number[],
    createdAt: string[],
  ]
>(
  'access.usage_insert',
  `insert into api_key_usage (id, api_key_id, method, route, status, latency_ms,
     flow_cost, model, input_tokens, output_tokens, created_at)
   select * from unnest($1::uuid[], $2::uuid[], $3::varchar[], $4::varchar[], $5::smallint[],
     $6::int[], $7::bigint[], $8::varchar[], $9::int[], $10::int[], $11::timestamptz[])
   on conflict (id) do nothing`,
);

/** Each key's latest use in the batch; a later one already written stays. */
const touchKeys = statement<Record<string, never>, [keyIds: string[], lastUsedAt: string[]]>(
  'access.usage_touch_keys',
  `update api_keys set last_used_at = greatest(coalesce(last_used_at, v.at), v.at)
     from unnest($1::uuid[], $2::timestamptz[]) as v(id, at)
    where api_keys.id = v.id`,
);

export class UsageRecorder {
  private buffer: (UsageEntry & { id: string })[] = [];
  private flushing: Promise<void> = Promise.resolve();
  /** A flush waiting for the running one: it will write everything buffered when it starts. */
  private queued: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly batchSize: number;
  private readonly maxBuffered: number;

  constructor(
    private readonly orm: MikroORM,
    private readonly logger: Logger,
    options: UsageRecorderOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.maxBuffered = options.maxBuffered ?? 50_000;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  record(entry: UsageEntry): void {
    // UUIDv7 ids are monotonic within this process, so "recent" (ordered by created_at, then
    // id) lists two requests answered in the same millisecond in the order they were answered.
    this.buffer.push({ id: uuidv7(), ...entry });
    if (this.buffer.length > this.maxBuffered) {
      const dropped = this.buffer.splice(0, this.buffer.length - this.maxBuffered);
      this.logger.error({ dropped: dropped.length }, 'usage buffer full: oldest rows dropped');
    }
    if (this.buffer.length >= this.batchSize) void this.flush();
  }

  /**
   * Writes everything buffered so far; flushes never overlap. While one is running, every
   * caller shares the single flush queued behind it (under load each request past the batch
   * size used to queue its own, and a second of traffic became dozens of small transactions).
   */
  flush(): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.flushing.then(() => {
      this.queued = null;
      return this.writeAll();
    });
    this.queued = next;
    this.flushing = next;
    return next;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /**
   * Writes the rows buffered when the flush starts, not those that arrive while it writes:
   * those wait for the next tick or a full batch. Draining until empty made a steady stream
   * of requests a stream of back-to-back transactions of a few rows each.
   */
  private async writeAll(): Promise<void> {
    let left = this.buffer.length;
    while (left > 0 && this.buffer.length > 0) {
      const batch = this.buffer.splice(0, Math.min(this.batchSize, left));
      left -= batch.length;
      try {
        await this.write(batch);
      } catch (err) {
        this.buffer.unshift(...batch);
        this.logger.warn({ err, buffered: this.buffer.length }, 'usage write failed; will retry');
        return;
      }
    }
  }

  private async write(batch: (UsageEntry & { id: string })[]): Promise<void> {
    const lastUsed = new Map<string, Date>();
    for (const entry of batch) {
      const seen = lastUsed.get(entry.apiKeyId);
      if (!seen || seen < entry.createdAt) lastUsed.set(entry.apiKeyId, entry.createdAt);
    }
    const keyIds = [...lastUsed.keys()];
    const lastUsedAt = [...lastUsed.values()].map((at) => at.toISOString());
    // One transaction per batch: the rows and the keys' last use commit together.
    await this.orm.em.fork().transactional(async (tx) => {
      const sql = sqlOf(tx);
      await sql.run(insertUsage, [
        batch.map((entry) => entry.id),
        batch.map((entry) => entry.apiKeyId),
        batch.map((entry) => entry.method),
        batch.map((entry) => entry.route.slice(0, 512)),
        batch.map((entry) => entry.status),
        batch.map((entry) => Math.round(entry.latencyMs)),
        batch.map((entry) => entry.flowCost.toString()),
        batch.map((entry) => (entry.model ? entry.model.slice(0, 128) : null)),
        batch.map((entry) => entry.inputTokens),
        batch.map((entry) => entry.outputTokens),
        batch.map((entry) => entry.createdAt.toISOString()),
      ]);
      await sql.run(touchKeys, [keyIds, lastUsedAt]);
    });
  }
}
