import { randomUUID } from 'node:crypto';
import type { MikroORM } from '../../shared/db/orm';
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

export class UsageRecorder {
  private buffer: (UsageEntry & { id: string })[] = [];
  private flushing: Promise<void> = Promise.resolve();
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
    this.buffer.push({ id: randomUUID(), ...entry });
    if (this.buffer.length > this.maxBuffered) {
      const dropped = this.buffer.splice(0, this.buffer.length - this.maxBuffered);
      this.logger.error({ dropped: dropped.length }, 'usage buffer full: oldest rows dropped');
    }
    if (this.buffer.length >= this.batchSize) void this.flush();
  }

  /** Writes everything buffered so far; flushes never overlap. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeAll());
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async writeAll(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, this.batchSize);
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
    const rows = batch.map(
      (entry) =>
        [
          entry.id,
          entry.apiKeyId,
          entry.method,
          entry.route.slice(0, 512),
          entry.status,
          Math.round(entry.latencyMs),
          entry.flowCost.toString(),
          entry.model?.slice(0, 128) ?? null,
          entry.inputTokens,
          entry.outputTokens,
          entry.createdAt,
        ] as const,
    );
    const lastUsed = new Map<string, Date>();
    for (const entry of batch) {
      const seen = lastUsed.get(entry.apiKeyId);
      if (!seen || seen < entry.createdAt) lastUsed.set(entry.apiKeyId, entry.createdAt);
    }
    await this.orm.em.fork().transactional(async (em) => {
      await em.execute(
        `insert into api_key_usage (id, api_key_id, method, route, status, latency_ms,
           flow_cost, model, input_tokens, output_tokens, created_at)
         values ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
         on conflict (id) do nothing`,
        rows.flat(),
      );
      const keys = [...lastUsed.entries()];
      await em.execute(
        `update api_keys set last_used_at = greatest(coalesce(last_used_at, v.at), v.at)
         from (values ${keys.map(() => '(?::uuid, ?::timestamptz)').join(', ')}) as v(id, at)
         where api_keys.id = v.id`,
        keys.flat(),
      );
    });
  }
}
