import type { Redis } from 'ioredis';
import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * A minimal SSE reader over a real HTTP connection (its own socket, no pooling), keeping
 * everything it saw: events, comments and the retry hint, parsed as the WHATWG spec says,
 * and when each event arrived.
 */

export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

export class SseClient {
  readonly events: SseEvent[] = [];
  /** `performance.now()` when the chunk that completed each event arrived (same index). */
  readonly arrivedAt: number[] = [];
  readonly comments: string[] = [];
  retry: number | null = null;
  body = '';
  ended = false;
  /** Resolves when the server ends the response or the connection closes. */
  readonly done: Promise<void>;
  private partial = '';
  private current: { id: string | null; event: string; data: string[] } = blank();
  private waiters: (() => void)[] = [];

  private constructor(
    readonly response: IncomingMessage,
    private readonly abort: () => void,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.feed(chunk));
    this.done = new Promise((resolve) => {
      const finish = () => {
        this.ended = true;
        this.wake();
        resolve();
      };
      response.on('end', finish);
      response.on('close', finish);
      response.on('error', finish);
    });
  }

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  get headers(): IncomingHttpHeaders {
    return this.response.headers;
  }

  get ids(): number[] {
    return this.events.map((event) => Number(event.id));
  }

  /** Resolves once the response headers are in. */
  static connect(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = request(url, {
        agent: false,
        headers: { accept: 'text/event-stream', ...headers },
      });
      req.on('response', (response) => resolve(new SseClient(response, () => req.destroy())));
      req.on('error', reject);
      req.end();
    });
  }

  /** Waits until `check` holds; fails when the stream ends first or after `timeoutMs`. */
  async waitFor(check: (client: SseClient) => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check(this)) {
      if (this.ended) throw new Error(`stream ended first; ids: ${this.ids.join(',')}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; ids so far: ${this.ids.join(',')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  waitForEvents(count: number, timeoutMs?: number): Promise<void> {
    return this.waitFor((client) => client.events.length >= count, timeoutMs);
  }

  close(): void {
    this.abort();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private feed(chunk: string): void {
    const now = performance.now();
    this.body += chunk;
    const lines = (this.partial + chunk).split(/\r\n|\r|\n/);
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.line(line, now);
    this.wake();
  }

  private line(line: string, now: number): void {
    if (line === '') {
      if (this.current.data.length > 0) {
        const { id, event, data } = this.current;
        this.events.push({ id, event, data: data.join('\n') });
        this.arrivedAt.push(now);
      }
      this.current = blank();
      return;
    }
    if (line.startsWith(':')) {
      this.comments.push(line.slice(1).trim());
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') this.current.id = value;
    if (field === 'event') this.current.event = value;
    if (field === 'data') this.current.data.push(value);
    if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
  }
}

function blank() {
  return { id: null as string | null, event: 'message', data: [] as string[] };
}

/** Subscribers of a Redis pub/sub channel, across every connection to that server. */
export async function numsub(redis: Redis, channel: string): Promise<number> {
  const reply = (await redis.pubsub('NUMSUB', channel)) as [string, number];
  return Number(reply[1]);
}

/** Polls `check` every 20 ms until it holds; throws after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
