import {
  AppError,
  DependencyUnavailableError,
  REDIS_RETRY_AFTER_SECONDS,
} from '../../shared/errors';
import type { Principal } from './principal';
import type { RateDecision, RateLimiter } from './rate-limiter';

/** Requests per minute of each kind of bucket (`RATE_LIMIT_*_RPM`, shared/config.ts). */
export interface RateLimits {
  anonymous: number;
  user: number;
  internal: number;
}

export interface Bucket {
  /** The counter's name in Redis, after `ratelimit:` (e.g. `user:42`). */
  name: string;
  limit: number;
}

/**
 * The rate-limit bucket a request counts against (docs/decisions.md, "Rate limits"): an
 * anonymous caller by its IP, an internal or bot token by its label (each token its own
 * bucket, apart from its IP), a user by their id. An API key with its own `rate_limit_rpm`
 * counts against its own bucket only; a key with 0 rpm shares its owner's. Routes with
 * `auth: 'none'` (health, docs) are never counted: the plugin does not ask.
 */
export function bucketOf(principal: Principal, ip: string, limits: RateLimits): Bucket {
  switch (principal.kind) {
    case 'anonymous':
      return { name: `ip:${ip}`, limit: limits.anonymous };
    case 'internal':
      return { name: `internal:${principal.label}`, limit: limits.internal };
    case 'bot':
      return { name: `bot:${principal.label}`, limit: limits.internal };
    case 'user': {
      const key = principal.actor.apiKey;
      if (key && key.rateLimitRpm > 0) return { name: `key:${key.id}`, limit: key.rateLimitRpm };
      return { name: `user:${principal.actor.userId}`, limit: limits.user };
    }
  }
}

/** The `X-RateLimit-*` headers every rate-limited response carries, a 429 too. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': decision.resetAt.toISOString(),
  };
}

/** The 429 of a request over its bucket's limit (with `Retry-After`), or null. */
export function rateLimitRefusal(decision: RateDecision): AppError | null {
  if (decision.allowed) return null;
  return new AppError(
    'rate_limited',
    `Rate limit of ${decision.limit} requests per minute exceeded; ` +
      `retry after ${decision.retryAfterSeconds} s`,
    { ...rateLimitHeaders(decision), 'retry-after': String(decision.retryAfterSeconds) },
  );
}

/** A per-user allowance of one route, beside the request limits: uploads an hour, fills a day. */
export interface Quota {
  /** The Redis bucket, e.g. `media:user:42`. */
  bucket: string;
  limit: number;
  windowSeconds: 60 | 3600 | 86400;
  /** What the 429 calls it: `Upload limit`. */
  what: string;
}

const WINDOW_NAMES = { 60: 'a minute', 3600: 'an hour', 86400: 'a day' } as const;

/**
 * Counts one use of `quota`: 429 `rate_limited` with `Retry-After` (and the `X-RateLimit-*`
 * headers) when it is used up, 503 when Redis cannot count.
 */
export async function takeQuota(limiter: RateLimiter, quota: Quota): Promise<void> {
  const decision = await limiter
    .consume(quota.bucket, quota.limit, quota.windowSeconds)
    .catch((err: unknown) => {
      throw new DependencyUnavailableError(
        'redis',
        `${quota.what}s are unavailable; retry shortly`,
        REDIS_RETRY_AFTER_SECONDS,
        err,
      );
    });
  if (decision.allowed) return;
  throw new AppError(
    'rate_limited',
    `${quota.what} of ${decision.limit} ${WINDOW_NAMES[quota.windowSeconds]} reached; ` +
      `retry after ${decision.retryAfterSeconds} s`,
    { ...rateLimitHeaders(decision), 'retry-after': String(decision.retryAfterSeconds) },
  );
}
