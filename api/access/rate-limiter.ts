import type { Redis, Result } from 'ioredis';

/**
 * Fixed windows (one minute for requests, docs/spec/contract.md §5; an hour for uploads, §14)
 * aligned to UTC, counted in Redis so
 * that any number of API instances share one exact count per bucket and window.
 *
 * One Lua script reads the clock of Redis itself (so instances with skewed clocks still
 * agree on the window), increments the window's counter and returns the count and the
 * window's end. A request is accepted when its count is at most the limit, so the
 * accepted requests of a window never exceed the limit however many race. The window key
 * is derived inside the script from KEYS[1], which is fine on a single Redis (not Cluster).
 * Arithmetic stays in seconds: the development stand-in runs Lua with 32-bit integers.
 */
const CONSUME_SCRIPT = `
local now = redis.call('TIME')
local now_s = tonumber(now[1])
local window = tonumber(ARGV[1])
local window_end = (math.floor(now_s / window) + 1) * window
local key = KEYS[1] .. ':' .. window_end
local count = redis.call('INCR', key)
if count == 1 then redis.call('EXPIREAT', key, window_end + 5) end
local ms_left = (window_end - now_s) * 1000 - math.floor(tonumber(now[2]) / 1000)
return {count, window_end, ms_left}
`;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Start of the next window. */
  resetAt: Date;
  /** Whole seconds until the reset, at least 1 (for `Retry-After`). */
  retryAfterSeconds: number;
}

declare module 'ioredis' {
  interface RedisCommander<Context> {
    consumeRate(key: string, windowSeconds: number): Result<[number, number, number], Context>;
  }
}

export class RateLimiter {
  constructor(private readonly redis: Redis) {
    // Idempotent: ioredis keeps one definition per name (EVALSHA, loading on first use).
    redis.defineCommand('consumeRate', { numberOfKeys: 1, lua: CONSUME_SCRIPT });
  }

  /**
   * Counts one request against `bucket` (e.g. `user:42`) with `limit` per window of
   * `windowSeconds` (a minute unless said; windows align to multiples of it in UTC).
   */
  async consume(bucket: string, limit: number, windowSeconds = 60): Promise<RateDecision> {
    const [count, windowEnd, msLeft] = await this.redis.consumeRate(
      `ratelimit:${bucket}`,
      windowSeconds,
    );
    return {
      allowed: count <= limit,
      limit,
      remaining: Math.max(0, limit - count),
      resetAt: new Date(windowEnd * 1000),
      retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)),
    };
  }
}
