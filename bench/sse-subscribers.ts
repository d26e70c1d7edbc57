import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * The SSE bench's clients: raw sockets speaking just enough HTTP/1.1 to read a stream, the
 * same code for our API and for the baseline. Every measured event carries its send time as
 * `"sentAt":<performance.now()>` of this process (which also sends), so each delivery to each
 * subscriber yields one latency sample.
 */

const OPEN_BATCH = 250;
const OPEN_TIMEOUT_MS = 30_000;
const POLL_MS = 10;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The latency samples of one measured phase (one server, one number of subscribers). */
export class Deliveries {
  readonly samples: number[] = [];
  /** Socket reads that carried at least one event (a batched stream's flush is one). */
  reads = 0;

  /**
   * The send times carried by complete events just read (`"sentAt":<performance.now()>`); a
   * bench whose events carry the time elsewhere overrides it.
   */
  sentTimes(text: string): number[] {
    return Array.from(text.matchAll(/"sentAt":([\d.]+)/g), (match) => Number(match[1]));
  }

  /** Waits until `count` samples have arrived; false if the timeout came first. */
  async waitFor(count: number, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (this.samples.length < count) {
      if (performance.now() > deadline) return false;
      await sleep(POLL_MS);
    }
    return true;
  }
}

/** Every socket this process opened and has not closed, so teardown can close them all. */
const openSockets = new Set<Socket>();

export function closeSockets(sockets: Iterable<Socket> = openSockets): void {
  for (const socket of [...sockets]) socket.destroy();
}

function openSocket(port: number): Socket {
  const socket = connect(port, '127.0.0.1');
  openSockets.add(socket);
  socket.once('close', () => openSockets.delete(socket));
  return socket;
}

/**
 * Resolves once the stream is open (the `retry:` hint arrived); samples go to `deliveries`.
 * `headers` are sent with the request (a pro viewer's `x-api-key`).
 */
export function subscribe(
  port: number,
  path: string,
  deliveries: Deliveries,
  headers: Record<string, string> = {},
): Promise<Socket> {
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return new Promise((done, fail) => {
    const socket = openSocket(port);
    let tail = '';
    let ready = false;
    const refuse = (err: Error) => {
      socket.destroy();
      fail(err);
    };
    socket.setNoDelay(true);
    socket.setTimeout(OPEN_TIMEOUT_MS, () => {
      if (!ready) refuse(new Error(`subscribe ${path}: no stream after ${OPEN_TIMEOUT_MS} ms`));
    });
    socket.on('error', fail);
    socket.once('connect', () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n${extra}\r\n`,
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      const now = performance.now();
      const text = tail + chunk.toString('latin1');
      if (!ready && !text.startsWith('HTTP/1.1 200')) {
        return refuse(new Error(`subscribe ${path}: ${text.slice(0, 200)}`));
      }
      const cut = text.lastIndexOf('\n\n');
      tail = cut === -1 ? text : text.slice(cut + 2);
      if (cut === -1) return;
      const complete = text.slice(0, cut);
      if (!ready && complete.includes('retry:')) {
        ready = true;
        socket.setTimeout(0);
        done(socket);
      }
      const before = deliveries.samples.length;
      for (const sentAt of deliveries.sentTimes(complete)) deliveries.samples.push(now - sentAt);
      if (deliveries.samples.length > before) deliveries.reads++;
    });
  });
}

/** Opens `count` streams, a batch at a time (10k at once would overflow the accept backlog). */
export async function subscribeMany(
  port: number,
  path: string,
  count: number,
  deliveries: Deliveries,
  headers: Record<string, string> = {},
): Promise<Socket[]> {
  const sockets: Socket[] = [];
  while (sockets.length < count) {
    const batch = Math.min(OPEN_BATCH, count - sockets.length);
    const opened = Array.from({ length: batch }, () => subscribe(port, path, deliveries, headers));
    sockets.push(...(await Promise.all(opened)));
  }
  return sockets;
}

/** From connecting to having event 1000, on a fresh socket. */
export function replayOnce(port: number, path: string): Promise<number> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const socket = openSocket(port);
    let body = '';
    socket.on('error', fail);
    socket.once('connect', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: bench\r\nLast-Event-ID: 0\r\n\r\n`),
    );
    socket.on('data', (chunk: Buffer) => {
      body += chunk.toString('latin1');
      if (!body.includes('\nid: 1000\n')) return;
      const elapsed = performance.now() - started;
      const count = body.match(/\nid: \d+\n/g)?.length ?? 0;
      socket.destroy();
      if (count !== 1000) fail(new Error(`replay: ${count} events instead of 1000`));
      else done(elapsed);
    });
  });
}

export function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
