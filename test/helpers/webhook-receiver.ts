import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver on loopback: a real HTTP server that records every request with its raw
 * bytes and answers the statuses a test scripts per path (then 200). Verification is left to
 * the test, which writes its own verifier from the spec.
 */

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as it arrived. */
  raw: Buffer;
  /** Local clock when the request's body was complete. */
  receivedAt: number;
}

/** A status to answer with, or `hang` to hold the request for `ms` (then answer 200). */
export type ReceiverAnswer = number | { hangMs: number };

export interface WebhookReceiver {
  url(path: string): string;
  /** Answers for the next requests to `path`, in order; afterwards 200. */
  script(path: string, answers: ReceiverAnswer[]): void;
  requests: ReceivedWebhook[];
  requestsTo(path: string): ReceivedWebhook[];
  /** Resolves once `path` received `count` requests. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const scripts = new Map<string, ReceiverAnswer[]>();
  const requests: ReceivedWebhook[] = [];
  const held = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push({
        path,
        headers: req.headers,
        raw: Buffer.concat(chunks),
        receivedAt: Date.now(),
      });
      const answer = scripts.get(path)?.shift() ?? 200;
      const respond = (status: number) => {
        if (!res.writableEnded && !res.destroyed) res.writeHead(status).end('received');
      };
      if (typeof answer === 'number') return respond(answer);
      const timer = setTimeout(() => {
        held.delete(timer);
        respond(200);
      }, answer.hangMs);
      held.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const requestsTo = (path: string) => requests.filter((request) => request.path === path);

  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    script: (path, answers) => void scripts.set(path, [...answers]),
    requests,
    requestsTo,
    async waitFor(path, count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (requestsTo(path).length < count) {
        if (Date.now() > deadline) {
          throw new Error(`${path}: ${requestsTo(path).length} of ${count} requests received`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return requestsTo(path);
    },
    async close() {
      for (const timer of held) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
