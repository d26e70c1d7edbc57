import type { Redis } from 'ioredis';
import { z } from 'zod';
import { statement, type Sql } from '../../shared/db/sql';
import type { Logger } from '../../shared/logger';
import { readProjectEvents } from '../../shared/projects/event-log';
import {
  PROJECT_EVENT_TYPES,
  projectEventData,
  projectEventsChannel,
  type ProjectEventType,
  type ProjectStreamEvent,
} from '../../shared/projects/events';
import {
  AppError,
  DependencyUnavailableError,
  REDIS_RETRY_AFTER_SECONDS,
} from '../../shared/errors';
import { createSubscriber, subscribeWithin } from '../../shared/redis';
import type { ServerResponse } from 'node:http';
import { SseConnection, type ConnectionOptions } from './connection';
import { ProjectFeed, type FeedSource } from './project-feed';

/**
 * The project streams of one API process. One Redis connection subscribes for the whole
 * process, to one channel per project with at least one open stream (reference-counted by
 * the feed's connections), and each message is fanned out in process. One timer per process
 * writes the heartbeat comment to every stream and checks, with one query for all watched
 * projects, whether a log is ahead of what was fanned out (pub/sub can lose the last event).
 */

/** A project's log counter (int8, a string). */
interface LastEventSeqRow {
  lastEventSeq: string;
}
const lastEventSeq = statement<LastEventSeqRow, [projectId: string]>(
  'sse.last_event_seq',
  'select last_event_seq as "lastEventSeq" from projects where id = $1',
);

/** The log counters of every watched project at once. */
interface ProjectSeqRow {
  id: string;
  /** int8, a string. */
  lastEventSeq: string;
}
const lastEventSeqs = statement<ProjectSeqRow, [projectIds: string[]]>(
  'sse.last_event_seqs',
  'select id, last_event_seq as "lastEventSeq" from projects where id = any($1::uuid[])',
);

const publishedEvent = z.object({
  seq: z.number().int().positive(),
  type: z.enum(PROJECT_EVENT_TYPES as [ProjectEventType, ...ProjectEventType[]]),
  data: z.record(z.string(), z.unknown()),
});

export type StreamOptions = Omit<ConnectionOptions, 'readAfter' | 'onClosed'>;

export interface HubDeps {
  /** The API's read pool: the log's replays and counters are reads outside any transaction. */
  db: Sql;
  /** The commands connection; the hub duplicates it into its own subscriber connection. */
  redis: Redis;
  redisKeyPrefix: string;
  /** How long a connect waits for Redis to confirm its project's SUBSCRIBE (then 503). */
  subscribeTimeoutMs: number;
  heartbeatMs: number;
  /** How long the streams of viewers without `fasterSse` wait for their next write. */
  standardBatchMs: number;
  logger: Logger;
}

export class ProjectStreamHub {
  /** By channel name, as messages arrive. */
  private readonly feeds = new Map<string, ProjectFeed>();
  private readonly subscriber: Redis;
  private ticker: NodeJS.Timeout | null = null;
  private checking = false;
  private closed = false;

  constructor(private readonly deps: HubDeps) {
    this.subscriber = createSubscriber(deps.redis, 'api-sse-sub', deps.logger);
    this.subscriber.on('message', (channel: string, message: string) =>
      this.onMessage(channel, message),
    );
    // ioredis subscribes again after a reconnect; what was published meanwhile is in the log.
    this.subscriber.on('ready', () => void this.checkLogs());
  }

  /** Open streams in this process (all projects). */
  get connectionCount(): number {
    let count = 0;
    for (const feed of this.feeds.values()) count += feed.connections.size;
    return count;
  }

  /** A stream for `res`: it reads the log through this hub's pool and leaves the hub when over. */
  connection(res: ServerResponse, stream: StreamOptions): SseConnection {
    const { db } = this.deps;
    return new SseConnection(res, {
      ...stream,
      readAfter: (afterSeq, limit) => readProjectEvents(db, stream.projectId, afterSeq, limit),
      onClosed: (closed) => this.leave(closed),
    });
  }

  /**
   * Registers a connection (it buffers live events from now on) and resolves once its
   * project's channel subscription is confirmed; only then may the log be replayed.
   */
  async join(connection: SseConnection): Promise<void> {
    if (this.closed) throw new AppError('service_unavailable', 'The server is shutting down');
    // Its client hung up before it got here: registering it would keep it (and its
    // subscription) forever, since its `close` has come and gone.
    if (connection.closed) return;
    const channel = this.channelOf(connection.projectId);
    let feed = this.feeds.get(channel);
    if (!feed) {
      const source = this.sourceFor(connection.projectId, channel);
      feed = new ProjectFeed(
        connection.projectId,
        source,
        this.deps.logger,
        this.deps.standardBatchMs,
      );
      this.feeds.set(channel, feed);
    }
    feed.connections.add(connection);
    this.ticker ??= setInterval(() => this.tick(), this.deps.heartbeatMs);
    try {
      await feed.ready;
    } catch (err) {
      this.leave(connection);
      this.deps.logger.error({ err }, 'sse: could not subscribe to project events');
      throw new DependencyUnavailableError(
        'redis',
        'Live events are unavailable; retry shortly',
        REDIS_RETRY_AFTER_SECONDS,
        err,
      );
    }
  }

  leave(connection: SseConnection): void {
    const channel = this.channelOf(connection.projectId);
    const feed = this.feeds.get(channel);
    if (!feed?.connections.delete(connection) || feed.connections.size > 0) return;
    this.feeds.delete(channel);
    feed.close();
    // Once closing, the subscriber's disconnect drops every subscription at once.
    if (!this.closed) {
      this.subscriber.unsubscribe(channel).catch((err: unknown) => {
        this.deps.logger.warn({ err, channel }, 'sse: unsubscribe failed');
      });
    }
    if (this.feeds.size === 0 && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = null;
    }
  }

  /** Ends every open stream (app close); clients reconnect elsewhere with their last id. */
  endAll(): void {
    this.closed = true;
    for (const feed of [...this.feeds.values()]) {
      for (const connection of [...feed.connections]) connection.end();
    }
  }

  close(): void {
    this.endAll();
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    // Closing the connection drops every subscription it holds.
    this.subscriber.disconnect();
  }

  private channelOf(projectId: string): string {
    return projectEventsChannel(this.deps.redisKeyPrefix, projectId);
  }

  private sourceFor(projectId: string, channel: string): FeedSource {
    const { db } = this.deps;
    return {
      subscribe: () => subscribeWithin(this.subscriber, channel, this.deps.subscribeTimeoutMs),
      lastSeq: async () => {
        const row = await db.row(lastEventSeq, [projectId]);
        return Number(row?.lastEventSeq ?? 0);
      },
      readAfter: (afterSeq: number) => readProjectEvents(db, projectId, afterSeq),
    };
  }

  private onMessage(channel: string, message: string): void {
    const feed = this.feeds.get(channel);
    if (!feed) return;
    const event = parsedEvent(message);
    if (!event) {
      // Never fatal: the periodic check reads whatever this message should have carried.
      this.deps.logger.warn({ channel }, 'sse: ignoring a malformed project event message');
      return;
    }
    feed.receive(event);
  }

  private tick(): void {
    for (const feed of this.feeds.values()) {
      for (const connection of feed.connections) connection.heartbeat();
    }
    void this.checkLogs();
  }

  /** One query for every watched project: which logs are ahead of what was fanned out? */
  private async checkLogs(): Promise<void> {
    if (this.checking || this.feeds.size === 0) return;
    this.checking = true;
    try {
      const byProject = new Map([...this.feeds.values()].map((feed) => [feed.projectId, feed]));
      const rows = await this.deps.db.rows(lastEventSeqs, [[...byProject.keys()]]);
      for (const row of rows) {
        const feed = byProject.get(row.id);
        const seq = Number(row.lastEventSeq);
        if (feed && seq > feed.fannedOut) feed.catchUpTo(seq);
      }
    } catch (err) {
      this.deps.logger.warn({ err }, 'sse: checking the event logs failed');
    } finally {
      this.checking = false;
    }
  }
}

/**
 * The message's event, or null unless it is JSON of an event of a known type whose data has
 * that type's shape. The data is passed on as published (the check strips nothing).
 */
function parsedEvent(message: string): ProjectStreamEvent | null {
  let raw: unknown;
  try {
    raw = JSON.parse(message);
  } catch {
    return null;
  }
  const parsed = publishedEvent.safeParse(raw);
  if (!parsed.success) return null;
  const { seq, type, data } = parsed.data;
  return projectEventData[type].safeParse(data).success ? { seq, type, data } : null;
}
