import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * One factory for every Redis connection. Callers open separate connections for commands,
 * subscriptions (`createSubscriber`) and blocking reads (a subscribed connection cannot run
 * commands).
 *
 * Every command gets `commandTimeoutMs` to be answered, so a Redis that hangs (rather than
 * closes the connection) costs its callers a bounded wait (docs/decisions.md, "Redis when slow
 * or down"). A command that timed out stays in ioredis's queue: its late reply is matched to
 * it and dropped, so the replies of later commands stay aligned, and Redis may still run it.
 * With auto-pipelining, a command issued while a batch is in flight waits for that batch, so
 * its caller waits at most twice the timeout.
 */
export function createRedis(
  url: string,
  options: {
    keyPrefix: string;
    name: string;
    logger: Logger;
    commandTimeoutMs: number;
    autoPipelining?: boolean;
  },
): Redis {
  const redis = new Redis(url, {
    keyPrefix: options.keyPrefix,
    connectionName: options.name,
    commandTimeout: options.commandTimeoutMs,
    // Commands issued in the same tick share one socket write: under load this halves the
    // cost of the per-request rate-limit call.
    enableAutoPipelining: options.autoPipelining ?? false,
    lazyConnect: false,
    maxRetriesPerRequest: 2,
    // Back off up to 2 s between reconnects; ioredis keeps retrying for as long as we live.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
  redis.on('error', (err: Error) => {
    options.logger.warn({ err: { message: err.message }, redis: options.name }, 'redis error');
  });
  return redis;
}

/**
 * A connection for SUBSCRIBE beside the commands connection `commands` (same server, prefix
 * and retry strategy), without the command timeout. ioredis subscribes again by itself after
 * a reconnect and leaves that promise unhandled: with a timeout, a Redis stalling at that
 * moment would reject it, and an unhandled rejection ends a Node process. An idle subscribed
 * connection has no command pending, so it never timed out anyway; the SUBSCRIBEs a caller
 * waits for are bounded with `subscribeWithin`.
 */
export function createSubscriber(commands: Redis, name: string, logger: Logger): Redis {
  const subscriber = commands.duplicate({
    connectionName: name,
    enableAutoPipelining: false,
    commandTimeout: undefined,
  });
  subscriber.on('error', (err: Error) => {
    logger.warn({ err: { message: err.message }, redis: name }, 'redis error');
  });
  return subscriber;
}

/**
 * Subscribes `subscriber` to `channel`, failing after `timeoutMs` if Redis has not confirmed
 * it. The SUBSCRIBE itself stays queued and may still take effect later (a caller that gives
 * up unsubscribes, and the UNSUBSCRIBE is queued behind it on the same connection).
 */
export async function subscribeWithin(
  subscriber: Redis,
  channel: string,
  timeoutMs: number,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`SUBSCRIBE ${channel}: not confirmed within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([subscriber.subscribe(channel), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
