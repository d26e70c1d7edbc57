import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * An agent runtime on loopback, standing in for an owner's endpoint: a real HTTP server that
 * verifies the platform's signature (written here from docs/spec/contract.md §7, not with the service's
 * code) and answers as the test's `input` asks.
 */

export interface AgentCallBody {
  callId: string;
  input: unknown;
  tools: string[];
}

export interface ReceivedCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: AgentCallBody;
  signatureValid: boolean;
}

/** What the test asks the agent to do, through `input`. */
export interface AgentInstruction {
  /** HTTP status to answer with (default 200). */
  status?: number;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  toolsUsed?: string[];
  model?: string;
  /** Raw body to send instead of the JSON answer. */
  raw?: string;
  text?: string;
}

export interface AgentServer {
  url(path: string): string;
  /** Registers the signing secret for the agent at `path`. */
  setSecret(path: string, secret: string): void;
  calls: ReceivedCall[];
  close(): Promise<void>;
}

/** Verifies `X-Service-Signature: t=<unix>,v1=<hex>` over `<t>.<raw body>` keyed with the secret. */
export function serviceSignatureValid(secret: string, header: unknown, rawBody: string): boolean {
  if (typeof header !== 'string') return false;
  const parts = Object.fromEntries(
    header.split(',').map((part) => part.split('=', 2) as [string, string]),
  );
  const { t, v1 } = parts;
  if (!t || !v1 || !/^\d+$/.test(t)) return false;
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function startAgentServer(): Promise<AgentServer> {
  const secrets = new Map<string, string>();
  const calls: ReceivedCall[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(raw) as AgentCallBody;
      const path = req.url ?? '/';
      const secret = secrets.get(path);
      calls.push({
        path,
        headers: req.headers,
        body,
        signatureValid:
          secret !== undefined &&
          serviceSignatureValid(secret, req.headers['x-service-signature'], raw),
      });
      const instruction = (body.input ?? {}) as AgentInstruction;
      const answer = () => {
        res.statusCode = instruction.status ?? 200;
        res.setHeader('content-type', 'application/json');
        res.end(
          instruction.raw ??
            JSON.stringify({
              output: { echo: instruction.text ?? null, callId: body.callId },
              model: instruction.model ?? 'test-model-1',
              toolsUsed: instruction.toolsUsed ?? [],
              usage: { inputTokens: 11, outputTokens: 7 },
            }),
        );
      };
      if (instruction.delayMs) setTimeout(answer, instruction.delayMs);
      else answer();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    setSecret: (path, secret) => void secrets.set(path, secret),
    calls,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
