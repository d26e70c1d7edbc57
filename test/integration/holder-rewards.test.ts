import { randomUUID } from 'node:crypto';
import { parseEther, type Address, type PrivateKeyAccount } from 'viem';
import { ensureHolderRewardsSchedule } from '../../api/maintenance';
import { parseFlow } from '../../shared/domain/flow';
import { creditUser } from '../../shared/flow/ledger';
import {
  workflowIds,
  workflowTypes,
  type HolderRewardDistributionInput,
  type HolderRewardDistributionResult,
} from '../../shared/temporal';
import { signIn, type SignedIn } from '../helpers/auth';
import { startAgentServer, type AgentServer } from '../helpers/agent-server';
import { eventually } from '../helpers/chain';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';
import { useOwnChain } from '../helpers/launchpad';

/**
 * Holder rewards (docs/decisions.md "Holder rewards"): the 5 % holder share of paid
 * invocations of an agent linked to a token is distributed to the platform users holding the
 * token on chain, pro rata to their indexed balances; a holder who is not a user keeps its share
 * in the pool. Real chain, indexer, invocations and Temporal workflows.
 */

const world = useOwnChain({}, 'virtuals');

const micro = (flow: number): bigint => parseFlow(flow)!;

let agentServer: AgentServer;
let creator: PrivateKeyAccount;
let owner: SignedIn;
let caller: SignedIn;
let token: { id: string; slug: string };
let agentSlug: string;
/** Three holders of the token: a and b sign in (3:1), c never does (as much as b). */
let a: PrivateKeyAccount;
let b: PrivateKeyAccount;
let c: PrivateKeyAccount;
let aUser: SignedIn;
let bUser: SignedIn;
let today: string;

async function poolOf(tokenId: string): Promise<bigint> {
  const [row] = await world.ctx.sql<{ pool: string }>(
    'select holder_reward_pool::text as pool from tokens where id = $1',
    [tokenId],
  );
  return BigInt(row!.pool);
}

/** micro-FLOW credited to a user by holder rewards, per distribution id. */
async function rewardsOf(userId: number): Promise<Map<string, bigint>> {
  const rows = await world.ctx.sql<{ ref_id: string; delta: string; reason: string }>(
    `select ref_id, delta::text as delta, reason from ledger_entries
      where user_id = $1 and ref_type = 'holder_reward'`,
    [userId],
  );
  expect(rows.every((row) => row.reason === 'payout')).toBe(true);
  return new Map(rows.map((row) => [row.ref_id, BigInt(row.delta)]));
}

async function invokeTimes(count: number): Promise<void> {
  const replies = await Promise.all(
    Array.from({ length: count }, () =>
      world.app.inject({
        method: 'POST',
        url: `/agents/${agentSlug}/invoke`,
        headers: { cookie: caller.cookie },
        payload: { input: { text: 'hi' } },
      }),
    ),
  );
  for (const reply of replies) expect(reply.statusCode).toBe(200);
}

function runDistribution(period: string) {
  return world.ctx.deps.temporal.workflow.execute(workflowTypes.holderRewardDistribution, {
    workflowId: workflowIds.holderRewardDistribution(token.id, period),
    taskQueue: world.ctx.config.temporal.taskQueue,
    args: [{ tokenId: token.id, period } satisfies HolderRewardDistributionInput],
  }) as Promise<HolderRewardDistributionResult>;
}

beforeAll(
  async () => {
    await awaitFreshUtcDay(120_000);
    today = new Date().toISOString().slice(0, 10);
    agentServer = await startAgentServer();
    creator = await world.chain.funded();
    const created = await world.pad.createVirtuals(creator, 'HOLD', '1000000');
    const instance = await world.pad.launchAndWait(creator, created.slug, created.pendingLaunchTx);
    token = { id: created.id, slug: created.slug };

    // a buys, then keeps 3 parts of 5: one to b, one to c, and the odd remainder to the curve
    // (the factory holds the reserve and is no holder), so the balances are exactly 3:1:1.
    a = await world.pad.trader(parseEther('1000'));
    b = await world.chain.funded();
    c = await world.chain.funded();
    await world.pad.buy(a, instance, parseEther('100'));
    const bought = await world.chain.read<bigint>(instance, 'VirtualsToken', 'balanceOf', [
      a.address,
    ]);
    const part = bought / 5n;
    await world.chain.send(a, instance, 'VirtualsToken', 'transfer', [b.address, part]);
    await world.chain.send(a, instance, 'VirtualsToken', 'transfer', [c.address, part]);
    if (bought % 5n > 0n) {
      await world.chain.send(a, instance, 'VirtualsToken', 'transfer', [
        world.factory,
        bought % 5n,
      ]);
    }
    const last = await world.chain.reader.getBlockNumber();
    aUser = await signIn(world.app, a);
    bUser = await signIn(world.app, b);

    // An agent of the token's creator, linked to the token: 2 FLOW a call, 0.1 to the holders.
    owner = await signIn(world.app, creator);
    const path = `/agent/${randomUUID()}`;
    const agent = await world.app.inject({
      method: 'POST',
      url: '/agents',
      headers: { cookie: owner.cookie },
      payload: {
        name: 'Holder Agent',
        description: 'Pays its holders',
        endpointUrl: agentServer.url(path),
      },
    });
    expect(agent.statusCode).toBe(201);
    const { slug, endpointSecret } = agent.json<{ slug: string; endpointSecret: string }>();
    agentServer.setSecret(path, endpointSecret);
    agentSlug = slug;
    const published = await world.app.inject({
      method: 'POST',
      url: `/agents/${slug}/publish`,
      headers: { cookie: owner.cookie },
      payload: {
        tags: ['test'],
        monetization: 'per_call',
        perCallPriceFlow: 2,
        tokenSlug: token.slug,
      },
    });
    expect(published.statusCode).toBe(200);
    caller = await signIn(world.app);
    await world.ctx.deps.orm.em.fork().transactional((tx) =>
      creditUser(tx, caller.userId, micro(1000), {
        reason: 'topup',
        refType: 'credit',
        refId: randomUUID(),
        now: new Date(),
      }),
    );
    await world.pad.tradesAt(token.slug, last);
  },
  freshDayHookTimeout(120_000) + 60_000,
);

afterAll(async () => {
  await world.ctx.deps.temporal.workflow
    .getHandle(workflowIds.holderRewardsSchedule(world.ctx.config.temporal.taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  await agentServer?.close();
});

describe('holder rewards', () => {
  it('the daily schedule shares the pool 3:1 between the two users; the third holder’s share stays', async () => {
    await invokeTimes(7);
    expect(await poolOf(token.id)).toBe(micro(0.7));

    await ensureHolderRewardsSchedule(
      world.ctx.deps.temporal,
      world.ctx.config.temporal.taskQueue,
      {
        intervalSeconds: 1,
        roundsPerRun: 100,
      },
    );
    const handle = world.ctx.deps.temporal.workflow.getHandle(
      workflowIds.holderRewardDistribution(token.id, today),
    );
    const result = await eventually(
      () =>
        handle.result().catch(() => undefined) as Promise<
          HolderRewardDistributionResult | undefined
        >,
      30_000,
      'the scheduled distribution',
    );
    expect(result).toMatchObject({ credited: 2, creditedFlow: 0.56 });

    // Balances 3k : k : k, pool 0.7 FLOW: a 0.42, b 0.14, c (no user) keeps 0.14 in the pool.
    expect(await rewardsOf(aUser.userId)).toEqual(new Map([[result.distributionId, micro(0.42)]]));
    expect(await rewardsOf(bUser.userId)).toEqual(new Map([[result.distributionId, micro(0.14)]]));
    expect(await poolOf(token.id)).toBe(micro(0.14));

    const balance = await world.app.inject({
      method: 'GET',
      url: '/me/flow-balance',
      headers: { cookie: aUser.cookie },
    });
    expect(balance.json()).toMatchObject({
      balance: 0.42,
      breakdown: { holderRewardsTotal: 0.42 },
    });
    const detail = await world.pad.get<Record<string, unknown>>(`/tokens/${token.slug}`);
    expect(detail).toMatchObject({
      holderRewardPoolFlow: 0.14,
      lastHolderRewardDistribution: {
        id: result.distributionId,
        period: today,
        distributedFlow: 0.56,
        recipients: 2,
        completedAt: expect.any(String),
      },
    });
    const [distribution] = await world.ctx.sql<{ block_number: string; eligible: string }>(
      `select block_number::text, eligible_supply::text as eligible
         from holder_reward_distributions where id = $1`,
      [result.distributionId],
    );
    const at = BigInt(distribution!.block_number);
    const held = async (who: Address) =>
      world.chain.read<bigint>(detail.instance as Address, 'VirtualsToken', 'balanceOf', [who], at);
    expect(BigInt(distribution!.eligible)).toBe(
      (await held(a.address)) + (await held(b.address)) + (await held(c.address)),
    );
  });

  it('a second run of the same distribution credits nothing', async () => {
    const poolBefore = await poolOf(token.id);
    const aBefore = await rewardsOf(aUser.userId);
    const again = await runDistribution(today);
    expect(again).toMatchObject({ credited: 0, creditedFlow: 0 });
    expect(again.distributionId).toBe([...aBefore.keys()][0]);
    expect(await rewardsOf(aUser.userId)).toEqual(aBefore);
    expect(await poolOf(token.id)).toBe(poolBefore);
  });

  it('loses nothing to invocations running during a distribution', async () => {
    // c signs in: from now on its share is paid too (next day's distribution).
    const cUser = await signIn(world.app, c);
    const poolBefore = await poolOf(token.id);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const [result] = await Promise.all([runDistribution(tomorrow), invokeTimes(10)]);
    expect(result.distributionId).not.toBeNull();
    // One after another: the test's SQL client runs one query at a time.
    const credits: bigint[] = [];
    for (const user of [aUser, bUser, cUser]) {
      credits.push((await rewardsOf(user.userId)).get(result.distributionId!) ?? 0n);
    }
    const [toA, toB, toC] = credits;
    // Ten more calls added 1 FLOW to the pool, before or after the plan took its share.
    expect((await poolOf(token.id)) + toA! + toB! + toC!).toBe(poolBefore + micro(1));
    expect(toA).toBe(3n * toB!);
    expect(toC).toBe(toB);
    // The token's ledger adds up to its pool.
    const [ledger] = await world.ctx.sql<{ total: string }>(
      'select sum(delta)::text as total from ledger_entries where token_id = $1',
      [token.id],
    );
    expect(BigInt(ledger!.total)).toBe(await poolOf(token.id));
  });
});
