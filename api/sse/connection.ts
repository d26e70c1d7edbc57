import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { ProjectStreamEvent } from '../../shared/projects/events';
import { joinFrames, type FrameBatch } from './batch';
import { eventText, HEARTBEAT_FRAME, retryFrame, type FramedEvent } from './frames';
import { endsStream, type EndRule } from './stream-end';

/**
 * One client's project stream. It starts catching up: live events the hub hands over are
 * buffered while the log is replayed from PostgreSQL; once the log has nothing newer, the
 * buffer is flushed and the connection goes live. Every event is written once, in `seq`
 * order: anything at or below the last id sent is dropped, and a hole (a pub/sub message
 * this process missed) sends the connection back to the log before it goes on.
 *
 * A batched connection (a viewer without `fasterSse`) queues its live events instead of
 * writing each one, and its feed flushes the queue every `SSE_STANDARD_BATCH_MS` in one write
 * (see ProjectFeed). The replay, the hand-over from it, and an event that ends the stream
 * (with whatever waits before it) are written at once.
 */

/** A slow client whose unsent output passes this is dropped; it reconnects with its last id. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * Events per replay read and write. A page is held (read, then framed as one string) per
 * connection, and tool calls may carry files of up to 256 KB: small pages bound that memory.
 */
export const REPLAY_PAGE_SIZE = 100;

export interface ConnectionOptions {
  projectId: string;
  /** The client's `Last-Event-ID`; 0 replays every event kept. */
  lastEventId: number;
  endRule: EndRule;
  /** Live events wait for the feed's next flush (a viewer without `fasterSse`). */
  batched: boolean;
  /** At most `limit` events with `seq` above `afterSeq`, oldest first. */
  readAfter(afterSeq: number, limit: number): Promise<ProjectStreamEvent[]>;
  /** Called once when the connection is over, however it ended. */
  onClosed(connection: SseConnection): void;
  log: FastifyBaseLogger;
}

type State = 'catching-up' | 'live' | 'closed';

export class SseConnection {
  private state: State = 'catching-up';
  private opened = false;
  private lastSent: number;
  private buffered: FramedEvent[] = [];
  /** Live events of a batched connection waiting for the next flush; counted in `lastSent`. */
  private pending: FramedEvent[] = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly options: ConnectionOptions,
  ) {
    this.lastSent = options.lastEventId;
    // The client may hang up while the route still awaits (the project lookup, say): its
    // `close` has then been emitted already, and this connection must never join the hub.
    if (res.destroyed || res.closed) this.state = 'closed';
    res.on('close', () => this.finish());
    // A socket error closes the response too; without a listener it would crash the process.
    res.on('error', () => this.finish());
  }

  get projectId(): string {
    return this.options.projectId;
  }

  get closed(): boolean {
    return this.state === 'closed';
  }

  /** Writes the headers and the retry hint, then replays the log and goes live. */
  open(headers: Record<string, number | string | string[] | undefined>, retryMs: number): void {
    // Gone while the hub subscribed: leave it (the close listener has usually done so already).
    if (this.res.destroyed) this.finish();
    if (this.closed) return;
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined) this.res.setHeader(name, value);
    }
    this.res.writeHead(200);
    this.res.write(retryFrame(retryMs));
    this.opened = true;
    void this.catchUp();
  }

  /**
   * A live event from the feed, already framed and added to its `batch`; the feed hands them
   * over in `seq` order. True when the event now waits for the feed's next `flush`.
   */
  deliver(event: FramedEvent, batch: FrameBatch): boolean {
    if (this.state === 'catching-up') {
      this.buffered.push(event);
      return false;
    }
    if (this.state !== 'live' || event.seq <= this.lastSent) return false;
    if (event.seq > this.lastSent + 1) {
      // What waits goes out first: the log's events that fill the hole come after it.
      this.flush(batch);
      if (this.closed) return false;
      this.state = 'catching-up';
      this.buffered.push(event);
      void this.catchUp();
      return false;
    }
    if (!this.options.batched) {
      this.send(event);
      return false;
    }
    this.pending.push(event);
    this.lastSent = event.seq;
    if (!endsStream(event, this.options.endRule)) return true;
    this.flush(batch);
    this.end();
    return false;
  }

  /** Writes the live events waiting, in one write (from `batch`'s shared buffer when given). */
  flush(batch?: FrameBatch): void {
    if (this.pending.length === 0 || this.closed) return;
    const run = this.pending;
    this.pending = [];
    const chunk = batch ? batch.framesOf(run) : joinFrames(run);
    // One write may carry a second of events: the client is too slow when what it left
    // unread before this write passes the limit, not when one large batch does.
    if (this.res.writableLength > MAX_BUFFERED_BYTES) this.dropSlowClient();
    else this.res.write(chunk);
  }

  heartbeat(): void {
    if (this.opened && !this.closed) this.write(HEARTBEAT_FRAME);
  }

  /** Ends the response gracefully (after the final `done`, or when the app closes). */
  end(): void {
    if (this.closed) return;
    // What waits for a flush is sent first: the final `done` with it, or the events a client
    // would otherwise be replayed after reconnecting elsewhere.
    this.flush();
    this.finish();
    if (this.opened) {
      this.res.end();
      return;
    }
    // Closed by shutdown before the stream began: an ordinary error the client retries.
    const body = { error: { code: 'service_unavailable', message: 'The server is shutting down' } };
    this.res.writeHead(503, { 'content-type': 'application/json; charset=utf-8' });
    this.res.end(JSON.stringify(body));
  }

  private finish(): void {
    if (this.closed) return;
    this.state = 'closed';
    this.buffered = [];
    this.pending = [];
    this.options.onClosed(this);
  }

  private send(event: FramedEvent): void {
    this.lastSent = event.seq;
    this.write(event.frame);
    if (endsStream(event, this.options.endRule)) this.end();
  }

  /** Live writes never queue without bound: past the limit the client is dropped. */
  private write(chunk: Buffer): void {
    if (this.res.write(chunk) || this.res.writableLength <= MAX_BUFFERED_BYTES) return;
    this.dropSlowClient();
  }

  private dropSlowClient(): void {
    this.options.log.warn(
      { projectId: this.projectId, bufferedBytes: this.res.writableLength },
      'sse: client too slow, dropping the connection',
    );
    this.res.destroy();
    // Closed now, not at the `close` event: nothing more is queued or written for it.
    this.finish();
  }

  private async catchUp(): Promise<void> {
    try {
      for (;;) {
        const page = await this.options.readAfter(this.lastSent, REPLAY_PAGE_SIZE);
        if (this.closed || !(await this.sendPage(page))) return;
        // A full page: the log may hold more. Otherwise the buffer takes over from here. When
        // the log had nothing newer at all, a hole left before a buffered event was never
        // logged (appends commit in seq order, before they are published): skip it.
        if (page.length < REPLAY_PAGE_SIZE && this.flushBuffered(page.length === 0)) return;
      }
    } catch (err) {
      this.options.log.error({ err, projectId: this.projectId }, 'sse: replay failed');
      // The client reconnects with its last id and the replay starts over.
      this.end();
    }
  }

  /** A replayed page goes out in one write; the next page waits for the socket to drain. */
  private async sendPage(page: ProjectStreamEvent[]): Promise<boolean> {
    let text = '';
    let ending = false;
    for (const event of page) {
      if (event.seq <= this.lastSent) continue;
      text += eventText(event);
      this.lastSent = event.seq;
      ending = endsStream(event, this.options.endRule);
      if (ending) break;
    }
    if (text.length > 0) this.res.write(text);
    if (ending) this.end();
    else if (this.res.writableNeedDrain) await drained(this.res);
    return !this.closed;
  }

  /** Flushes buffered live events; false when a hole remains and the log must be read again. */
  private flushBuffered(skipHoles: boolean): boolean {
    const buffered = this.buffered;
    this.buffered = [];
    for (const [index, event] of buffered.entries()) {
      if (event.seq <= this.lastSent) continue;
      if (event.seq > this.lastSent + 1 && !skipHoles) {
        this.buffered = buffered.slice(index);
        return false;
      }
      this.send(event);
      if (this.closed) return true;
    }
    this.state = 'live';
    return true;
  }
}

/** Resolves once `res` can take more output, or is closed. */
export function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
