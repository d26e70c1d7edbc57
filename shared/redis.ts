import { Redis, type Command, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

type WriteableStream = Parameters<Redis['sendCommand']>[1];

/**
 * A connection whose command timeout counts only Redis's silence. ioredis's own
 * `commandTimeout` rejects when its timer fires, and timers run before the event loop reads
 * sockets: when this process held its loop past the deadline (a large document rendered, a
 * long GC), a reply that arrived meanwhile is still unread and the command "times out" although
 * Redis answered in microseconds: a false 503 (measured: a 400 ms stall fails a 200 ms command
 * whose answer was waiting). Here the due timer first lets the loop read what has arrived
 * (`setImmediate` runs after the poll phase), and only a command still unanswered fails.
 */
class ReadFirstTimeoutRedis extends Redis {
  private readonly timeoutMs: number;

  constructor(url: string, options: RedisOptions & { commandTimeout: number }) {
    const { commandTimeout, ...rest } = options;
    super(url, rest);
    this.timeoutMs = commandTimeout;
  }

  override sendCommand(command: Command, stream?: WriteableStream): unknown {
    const expire = () => {
      if (!command.isResolved) command.reject(new Error('Command timed out'));
    };
    const timer = setTimeout(() => setImmediate(expire), this.timeoutMs);
    const clear = () => clearTimeout(timer);
    command.promise.then(clear, clear);
    return super.sendCommand(command, stream);
  }
}

/**
 * One factory for every Redis connection. Callers open separate connections for commands,
 * subscriptions (`createSubscriber`) and blocking reads (a subscribed connection cannot run
 * commands).
 *
 * Every command gets `commandTimeoutMs` to be answered (`ReadFirstTimeoutRedis`), so a Redis
 * that hangs (rather than closes the connection) costs its callers a bounded wait
 * (docs/decisions.md, "Redis when slow or down"). A command that timed out stays in ioredis's
 * queue: its late reply is matched to it and dropped, so the replies of later commands stay
 * aligned, and Redis may still run it.
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
  const redis = new ReadFirstTimeoutRedis(url, {
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
 * and retry strategy), without the command timeout (a duplicate is a plain ioredis client). ioredis subscribes again by itself after
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
