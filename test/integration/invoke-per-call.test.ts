import type { App } from '../../api/app';
import { createKey, signIn, type SignedIn } from '../helpers/auth';
import { startAgentServer, type AgentInstruction, type AgentServer } from '../helpers/agent-server';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';
import { fundFlow, microFlow } from '../helpers/flow';
import { type Envelope, type CallResult, invokeFixtures } from '../helpers/invoke-fixtures';

/**
 * Paid invocation (docs/spec/contract.md §6) end to end, per_call agents: a real agent endpoint
 * on loopback, real PostgreSQL balances and ledger, two API instances for the concurrency
 * cases, idempotent retries and API-key spend caps.
 */

let agentServer: AgentServer;
let owner: SignedIn;

const test = useTestApp({
  env: { ...UNLIMITED_RATES, AGENT_CALL_TIMEOUT_MS: '1500' },
  apis: 2,
});
beforeAll(async () => {
  agentServer = await startAgentServer();
  owner = await signIn(test.app);
});
afterAll(async () => agentServer?.close());
const { balanceOf, ledgerOf, linkToken, publishAgent, invoke, hitsOf } = invokeFixtures(
  test,
  () => ({ agentServer, owner }),
);

// Quotas, spend periods and the trending window are UTC days: no test straddles midnight.
beforeEach(() => awaitFreshUtcDay(), freshDayHookTimeout());

describe('per_call', () => {
  it('charges the price plus the tools used, splits 95/5 with the token pool, and signs the call', async () => {
    const token = await linkToken(owner.userId);
    const { slug, path } = await publishAgent({
      monetization: 'per_call',
      perCallPriceFlow: 2,
      tools: [
        { tool: 'web_search', perCallFlow: 0.5 },
        { tool: 'code_interpreter', perCallFlow: 0.25 },
      ],
      tokenSlug: token.slug,
    });
    const caller = await signIn(test.app);
    await fundFlow(test.ctx, caller.userId, 10);
    const ownerBefore = await balanceOf(owner.userId);

    const response = await invoke(slug, caller, { text: 'hi', toolsUsed: ['web_search'] });
    expect(response.statusCode).toBe(200);
    const result = response.json<CallResult>();
    expect(result).toMatchObject({
      output: { echo: 'hi' },
      model: 'test-model-1',
      toolsUsed: ['web_search'],
      usage: { inputTokens: 11, outputTokens: 7 },
      costFlow: 2.5,
    });

    const call = agentServer.calls.find((received) => received.path === path)!;
    expect(call.signatureValid).toBe(true);
    expect(call.body).toEqual({
      callId: result.callId,
      input: { text: 'hi', toolsUsed: ['web_search'] },
      tools: expect.arrayContaining(['web_search', 'code_interpreter', 'git']) as unknown,
    });
    expect(call.headers['webhook-id']).toBe(result.callId);

    expect((await balanceOf(caller.userId)).balance).toBe(microFlow(7.5));
    expect((await balanceOf(owner.userId)).balance - ownerBefore.balance).toBe(microFlow(2.375));
    const [pool] = await test.ctx.sql<{ holder_reward_pool: string }>(
      'select holder_reward_pool from tokens where id = $1',
      [token.id],
    );
    expect(BigInt(pool!.holder_reward_pool)).toBe(microFlow(0.125));

    // The ledger shows the whole movement: −2.5 caller, +2.375 owner, +0.125 holders.
    const rows = await test.ctx.sql<{
      user_id: number | null;
      token_id: string | null;
      delta: string;
    }>(
      `select user_id, token_id, delta from ledger_entries
       where ref_type = 'agent_call' and ref_id = $1 order by delta`,
      [result.callId],
    );
    expect(rows.map((row) => BigInt(row.delta))).toEqual([
      -microFlow(2.5),
      microFlow(0.125),
      microFlow(2.375),
    ]);
    expect(rows.reduce((sum, row) => sum + BigInt(row.delta), 0n)).toBe(0n);
    expect(rows[0]!.user_id).toBe(caller.userId);
    expect(rows[1]!.token_id).toBe(token.id);
    expect(rows[2]!.user_id).toBe(owner.userId);
  });

  it('stacks every tool used on the base price; without a token the owner gets everything', async () => {
    const { slug } = await publishAgent({
      monetization: 'per_call',
      perCallPriceFlow: 1,
      tools: [
        { tool: 'web_search', perCallFlow: 0.5 },
        { tool: 'browser', perCallFlow: 0.3 },
      ],
    });
    const caller = await signIn(test.app);
    await fundFlow(test.ctx, caller.userId, 5);
    const ownerBefore = (await balanceOf(owner.userId)).balance;
    const response = await invoke(slug, caller, { toolsUsed: ['web_search', 'browser', 'git'] });
    expect(response.json<CallResult>().costFlow).toBe(1.8);
    expect((await balanceOf(caller.userId)).balance).toBe(microFlow(3.2));
    expect((await balanceOf(owner.userId)).balance - ownerBefore).toBe(microFlow(1.8));
  });

  it('refuses with 402 insufficient_flow before calling the agent', async () => {
    const { slug, path } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 2 });
    const caller = await signIn(test.app);
    await fundFlow(test.ctx, caller.userId, 1);
    const response = await invoke(slug, caller, {});
    expect(response.statusCode).toBe(402);
    expect(response.json<Envelope>()).toEqual({
      error: { code: 'insufficient_flow', message: expect.any(String) as unknown },
    });
    expect(hitsOf(path)).toBe(0);
    expect(await balanceOf(caller.userId)).toEqual({ balance: microFlow(1), held: 0n });
  });

  it('holds the most a call can cost: all permitted tool prices must be covered', async () => {
    const { slug, path } = await publishAgent({
      monetization: 'per_call',
      perCallPriceFlow: 1,
      tools: [{ tool: 'shell', perCallFlow: 5 }],
    });
    const caller = await signIn(test.app);
    await fundFlow(test.ctx, caller.userId, 2);
    expect((await invoke(slug, caller, {})).statusCode).toBe(402);
    expect(hitsOf(path)).toBe(0);
    // Not permitting the expensive tool makes the call affordable.
    const narrowed = await invoke(slug, caller, {}, ['web_search']);
    expect(narrowed.statusCode).toBe(200);
    expect((await balanceOf(caller.userId)).balance).toBe(microFlow(1));
  });

  it('charges nothing when the agent fails, times out, answers badly or uses an unpermitted tool', async () => {
    const { slug, path } = await publishAgent({
      monetization: 'per_call',
      perCallPriceFlow: 1,
      tools: [{ tool: 'web_search', perCallFlow: 1 }],
    });
    const caller = await signIn(test.app);
    await fundFlow(test.ctx, caller.userId, 5);
    const cases: [AgentInstruction, string[] | undefined, number, string][] = [
      [{ status: 500 }, undefined, 502, 'agent_failed'],
      [{ raw: 'not json' }, undefined, 502, 'agent_failed'],
      [{ raw: '{"model":"m"}' }, undefined, 502, 'agent_failed'],
      // Text PostgreSQL cannot store: refused before any write, not a 500 after the charge.
      [{ raw: '{"output":"ok","model":"m\\u0000x"}' }, undefined, 502, 'agent_failed'],
      [{ raw: '{"output":{"text":"\\ud800"}}' }, undefined, 502, 'agent_failed'],
      [{ toolsUsed: ['web_search'] }, ['browser'], 502, 'agent_failed'],
      [{ delayMs: 3000 }, undefined, 504, 'agent_timeout'],
    ];
    for (const [input, tools, status, code] of cases) {
      const response = await invoke(slug, caller, input, tools);
      expect({
        input,
        status: response.statusCode,
        code: response.json<Envelope>().error.code,
      }).toEqual({
        input,
        status,
        code,
      });
    }
    expect(hitsOf(path)).toBe(cases.length);
    expect(await balanceOf(caller.userId)).toEqual({ balance: microFlow(5), held: 0n });
    expect((await ledgerOf(caller.userId)).filter((row) => row.reason === 'call')).toEqual([]);
    const [failed] = await test.ctx.sql<{ count: string }>(
      `select count(*) from agent_calls a join agents g on g.id = a.agent_id
       where g.slug = $1 and a.status = 'failed'`,
      [slug],
    );
    expect(Number(failed!.count)).toBe(cases.length);
  });

  it('20 concurrent calls on a balance for 10 across two instances: exactly 10 succeed', async () => {
    const { slug, path } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const caller = await signIn(test.app);
    await fundFlow(test.ctx, caller.userId, 10);
    const ownerBefore = (await balanceOf(owner.userId)).balance;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        invoke(slug, caller, {}, undefined, i % 2 ? test.other : test.app),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 402)).toHaveLength(10);
    for (const response of responses.filter((r) => r.statusCode === 402)) {
      expect(response.json<Envelope>().error.code).toBe('insufficient_flow');
    }
    expect(hitsOf(path)).toBe(10);
    expect(await balanceOf(caller.userId)).toEqual({ balance: 0n, held: 0n });
    const ledger = await ledgerOf(caller.userId);
    expect(ledger.reduce((sum, row) => sum + BigInt(row.delta), 0n)).toBe(0n);
    expect(ledger.filter((row) => row.reason === 'call')).toHaveLength(10);
    expect((await balanceOf(owner.userId)).balance - ownerBefore).toBe(microFlow(10));
  });

  it('a retried invoke with the same Idempotency-Key is answered from the record: one call, one charge', async () => {
    const { slug, path } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const caller = await signIn(test.app);
    await fundFlow(test.ctx, caller.userId, 5);
    const send = (via: App) =>
      via.inject({
        method: 'POST',
        url: `/agents/${slug}/invoke`,
        headers: { cookie: caller.cookie, 'idempotency-key': `invoke-${slug}` },
        payload: { input: { text: 'once' } },
      });
    const first = await send(test.app);
    const replay = await send(test.other);
    expect(first.statusCode).toBe(200);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json<CallResult>().callId).toBe(first.json<CallResult>().callId);
    expect(hitsOf(path)).toBe(1);
    expect((await balanceOf(caller.userId)).balance).toBe(microFlow(4));
  });

  it('an API key capped below the cost gets 402 spend_limit_reached and the agent is not called', async () => {
    const { slug, path } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 2 });
    const caller = await signIn(test.app);
    await fundFlow(test.ctx, caller.userId, 10);
    const key = await createKey(test.app, caller, { name: 'capped', spend_limit_flow: '1.5' });
    const response = await invoke(slug, { key: key.key }, {});
    expect(response.statusCode).toBe(402);
    expect(response.json<Envelope>().error.code).toBe('spend_limit_reached');
    expect(hitsOf(path)).toBe(0);
    expect((await balanceOf(caller.userId)).balance).toBe(microFlow(10));
  });

  it('a key call counts toward its cap, sends X-FLOW-Cost and lands in usage by_model', async () => {
    const { slug } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 0.75 });
    const caller = await signIn(test.app);
    await fundFlow(test.ctx, caller.userId, 10);
    const key = await createKey(test.app, caller, { name: 'metered', spend_limit_flow: '5' });
    const response = await invoke(slug, { key: key.key }, { model: 'gpt-test' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-flow-cost']).toBe('0.75');
    expect(response.headers['x-flow-period-used']).toBe('0.75');
    const usage = await test.app.inject({
      method: 'GET',
      url: `/me/api-keys/${key.id}/usage`,
      headers: { cookie: caller.cookie },
    });
    expect(usage.json<{ by_model: unknown[] }>().by_model).toEqual([
      { model: 'gpt-test', requests: 1, flow_spent: 0.75, input_tokens: 11, output_tokens: 7 },
    ]);
  });
});
