import type { Redis } from 'ioredis';
import type { Logger } from '../../shared/logger';

/**
 * A short-lived, in-process cache of credential records (API keys by hash, sessions by id),
 * so that authenticating a request costs no database round trip. PostgreSQL stays the truth:
 * every change to a key or session calls `invalidate`, which drops the entry here and, over
 * Redis pub/sub, on every other API instance. If the subscription drops, messages may have
 * been missed, so the whole cache is cleared when it comes back; `ttlMs` bounds staleness
 * even then, and also when a publish fails (docs/decisions.md, "Redis when slow or down").
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
    private readonly logger: Logger,
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

  /**
   * Drops the entry here at once and tells every other instance to drop it too. Called once
   * the change is committed, so a failed publish (Redis down, or silent past the command
   * timeout) does not fail the change: other instances then hold the old record until their
   * subscription comes back (which clears their cache) or `ttlMs` passes. A publish that timed
   * out is still on its way and lands when Redis answers again.
   */
  async invalidate(id: string): Promise<void> {
    this.drop(id);
    try {
      await this.publisher.publish(this.channel, `${this.name}:${id}`);
    } catch (err) {
      this.logger.warn(
        { err: { message: (err as Error).message }, cache: this.name },
        'auth cache: invalidation not published; other instances keep the entry until it expires',
      );
    }
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
 * Subscribes a dedicated connection (`createSubscriber`, no command timeout) to the
 * invalidation channel and routes each message to the cache it names (`<cache>:<id>`).
 */
export function subscribeInvalidations(
  subscriber: Redis,
  channel: string,
  list: AuthCache<unknown>[],
  logger: Logger,
): void {
  const caches = new Map(list.map((cache) => [cache.name, cache]));
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    const split = message.indexOf(':');
    caches.get(message.slice(0, split))?.drop(message.slice(split + 1));
  });
  // On every (re)connect, not only through ioredis's own resubscription: a SUBSCRIBE sent
  // before the first connect is failed (and never sent) once ioredis gives up on its offline
  // queue, so an API that booted while Redis was away would never hear of a change. No
  // request waits for it; until Redis confirms it (however long a stalled Redis takes) the
  // cache's TTL bounds staleness, and on confirmation the cache is cleared, since anything
  // cached before may have missed a message.
  const subscribe = () => {
    subscriber.subscribe(channel).then(
      () => {
        for (const cache of list) cache.clear();
        logger.info('auth cache: invalidation channel subscribed, cache cleared');
      },
      (err: Error) => {
        logger.warn({ err: { message: err.message } }, 'auth cache: subscribe failed');
      },
    );
  };
  subscriber.on('ready', subscribe);
  if (subscriber.status === 'ready') subscribe();
}
