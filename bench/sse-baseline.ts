import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { retryFrame, SSE_HEADERS } from '../api/sse/frames';
import { reportToParent } from './sse-processes';

/**
 * The floor for bench/sse-fanout.ts: what this machine does with the same fan-out and none of
 * our work. A bare `node:http` server (a child process of the bench, like our API) that keeps
 * every `GET /stream` open as an SSE response and, for each message on one Redis channel
 * (one subscriber connection, as our hub has), writes the message, an SSE frame formatted
 * by the bench, to every open response. No routing, auth, database, replay, validation,
 * framing, ordering, heartbeat or slow-client check: the gap to it is what those cost.
 */

export const BASELINE_PATH = '/stream';

const env = z.object({
  REDIS_URL: z.string().min(1),
  SSE_BASELINE_CHANNEL: z.string().min(1),
});

async function serveBaseline(): Promise<void> {
  const { REDIS_URL, SSE_BASELINE_CHANNEL } = env.parse(process.env);
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== BASELINE_PATH) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, SSE_HEADERS);
    res.write(retryFrame(3000));
    open.add(res);
    res.on('close', () => open.delete(res));
    // A reset socket also closes the response; without a listener it would crash the process.
    res.on('error', () => open.delete(res));
  });
  const subscriber = new Redis(REDIS_URL, { enableAutoPipelining: false });
  subscriber.on('error', (err: Error) => console.error(`sse-baseline: redis: ${err.message}`));
  subscriber.on('message', (_channel: string, message: string) => {
    const frame = Buffer.from(message);
    for (const res of open) res.write(frame);
  });
  await subscriber.subscribe(SSE_BASELINE_CHANNEL);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  reportToParent({
    port: (server.address() as AddressInfo).port,
    connections: () => open.size,
    close: async () => {
      subscriber.disconnect();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  });
}

if (require.main === module) {
  serveBaseline().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
