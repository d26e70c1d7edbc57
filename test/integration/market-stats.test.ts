import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { Client as PgClient } from 'pg';
import type { App } from '../../api/app';
import { parseFlow } from '../../shared/domain/flow';
import { creditUser } from '../../shared/flow/ledger';
import { signIn, type SignedIn } from '../helpers/auth';
import { startAgentServer, type AgentServer } from '../helpers/agent-server';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { marketStatsMismatches, pendingMarketNotes } from '../helpers/market-stats';

/**
 * The marketplace read model (`agent_market_stats`) stays exactly what its sources say: under
 * concurrent paid invocations, subscriptions and ratings through two API instances, concurrent
 * raw transactions from several connections, and a bulk insert of 50,000 calls.
 */

let agentServer: AgentServer;
let owner: SignedIn;

const test = useTestApp({
  env: { ...UNLIMITED_RATES, AGENT_CALL_TIMEOUT_MS: '5000' },
  apis: 2,
});
beforeAll(async () => {
  agentServer = await startAgentServer();
  owner = await signIn(test.app);
});
afterAll(async () => agentServer?.close());

// The day windows are UTC days: no test straddles midnight.
beforeEach(() => awaitFreshUtcDay(120_000), freshDayHookTimeout(120_000));

async function fund(userId: number, flow: number): Promise<void> {
  await test.ctx.deps.orm.em.fork().transactional((tx) =>
    creditUser(tx, userId, parseFlow(flow) ?? 0n, {
      reason: 'topup',
      refType: 'credit',
      refId: randomUUID(),
      now: new Date(),
    }),
  );
}

async function inject(
  via: App,
  method: 'GET' | 'POST',
  url: string,
  who?: SignedIn,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return via.inject({
    method,
    url,
    headers: who ? { cookie: who.cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

async function linkedToken(): Promise<string> {
  const id = randomUUID();
  const slug = `tok-${id.slice(0, 8)}`;
  const ticker = `T${id
    .slice(0, 5)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '0')}`;
  await test.ctx.sql(
    `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, params, state, created_at)
     values ($1, $2, $3, $4, $5, 'dpnm', 31337, '{}', 'live', now())`,
    [id, owner.userId, slug, `Token ${slug}`, ticker],
  );
  return slug;
}

/** Creates and publishes an agent of `owner` answering on the loopback agent server. */
async function publishAgent(publish: Record<string, unknown>) {
  const path = `/agent/${randomUUID()}`;
  const created = await inject(test.app, 'POST', '/agents', owner, {
    name: `Agent ${path.slice(-6)}`,
    description: 'Answers questions',
    tags: ['stats'],
    endpointUrl: agentServer.url(path),
  });
  expect(created.statusCode).toBe(201);
  const { id, slug, endpointSecret } = created.json<{
    id: string;
    slug: string;
    endpointSecret: string;
  }>();
  agentServer.setSecret(path, endpointSecret);
  const published = await inject(test.app, 'POST', `/agents/${slug}/publish`, owner, {
    tags: ['stats'],
    ...publish,
  });
  expect(published.statusCode).toBe(200);
  return { id, slug };
}

const TODAY = `(now() at time zone 'utc')::date`;

/**
 * A raw transaction on a connection of its own, paused between statements to interleave;
 * with `commitAt`, it waits until then to commit, so many transactions commit together.
 */
async function rawTransaction(statements: [string, unknown[]][], commitAt?: Date): Promise<void> {
  const client = new PgClient({ connectionString: test.ctx.config.databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    for (const [text, params] of statements) {
      await client.query(text, params);
      await client.query('select pg_sleep(0.02)');
    }
    if (commitAt) {
      await client.query(
        'select pg_sleep(greatest(0, extract(epoch from $1::timestamptz - clock_timestamp())))',
        [commitAt],
      );
    }
    await client.query('commit');
  } finally {
    await client.end();
  }
}

const insertCall = (agentId: string, callerId: number, latencyMs: number): [string, unknown[]] => [
  `insert into agent_calls (id, agent_id, caller_id, status, latency_ms, created_at)
   values ($1, $2, $3, 'succeeded', $4, now())`,
  [randomUUID(), agentId, callerId, latencyMs],
];

const addDaily = (agentId: string, calls: number, earnings: number): [string, unknown[]] => [
  `insert into agent_daily_stats (agent_id, day, calls, earnings) values ($1, ${TODAY}, $2, $3)
   on conflict (agent_id, day) do update set calls = agent_daily_stats.calls + excluded.calls,
     earnings = agent_daily_stats.earnings + excluded.earnings`,
  [agentId, calls, earnings],
];

const rate = (agentId: string, raterId: number, rating: number): [string, unknown[]] => [
  `insert into agent_ratings (agent_id, rater_id, rating, created_at, updated_at)
   values ($1, $2, $3, now(), now())
   on conflict (agent_id, rater_id) do update set rating = excluded.rating`,
  [agentId, raterId, rating],
];

describe('agent_market_stats under concurrent writers', () => {
  it('stays equal to a recomputation from source after concurrent invocations, subscriptions, ratings and raw transactions', async () => {
    const perCall = await publishAgent({
      monetization: 'per_call',
      perCallPriceFlow: 1,
      tokenSlug: await linkedToken(),
    });
    const hybrid = await publishAgent({
      monetization: 'hybrid',
      perCallPriceFlow: 0.5,
      subscriptionFlowPerMonth: 2,
    });
    const callers = await Promise.all(Array.from({ length: 8 }, () => signIn(test.app)));
    for (const caller of callers) await fund(caller.userId, 100);

    // Round 1: every caller has a succeeded call of both agents (so it may rate them).
    const first = await Promise.all(
      callers.flatMap((caller, i) =>
        [perCall, hybrid].map((agent) =>
          inject(i % 2 ? test.other : test.app, 'POST', `/agents/${agent.slug}/invoke`, caller, {
            input: { text: 'warm up', delayMs: 5 * i },
          }),
        ),
      ),
    );
    expect(first.map((response) => response.statusCode)).toEqual(first.map(() => 200));

    // Round 2, all at once: 40 invocations, 4 subscriptions, 16 ratings (each rater twice,
    // the second replacing the first), and raw transactions that touch the same agents in
    // opposite orders from four more connections.
    const requests: Promise<LightMyRequestResponse>[] = [];
    callers.forEach((caller, i) => {
      const via = i % 2 ? test.other : test.app;
      for (let n = 0; n < 3; n++) {
        requests.push(
          inject(via, 'POST', `/agents/${perCall.slug}/invoke`, caller, {
            input: { delayMs: (7 * i + 3 * n) % 25 },
          }),
        );
      }
      for (let n = 0; n < 2; n++) {
        requests.push(
          inject(via, 'POST', `/agents/${hybrid.slug}/invoke`, caller, {
            input: { delayMs: (5 * i + n) % 20 },
          }),
        );
      }
      if (i < 4) requests.push(inject(via, 'POST', `/agents/${hybrid.slug}/subscribe`, caller));
      for (const [agent, rating] of [
        [perCall, 1 + (i % 5)],
        [hybrid, 5 - (i % 5)],
      ] as const) {
        requests.push(
          inject(via, 'POST', `/agents/${agent.slug}/rating`, caller, { rating: 3 }).then(() =>
            inject(via, 'POST', `/agents/${agent.slug}/rating`, caller, { rating }),
          ),
        );
      }
    });
    const [a, b] = [perCall.id, hybrid.id];
    const [u0, u1, u2, u3] = callers.map((caller) => caller.userId) as [
      number,
      number,
      number,
      number,
    ];
    const raw = [
      rawTransaction([insertCall(a, u0, 40), insertCall(b, u0, 4000), addDaily(a, 2, 5)]),
      rawTransaction([insertCall(b, u1, 41), insertCall(a, u1, 4100), addDaily(b, 1, 7)]),
      rawTransaction([rate(a, u2, 2), rate(b, u2, 4), insertCall(a, u2, 42)]),
      rawTransaction([rate(b, u3, 1), rate(a, u3, 5), insertCall(b, u3, 43)]),
    ];
    const responses = await Promise.all(requests);
    await Promise.all(raw);
    // No deadlock, no failed settlement: every request got its answer.
    expect(responses.map((response) => response.statusCode)).toEqual(responses.map(() => 200));

    expect(await marketStatsMismatches(test.ctx)).toEqual([]);
    expect(await pendingMarketNotes(test.ctx)).toBe(0);
    // And the API shows it: 8 + 24 invocations of the per-call agent, + 2 in a raw daily row.
    const detail = await inject(test.app, 'GET', `/marketplace/agents/${perCall.slug}`);
    expect(detail.json<{ stats: { callsLast30d: number } }>().stats.callsLast30d).toBe(34);
  }, 120_000);

  it('stays exact when a dozen transactions rate and call one agent and commit together', async () => {
    const agent = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const raters = await test.ctx.sql<{ id: number }>(
      `insert into users (address)
       select '0x' || lpad(to_hex(i), 40, 'c') from generate_series(1, 12) as i returning id`,
    );
    // No row lock is shared between them: without the summary row lock their recomputations
    // would run side by side, each blind to the others' commits.
    const commitAt = new Date(Date.now() + 1500);
    await Promise.all(
      raters.map((rater, i) =>
        rawTransaction(
          [rate(agent.id, rater.id, 1 + (i % 5)), insertCall(agent.id, rater.id, 100 + 37 * i)],
          commitAt,
        ),
      ),
    );
    const [row] = await test.ctx.sql(
      'select rating_count, p50_latency_ms from agent_market_stats where agent_id = $1',
      [agent.id],
    );
    expect(row).toEqual({ rating_count: 12, p50_latency_ms: 100 + Math.round(37 * 5.5) });
    expect(await marketStatsMismatches(test.ctx)).toEqual([]);
  });

  it('notes only what committed: a rolled-back savepoint leaves no trace', async () => {
    const agent = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const rater = await signIn(test.app);
    const client = new PgClient({ connectionString: test.ctx.config.databaseUrl });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(...insertCall(agent.id, rater.userId, 120));
      await client.query('savepoint s');
      await client.query(...rate(agent.id, rater.userId, 5));
      await client.query(...addDaily(agent.id, 9, 9));
      await client.query('rollback to savepoint s');
      await client.query(...addDaily(agent.id, 1, 0));
      await client.query('commit');
    } finally {
      await client.end();
    }
    const [row] = await test.ctx.sql(
      `select calls_7d::int, p50_latency_ms, rating_count from agent_market_stats
        where agent_id = $1`,
      [agent.id],
    );
    expect(row).toEqual({ calls_7d: 1, p50_latency_ms: 120, rating_count: 0 });
    expect(await marketStatsMismatches(test.ctx)).toEqual([]);
    expect(await pendingMarketNotes(test.ctx)).toBe(0);
  });

  it('follows raw changes of the agent row: unpublish, tags, delete', async () => {
    const agent = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const listed = async (query: string) =>
      (await inject(test.app, 'GET', `/marketplace/agents?limit=100&${query}`))
        .json<{ items: { slug: string }[] }>()
        .items.map((item) => item.slug);
    expect(await listed('sort=new&tag=stats')).toContain(agent.slug);

    await test.ctx.sql(`update agents set tags = '{renamed}' where id = $1`, [agent.id]);
    expect(await listed('sort=new&tag=stats')).not.toContain(agent.slug);
    expect(await listed('sort=new&tag=renamed')).toEqual([agent.slug]);

    await test.ctx.sql('update agents set is_published = false where id = $1', [agent.id]);
    expect(await listed('sort=new&tag=renamed')).toEqual([]);

    await test.ctx.sql('delete from agents where id = $1', [agent.id]);
    expect(
      await test.ctx.sql('select 1 from agent_market_stats where agent_id = $1', [agent.id]),
    ).toEqual([]);
    expect(await marketStatsMismatches(test.ctx)).toEqual([]);
  });
});

describe('agent_market_stats under bulk inserts', () => {
  it('absorbs 50,000 calls for 500 agents in one statement, in seconds, exactly', async () => {
    const raters = await test.ctx.sql<{ id: number }>(
      `insert into users (address)
       select '0x' || lpad(to_hex(i), 40, 'b') from generate_series(1, 20) as i returning id`,
    );
    await test.ctx.sql(
      `insert into agents (id, owner_id, slug, name, description, tags, endpoint_url,
                           endpoint_secret, monetization, per_call_price, is_published,
                           published_at, created_at, updated_at)
       select gen_random_uuid(), $1, 'bulk-' || i, 'Bulk ' || i, 'd', '{bulk}',
              'https://agent.example.com', 'whsec_x', 'per_call', 1000, i % 10 <> 0,
              now() - make_interval(mins => i), now(), now()
         from generate_series(1, 500) as i`,
      [owner.userId],
    );
    await test.ctx.sql(
      `insert into agent_daily_stats (agent_id, day, calls, earnings)
       select a.id, ${TODAY} - d, hashtext(a.slug || d) & 63, (hashtext(a.slug || d) & 1023) * 1000
         from agents a, generate_series(0, 31) as d where a.slug like 'bulk-%'`,
    );
    const started = Date.now();
    await test.ctx.sql(
      `insert into agent_calls (id, agent_id, caller_id, status, latency_ms, created_at)
       select gen_random_uuid(), a.id, $1,
              case when g % 7 = 0 then 'failed' else 'succeeded' end,
              10 + (hashtext(a.slug || g) & 1023),
              now() - make_interval(secs => g * 26000)
         from agents a, generate_series(1, 100) as g where a.slug like 'bulk-%'`,
      [raters[0]?.id],
    );
    const elapsedMs = Date.now() - started;
    await test.ctx.sql(
      `insert into agent_ratings (agent_id, rater_id, rating, created_at, updated_at)
       select a.id, u.id, 1 + (hashtext(a.slug || u.id) & 3), now(), now()
         from agents a, users u
        where a.slug like 'bulk-%' and u.id = any($1::int[]) and hashtext(a.slug || u.id) & 1 = 0`,
      [raters.map((rater) => rater.id)],
    );
    // Seconds, not minutes (about 2 s on 2 shared cores; the bound leaves room for load).
    expect(elapsedMs).toBeLessThan(30_000);
    expect(await marketStatsMismatches(test.ctx)).toEqual([]);
    expect(await pendingMarketNotes(test.ctx)).toBe(0);

    // The listing's order is the order of the figures, for every sort.
    const orders: Record<string, string> = {
      trending: 's.calls_7d desc, s.published_at desc, s.agent_id desc',
      top_earning: 's.earnings_30d desc, s.published_at desc, s.agent_id desc',
      top_rated: 's.rating_avg desc, s.rating_count desc, s.agent_id desc',
      new: 's.published_at desc, s.agent_id desc',
    };
    for (const [sort, order] of Object.entries(orders)) {
      const expected = await test.ctx.sql<{ slug: string }>(
        `select a.slug from agent_market_stats s join agents a on a.id = s.agent_id
          where s.is_published and s.tags @> '{bulk}' order by ${order} limit 30`,
      );
      const page = await inject(
        test.app,
        'GET',
        `/marketplace/agents?tag=bulk&sort=${sort}&limit=30`,
      );
      expect(page.json<{ items: { slug: string }[] }>().items.map((item) => item.slug)).toEqual(
        expected.map((row) => row.slug),
      );
    }
  }, 120_000);
});
