import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * Demo agents for development: `npm run dev` serves them on its own port under
 * `/dev/demo-agent/<name>`, and `npm run seed` publishes marketplace agents whose endpoint is
 * that URL, so a paid invocation works on a laptop with nothing else running. Each verifies
 * the platform's `X-Service-Signature` the way an agent owner's endpoint would (docs/spec/contract.md §7)
 * and answers with the body the platform expects (`output`, `model`, `toolsUsed`, `usage`).
 *
 * Not part of the service: `buildApp` never registers these routes; the dev runner (and the
 * seed's test) does. Hidden from the OpenAPI document, no credentials, no rate limit.
 */

export const DEMO_AGENT_PATH = '/dev/demo-agent';

export interface DemoAgent {
  /** The endpoint path's last segment. */
  name: string;
  slug: string;
  title: string;
  description: string;
  tags: string[];
  monetization: 'per_call' | 'freemium';
  /** FLOW per call (freemium: after the free calls of the day). */
  perCallFlow: number;
  freemiumDailyCalls: number | null;
  /** Platform tools the agent charges for, FLOW per use. */
  toolPrices: Record<string, number>;
}

export const DEMO_AGENTS: readonly DemoAgent[] = [
  {
    name: 'echo',
    slug: 'demo-echo',
    title: 'Demo Echo',
    description:
      'Echoes its input back and uses every tool the call permits (each is charged). Served by npm run dev.',
    tags: ['demo', 'support'],
    monetization: 'per_call',
    perCallFlow: 1,
    freemiumDailyCalls: null,
    toolPrices: { web_search: 0.25, code_interpreter: 0.5 },
  },
  {
    name: 'oracle',
    slug: 'demo-oracle',
    title: 'Demo Oracle',
    description:
      'Answers any question with one of a few canned prophecies. Three free calls a day, then 2 FLOW.',
    tags: ['demo', 'research'],
    monetization: 'freemium',
    perCallFlow: 2,
    freemiumDailyCalls: 3,
    toolPrices: { web_search: 0.1 },
  },
];

/**
 * The endpoint secret of a demo agent: derived from the API's pepper, so the seed (which stores
 * it) and the dev runner (which verifies with it) agree without sharing a file, and a re-seed
 * writes the same value.
 */
export function demoAgentSecret(apiKeyPepper: string, name: string): string {
  const bytes = createHmac('sha256', apiKeyPepper).update(`demo-agent:${name}`).digest();
  return `whsec_${bytes.toString('base64')}`;
}

export function demoAgentUrl(baseUrl: string, name: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${DEMO_AGENT_PATH}/${name}`;
}

/** `X-Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, at most 5 min old. */
function signatureValid(secret: string, header: unknown, rawBody: string): boolean {
  if (typeof header !== 'string') return false;
  const parts = new Map(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = parts.get('t');
  const v1 = parts.get('v1');
  if (!t || !v1 || !/^\d+$/.test(t) || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const PROPHECIES = [
  'The chart goes up and to the right, eventually.',
  'Ship it on a Tuesday.',
  'Your next build passes on the first try.',
  'A token you know graduates before the full moon.',
  'Read the README first.',
];

interface CallBody {
  callId: string;
  input: unknown;
  tools: string[];
}

function answer(agent: DemoAgent, call: CallBody) {
  const input = JSON.stringify(call.input ?? null);
  const usage = { inputTokens: Math.ceil(input.length / 4), outputTokens: 12 };
  if (agent.name === 'oracle') {
    const index = createHash('sha256').update(input).digest()[0]! % PROPHECIES.length;
    return { output: { answer: PROPHECIES[index] }, model: 'demo-oracle-1', toolsUsed: [], usage };
  }
  return {
    output: { echo: call.input ?? null, callId: call.callId },
    model: 'demo-echo-1',
    toolsUsed: call.tools,
    usage,
  };
}

/** Registers the demo agents' endpoints; pass the API's API_KEY_PEPPER. */
export async function demoAgentRoutes(
  app: FastifyInstance,
  opts: { apiKeyPepper: string },
): Promise<void> {
  // Encapsulated: this parser, which keeps the raw body for the signature, is theirs alone.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    for (const agent of DEMO_AGENTS) {
      const secret = demoAgentSecret(opts.apiKeyPepper, agent.name);
      scope.post(
        `${DEMO_AGENT_PATH}/${agent.name}`,
        { config: { auth: 'none' }, schema: { hide: true } },
        async (request, reply) => {
          const raw = typeof request.body === 'string' ? request.body : '';
          if (!signatureValid(secret, request.headers['x-service-signature'], raw)) {
            return reply.code(401).send({ error: 'bad signature (run npm run seed again?)' });
          }
          return answer(agent, JSON.parse(raw) as CallBody);
        },
      );
    }
  });
}
