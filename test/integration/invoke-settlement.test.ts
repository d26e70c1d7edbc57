import { randomUUID } from 'node:crypto';
import type { Actor } from '../../api/access/actor';
import { Agent } from '../../shared/db/entities';
import { holdFlow } from '../../shared/flow/ledger';
import { settleCall } from '../../api/routes/marketplace/charges';
import { invokeAgent } from '../../api/routes/marketplace/invoke';
import { createOutboundClient } from '../../shared/net/outbound-client';
import { createKey, signIn, type SignedIn } from '../helpers/auth';
import { startAgentServer, type AgentServer } from '../helpers/agent-server';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';
import { fundFlow, microFlow } from '../helpers/flow';
import { invokeFixtures } from '../helpers/invoke-fixtures';

/**
 * Paid invocation (docs/spec/contract.md §6) when settling goes wrong: a settlement failing
 * part-way, and the notice of a key's moved spend failing after the charge committed.
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
const { balanceOf, linkToken, publishAgent, hitsOf } = invokeFixtures(test, () => ({
  agentServer,
  owner,
}));

// Quotas, spend periods and the trending window are UTC days: no test straddles midnight.
beforeEach(() => awaitFreshUtcDay(), freshDayHookTimeout());

describe('settlement', () => {
  it('a settlement that fails part-way leaves no ledger row, no balance change and the hold in place', async () => {
    const token = await linkToken(owner.userId);
    const { slug } = await publishAgent({
      monetization: 'per_call',
      perCallPriceFlow: 2,
      tokenSlug: token.slug,
    });
    const caller = await signIn(test.app);
    await fundFlow(test.ctx, caller.userId, 5);
    const em = test.ctx.deps.orm.em.fork();
    const agent = await em.findOneOrFail(Agent, { slug });
    const holdId = await holdFlow(
      em,
      caller.userId,
      microFlow(2),
      new Date(),
      new Date(Date.now() + 60_000),
    );
    const callId = randomUUID();
    // A call id that already exists makes the last insert of the settlement fail.
    await test.ctx.sql(
      `insert into agent_calls (id, agent_id, caller_id, status, latency_ms, created_at)
       values ($1, $2, $3, 'failed', 1, now())`,
      [callId, agent.id, caller.userId],
    );
    const ownerBefore = await balanceOf(owner.userId);
    await expect(
      settleCall(em, {
        callId,
        agent,
        callerId: caller.userId,
        apiKeyId: null,
        holdId,
        spend: null,
        lowBalanceThreshold: 0n,
        base: microFlow(2),
        tools: [],
        cost: microFlow(2),
        latencyMs: 5,
        model: null,
        inputTokens: 0,
        outputTokens: 0,
        now: new Date(),
      }),
    ).rejects.toThrow();
    expect(await test.ctx.sql('select 1 from ledger_entries where ref_id = $1', [callId])).toEqual(
      [],
    );
    expect(await balanceOf(caller.userId)).toEqual({ balance: microFlow(5), held: microFlow(2) });
    expect(await balanceOf(owner.userId)).toEqual(ownerBefore);
    const [pool] = await test.ctx.sql<{ holder_reward_pool: string }>(
      'select holder_reward_pool from tokens where id = $1',
      [token.id],
    );
    expect(pool!.holder_reward_pool).toBe('0');
    expect(await test.ctx.sql('select 1 from flow_holds where id = $1', [holdId])).toHaveLength(1);
  });
});

describe('after the charge commits', () => {
  it('a failing notice of the key spend is reported, not thrown: the call succeeds, charged and counted once', async () => {
    const { slug, path } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const caller = await signIn(test.app);
    await fundFlow(test.ctx, caller.userId, 3);
    const created = await createKey(test.app, caller, { name: 'late', spend_limit_flow: '5' });
    const key = await test.app.access.apiKeys.authenticate(created.key);
    expect(key?.id).toBe(created.id);
    const outbound = createOutboundClient({
      allowedHosts: ['127.0.0.1'],
      timeoutMs: 1500,
      maxResponseBytes: 1024 * 1024,
    });
    const lateErrors: unknown[] = [];
    try {
      const result = await invokeAgent(
        {
          em: test.ctx.deps.orm.em.fork(),
          outbound,
          timeoutMs: 1500,
          lowBalanceThreshold: 0n,
          onLateError: (error) => lateErrors.push(error),
          keySpendMoved: async () => {
            throw new Error('pub/sub unavailable');
          },
        },
        { userId: caller.userId, via: 'api_key', apiKey: key } as Actor,
        { slug, input: { text: 'late' } },
      );
      expect(result.body.costFlow).toBe(1);
      expect(result.keyCharge).toMatchObject({ cost: microFlow(1), spend: { used: microFlow(1) } });
    } finally {
      await outbound.close();
    }
    expect(lateErrors).toHaveLength(1);
    expect(hitsOf(path)).toBe(1);
    expect(await balanceOf(caller.userId)).toEqual({ balance: microFlow(2), held: 0n });
    // The key's spend settled in the charge's transaction, whatever happened after it.
    const [row] = await test.ctx.sql<{ spend_used: string }>(
      'select spend_used from api_keys where id = $1',
      [created.id],
    );
    expect(BigInt(row!.spend_used)).toBe(microFlow(1));
  });
});
