import type { Redis } from 'ioredis';
import type { Logger } from '../../shared/logger';

/**
 * A short-lived, in-process cache of credential records (API keys by hash, sessions by id),
 * so that authenticating a request costs no database round trip. PostgreSQL stays the truth:
 * every change to a key or session calls `invalidate`, which drops the entry here and, over
 * Redis pub/sub, on every other API instance. If the subscription drops, messages may have
 * been missed, so the whole cache is cleared when it comes back; `ttlMs` bounds staleness
 * even then.
 */
export class AuthCache<Value> {
  private readonly entries = new Map<string, { value: Value; expiresAt: number }>();
  /** Bumped by every invalidation, so a read that raced one is not cached (see `set`). */
  private generation = 0;

  constructor(
    /** Names this cache inside invalidation messages (`<name>:<id>`). */
    readonly name: string,
    private readonly publisher: Redis,
    private readonly channel: string,
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  /** Take before reading the database; hand to `set` with what was read. */
  snapshot(): number {
    return this.generation;
  }

  get(id: string): Value | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.value;
  }

  /**
   * Caches what a read started at `snapshot` returned, unless an invalidation arrived
   * meanwhile: the read may then predate the change (e.g. a revocation) and is not kept.
   */
  set(id: string, value: Value, snapshot: number): void {
    if (snapshot !== this.generation) return;
    if (this.entries.size >= this.maxEntries) {
      // Map iteration is insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(id, { value, expiresAt: Date.now() + this.ttlMs });
  }

  /** Drops the entry here at once and tells every other instance to drop it too. */
  async invalidate(id: string): Promise<void> {
    this.drop(id);
    await this.publisher.publish(this.channel, `${this.name}:${id}`);
  }

  /** Applies an invalidation published by any instance (this one included). */
  drop(id: string): void {
    this.generation++;
    this.entries.delete(id);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

/**
 * Subscribes a dedicated connection to the invalidation channel and routes each message to
 * the cache it names (`<cache>:<id>`).
 */
export function subscribeInvalidations(
  subscriber: Redis,
  channel: string,
  list: AuthCache<unknown>[],
  logger: Logger,
): void {
  const caches = new Map(list.map((cache) => [cache.name, cache]));
  const clearAll = () => list.forEach((cache) => cache.clear());
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    const split = message.indexOf(':');
    caches.get(message.slice(0, split))?.drop(message.slice(split + 1));
  });
  // After a reconnect ioredis re-subscribes; anything published meanwhile was missed.
  subscriber.on('ready', () => {
    logger.info('auth cache: invalidation channel (re)connected, cache cleared');
    clearAll();
  });
  // Not awaited: the API must boot (and say "not ready") while Redis is away; ioredis
  // subscribes once it connects, and the 'ready' handler above clears what went stale.
  subscriber.subscribe(channel).catch((err: Error) => {
    logger.warn({ err: { message: err.message } }, 'auth cache: subscribe failed');
  });
}
