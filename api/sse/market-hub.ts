import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { statement, type Sql } from '../../shared/db/sql';
import {
  AppError,
  DependencyUnavailableError,
  REDIS_RETRY_AFTER_SECONDS,
} from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { marketEventsChannel } from '../../shared/market/events';
import { createSubscriber, subscribeWithin } from '../../shared/redis';
import {
  eventsAfter,
  firehoseText,
  tokenEventsAfter,
  tokenStreamText,
  type MarketEventRow,
} from './market-frames';
import { MAX_BUFFERED_BYTES, drained } from './connection';
import { HEARTBEAT_FRAME, retryFrame } from './frames';

/**
 * The token streams of one API process (docs/chain.md "Market data"). The outbox in
 * PostgreSQL is the source of truth: the hub reads it in sequence, one query for the whole
 * process, and hands each event to every open stream, each writing it framed for itself (the
 * text built once per event and stream kind). Redis only says when to read: the indexer
 * announces new events after its commits, and a timer reads anyway every `pollMs`, so a lost
 * announcement costs a delay, never an event.
 */

/** The age of the oldest event after `seq`, in seconds (null when there is none). */
const unreadAge = statement<{ seconds: number | null }, [afterSeq: string]>(
  'market.unread_age',
  `select extract(epoch from now() - min(created_at))::float8 as seconds
     from market_events where seq > $1::int8`,
);

/** Events per outbox read, live and replay alike. */
const PAGE = 500;

export interface MarketHubDeps {
  db: Sql;
  redis: Redis;
  redisKeyPrefix: string;
  subscribeTimeoutMs: number;
  heartbeatMs: number;
  pollMs: number;
  logger: Logger;
}

export interface MarketStreamOptions {
  /** The token of a `GET /tokens/:slug/stream`; null for the firehose. */
  tokenId: string | null;
  /** Seconds of the bars the stream sends. */
  resolutions: number[];
  log: FastifyBaseLogger;
}

type State = 'catching-up' | 'live' | 'closed';

export class MarketConnection {
  private state: State = 'catching-up';
  private opened = false;
  private lastSent = 0n;
  private buffered: MarketEventRow[] = [];
  private readonly key: string;

  constructor(
    private readonly res: ServerResponse,
    readonly options: MarketStreamOptions,
    private readonly onClosed: (connection: MarketConnection) => void,
  ) {
    this.key = options.tokenId === null ? 'firehose' : options.resolutions.join(',');
    if (res.destroyed || res.closed) this.state = 'closed';
    res.on('close', () => this.finish());
    res.on('error', () => this.finish());
  }

  get closed(): boolean {
    return this.state === 'closed';
  }

  /**
   * The event as this stream writes it, encoded once per event and kind of stream (the
   * per-event cache `frames`), so thousands of streams share one Buffer.
   */
  private frameOf(row: MarketEventRow, frames: Map<string, Buffer>): Buffer {
    let frame = frames.get(this.key);
    if (frame === undefined) {
      frame = Buffer.from(
        this.options.tokenId === null
          ? firehoseText(row)
          : tokenStreamText(row, this.options.resolutions),
      );
      frames.set(this.key, frame);
    }
    return frame;
  }

  /** A live event from the hub, in sequence order; `seq` is `row.seq`, parsed once. */
  deliver(row: MarketEventRow, seq: bigint, frames: Map<string, Buffer>): void {
    if (this.closed) return;
    if (this.options.tokenId !== null && row.tokenId !== this.options.tokenId) return;
    if (this.state === 'catching-up') {
      this.buffered.push(row);
      return;
    }
    if (seq <= this.lastSent) return;
    this.lastSent = seq;
    this.write(this.frameOf(row, frames));
  }

  /** Writes the headers, the retry hint and `first` (a snapshot, a reset); events after `from`. */
  open(headers: Record<string, string>, retryMs: number): void {
    if (this.res.destroyed) this.finish();
    if (this.closed) return;
    for (const [name, value] of Object.entries(headers)) this.res.setHeader(name, value);
    this.res.writeHead(200);
    this.res.write(retryFrame(retryMs));
    this.opened = true;
  }

  /**
   * Writes `first`, replays the outbox after `from` (the stream's token only), then the live
   * events that arrived meanwhile, and goes live.
   */
  async start(db: Sql, first: string, from: bigint): Promise<void> {
    if (this.closed) return;
    if (first) this.write(first);
    this.lastSent = from;
    try {
      for (;;) {
        const page =
          this.options.tokenId === null
            ? await db.rows(eventsAfter, [this.lastSent.toString(), PAGE])
            : await db.rows(tokenEventsAfter, [
                this.options.tokenId,
                this.lastSent.toString(),
                PAGE,
              ]);
        if (this.closed) return;
        const chunks: Buffer[] = [];
        for (const row of page) {
          chunks.push(this.frameOf(row, new Map()));
          this.lastSent = BigInt(row.seq);
        }
        this.write(Buffer.concat(chunks));
        if (this.res.writableNeedDrain) await drained(this.res);
        if (page.length < PAGE) break;
      }
    } catch (err) {
      this.options.log.error({ err }, 'market stream: replay failed');
      this.end();
      return;
    }
    const buffered = this.buffered;
    this.buffered = [];
    this.state = 'live';
    for (const row of buffered) this.deliver(row, BigInt(row.seq), new Map());
  }

  heartbeat(): void {
    if (this.opened && !this.closed) this.write(HEARTBEAT_FRAME);
  }

  end(): void {
    if (this.closed) return;
    this.finish();
    if (this.opened) {
      this.res.end();
      return;
    }
    const body = { error: { code: 'service_unavailable', message: 'The server is shutting down' } };
    this.res.writeHead(503, { 'content-type': 'application/json; charset=utf-8' });
    this.res.end(JSON.stringify(body));
  }

  private write(chunk: string | Buffer): void {
    if (!chunk.length) return;
    if (this.res.write(chunk) || this.res.writableLength <= MAX_BUFFERED_BYTES) return;
    this.options.log.warn(
      { bufferedBytes: this.res.writableLength },
      'market stream: client too slow, dropping the connection',
    );
    this.res.destroy();
    this.finish();
  }

  private finish(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.buffered = [];
    this.onClosed(this);
  }
}

export class MarketStreamHub {
  private readonly connections = new Set<MarketConnection>();
  private subscriber: Redis | null = null;
  private subscribed: Promise<void> | null = null;
  private timers: NodeJS.Timeout[] = [];
  /** The newest event handed to the streams; null until the first stream opens. */
  private lastRead: bigint | null = null;
  private reading: Promise<void> | null = null;
  private readAgain = false;
  private closed = false;

  constructor(private readonly deps: MarketHubDeps) {}

  get connectionCount(): number {
    return this.connections.size;
  }

  /**
   * How far this process's streams are behind the outbox: the age of the oldest event it has
   * not handed to them, 0 when caught up or with no stream open (docs/metrics.md).
   */
  async lagSeconds(): Promise<number> {
    if (this.lastRead === null || this.connections.size === 0) return 0;
    const row = await this.deps.db.row(unreadAge, [this.lastRead.toString()]);
    return Math.max(0, row?.seconds ?? 0);
  }

  connection(res: ServerResponse, options: MarketStreamOptions): MarketConnection {
    return new MarketConnection(res, options, (closed) => this.connections.delete(closed));
  }

  /**
   * Registers a stream (it buffers live events from now on) once this process listens for
   * announcements and knows where the outbox ends; only then may the stream read its start.
   */
  async join(connection: MarketConnection, outboxEnd: () => Promise<bigint>): Promise<void> {
    if (this.closed) throw new AppError('service_unavailable', 'The server is shutting down');
    if (connection.closed) return;
    try {
      await this.listen();
    } catch (err) {
      this.deps.logger.error({ err }, 'market streams: could not subscribe to announcements');
      throw new DependencyUnavailableError(
        'redis',
        'Live events are unavailable; retry shortly',
        REDIS_RETRY_AFTER_SECONDS,
        err,
      );
    }
    this.lastRead ??= await outboxEnd();
    this.connections.add(connection);
    if (this.timers.length === 0) {
      this.timers = [
        setInterval(() => this.heartbeat(), this.deps.heartbeatMs),
        setInterval(() => void this.read(), this.deps.pollMs),
      ];
    }
  }

  /** Ends every open stream (app close); clients reconnect elsewhere with their last id. */
  endAll(): void {
    this.closed = true;
    for (const connection of [...this.connections]) connection.end();
  }

  close(): void {
    this.endAll();
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.subscriber?.disconnect();
  }

  private listen(): Promise<void> {
    if (!this.subscribed) {
      const subscriber = createSubscriber(this.deps.redis, 'api-market-sub', this.deps.logger);
      const channel = marketEventsChannel(this.deps.redisKeyPrefix);
      subscriber.on('message', () => void this.read());
      // What was announced while the connection was down is in the outbox.
      subscriber.on('ready', () => void this.read());
      this.subscriber = subscriber;
      this.subscribed = subscribeWithin(subscriber, channel, this.deps.subscribeTimeoutMs).catch(
        (err: unknown) => {
          this.subscribed = null;
          this.subscriber = null;
          subscriber.disconnect();
          throw err;
        },
      );
    }
    return this.subscribed;
  }

  private heartbeat(): void {
    for (const connection of this.connections) connection.heartbeat();
  }

  /** Reads the outbox past `lastRead` and hands each event to every stream, in order. */
  private async read(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    if (this.lastRead === null || this.connections.size === 0) return;
    this.reading = (async () => {
      try {
        do {
          this.readAgain = false;
          for (;;) {
            const rows = await this.deps.db.rows(eventsAfter, [this.lastRead!.toString(), PAGE]);
            for (const row of rows) {
              const seq = BigInt(row.seq);
              const frames = new Map<string, Buffer>();
              for (const connection of this.connections) connection.deliver(row, seq, frames);
              this.lastRead = seq;
            }
            if (rows.length < PAGE) break;
          }
        } while (this.readAgain);
      } catch (err) {
        this.deps.logger.warn({ err }, 'market streams: reading the outbox failed');
      } finally {
        this.reading = null;
      }
    })();
    return this.reading;
  }
}
