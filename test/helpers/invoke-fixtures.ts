import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../api/app';
import type { AgentInstruction, AgentServer } from './agent-server';
import type { SignedIn } from './auth';
import type { TestApp } from './context';

/**
 * Paid invocation as the split invoke-*.test.ts files drive it: the wire shapes, agents
 * published on the file's loopback agent server, calls and the balances and ledger they leave.
 */

export interface Envelope {
  error: { code: string; message: string };
}

export interface CallResult {
  callId: string;
  output: { echo: string | null; callId: string };
  model: string | null;
  toolsUsed: string[];
  usage: { inputTokens: number; outputTokens: number };
  costFlow: number;
}

export interface AgentSpec {
  monetization: 'per_call' | 'subscription' | 'hybrid' | 'freemium';
  perCallPriceFlow?: number;
  subscriptionFlowPerMonth?: number;
  freemiumDailyCalls?: number;
  tools?: { tool: string; perCallFlow: number }[];
  tokenSlug?: string;
}

/** The helpers of one test file, bound to its world, its agent server and its agent owner. */
export function invokeFixtures(
  test: TestApp,
  world: () => { agentServer: AgentServer; owner: SignedIn },
) {
  async function balanceOf(userId: number): Promise<{ balance: bigint; held: bigint }> {
    const [row] = await test.ctx.sql<{ balance: string; held: string }>(
      'select balance, held from flow_accounts where user_id = $1',
      [userId],
    );
    return { balance: BigInt(row?.balance ?? 0), held: BigInt(row?.held ?? 0) };
  }

  async function ledgerOf(userId: number) {
    return test.ctx.sql<{ delta: string; reason: string; ref_type: string; ref_id: string }>(
      'select delta, reason, ref_type, ref_id from ledger_entries where user_id = $1 order by created_at, id',
      [userId],
    );
  }

  async function linkToken(ownerId: number): Promise<{ id: string; slug: string }> {
    const id = randomUUID();
    const slug = `tok-${id.slice(0, 8)}`;
    await test.ctx.sql(
      `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, params, state, created_at)
       values ($1, $2, $3, $4, $5, 'dpnm', 31337, '{}', 'live', now())`,
      [
        id,
        ownerId,
        slug,
        `Token ${slug}`,
        `T${id
          .slice(0, 5)
          .toUpperCase()
          .replace(/[^A-Z0-9]/g, '0')}`,
      ],
    );
    return { id, slug };
  }

  /** Creates, prices and publishes an agent of `owner`; returns its slug and endpoint path. */
  async function publishAgent(spec: AgentSpec, by: SignedIn = world().owner) {
    const path = `/agent/${randomUUID()}`;
    const created = await test.app.inject({
      method: 'POST',
      url: '/agents',
      headers: { cookie: by.cookie },
      payload: {
        name: `Agent ${path.slice(-6)}`,
        description: 'Answers questions',
        tags: ['test'],
        endpointUrl: world().agentServer.url(path),
      },
    });
    expect(created.statusCode).toBe(201);
    const { slug, endpointSecret } = created.json<{ slug: string; endpointSecret: string }>();
    world().agentServer.setSecret(path, endpointSecret);
    if (spec.tools) {
      const priced = await test.app.inject({
        method: 'POST',
        url: `/agents/${slug}/tool-prices`,
        headers: { cookie: by.cookie },
        payload: { tools: spec.tools },
      });
      expect(priced.statusCode).toBe(200);
    }
    const publish: Record<string, unknown> = { ...spec };
    delete publish.tools;
    const published = await test.app.inject({
      method: 'POST',
      url: `/agents/${slug}/publish`,
      headers: { cookie: by.cookie },
      payload: { tags: ['test'], ...publish },
    });
    expect(published.statusCode).toBe(200);
    return { slug, path };
  }

  function invoke(
    slug: string,
    caller: { cookie?: string; key?: string },
    input: AgentInstruction,
    tools?: string[],
    via: App = test.app,
  ): Promise<LightMyRequestResponse> {
    return via.inject({
      method: 'POST',
      url: `/agents/${slug}/invoke`,
      headers: caller.key ? { 'x-api-key': caller.key } : { cookie: caller.cookie ?? '' },
      payload: tools ? { input, tools } : { input },
    });
  }

  function hitsOf(path: string): number {
    return world().agentServer.calls.filter((call) => call.path === path).length;
  }

  return { balanceOf, ledgerOf, linkToken, publishAgent, invoke, hitsOf };
}
