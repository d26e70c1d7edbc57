import type { Logger } from '../../shared/logger';
import type { ProjectStreamEvent } from '../../shared/projects/events';
import { FrameBatch } from './batch';
import type { SseConnection } from './connection';
import { frameEvent, type FramedEvent } from './frames';

/**
 * One project's live events in this process: the connections watching it, and the highest
 * `seq` fanned out to them. Events reach the connections gap-free and in order whatever
 * pub/sub does: a duplicate is dropped, and a hole (a message lost between a worker's commit
 * and its publish, or while Redis reconnected) is filled from the log first. This happens
 * once per process, not once per connection, and so does the framing of each event.
 *
 * The log is the source of truth; a pub/sub message only brings an event sooner. Its event is
 * fanned out only when it is the next one after what the log gave, so a message the log
 * cannot back (a forged or corrupt `seq` far ahead) can never skip real events. A `done` ends
 * streams, so it is always taken from the log, never from a message.
 *
 * Batched connections (viewers without `fasterSse`) queue the events instead of writing them;
 * one timer per feed, started by the first event queued after a flush, writes every queue
 * `batchMs` later, each in one write cut from one buffer of the whole batch. Streams of one
 * project flush together, so a process makes one copy per batch however many streams it has.
 */

export interface FeedSource {
  /**
   * Resolves once the Redis SUBSCRIBE of this project's channel is confirmed; rejects when
   * Redis does not confirm it within the command timeout (the connect is then 503).
   */
  subscribe(): Promise<void>;
  /** `projects.last_event_seq`, 0 when the project is gone. */
  lastSeq(): Promise<number>;
  readAfter(afterSeq: number): Promise<ProjectStreamEvent[]>;
}

export class ProjectFeed {
  readonly connections = new Set<SseConnection>();
  /** Resolves when live events can no longer be missed: subscribed, and `lastSeq` known. */
  readonly ready: Promise<void>;
  private lastSeq = 0;
  /** Every change of `lastSeq` runs on this chain, so fills and messages never interleave. */
  private work: Promise<void>;
  /** What was fanned out since the last flush, while a batched connection waits for it. */
  private readonly batch = new FrameBatch();
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly projectId: string,
    private readonly source: FeedSource,
    private readonly log: Logger,
    /** How long batched connections wait for their next write (0: never batched). */
    private readonly batchMs: number,
  ) {
    this.ready = this.start();
    this.work = this.ready.catch(() => undefined);
  }

  /** The highest `seq` handed to the connections (for the periodic check of the log). */
  get fannedOut(): number {
    return this.lastSeq;
  }

  /** A message from pub/sub. */
  receive(event: ProjectStreamEvent): void {
    this.enqueue(() => this.accept(event));
  }

  /** The log is known to reach `seq`: fan out whatever pub/sub did not bring. */
  catchUpTo(seq: number): void {
    this.enqueue(() => this.fill(seq));
  }

  /** The last connection left: nothing is flushed any more. */
  close(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.batch.clear();
  }

  private async start(): Promise<void> {
    // Subscribed first: anything committed after the read below is then also delivered.
    await this.source.subscribe();
    this.lastSeq = await this.source.lastSeq();
  }

  private enqueue(task: () => Promise<void>): void {
    this.work = this.work.then(task).catch((err: unknown) => {
      // The next heartbeat's check of the log retries whatever this missed.
      this.log.warn({ err, projectId: this.projectId }, 'sse: reading the event log failed');
    });
  }

  private async accept(event: ProjectStreamEvent): Promise<void> {
    if (event.seq <= this.lastSeq) return;
    if (event.type === 'done') return this.fill(event.seq);
    if (event.seq > this.lastSeq + 1) await this.fill(event.seq - 1);
    // Still not the next one: the log does not have what comes before it (yet). The
    // heartbeat's check of the log delivers the real events; this message is dropped.
    if (event.seq === this.lastSeq + 1) this.fanOut(frameEvent(event));
  }

  private async fill(upTo: number): Promise<void> {
    while (this.lastSeq < upTo) {
      const page = await this.source.readAfter(this.lastSeq);
      if (page.length === 0) return;
      for (const event of page) {
        if (event.seq > this.lastSeq) this.fanOut(frameEvent(event));
      }
    }
  }

  private fanOut(event: FramedEvent): void {
    this.lastSeq = event.seq;
    this.batch.add(event);
    let queued = false;
    for (const connection of this.connections) {
      if (connection.deliver(event, this.batch)) queued = true;
    }
    if (queued) this.flushTimer ??= setTimeout(() => this.flush(), this.batchMs);
    else if (!this.flushTimer) this.batch.clear();
  }

  private flush(): void {
    this.flushTimer = null;
    for (const connection of this.connections) connection.flush(this.batch);
    this.batch.clear();
  }
}
