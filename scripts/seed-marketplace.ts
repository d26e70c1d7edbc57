import { Client as PgClient } from 'pg';
import { loadConfig, requireDatabaseUrl } from '../shared/config';
import { initOrm, migrate } from '../shared/db/orm';
import { apiKeyPrefix, generateApiKey, hashApiKey } from '../shared/domain/api-key';

/**
 * A marketplace to read from (`npm run seed:bench`, and bench/hot-reads.ts): users, tokens,
 * published agents with tags, prices, tool prices and linked tokens, calls spread over 31 days
 * (succeeded and failed, a long latency tail, a few popular agents), the daily stats those calls
 * add up to, ratings, and a caller with API keys and a ledger.
 *
 * Every table is filled by one or a few `insert … select … from generate_series(…)`
 * statements in one transaction, so the large set takes seconds and statement-level triggers
 * (a summary table kept by them) see each table change once. Values are pseudo-random but
 * repeatable (`setseed`). The caller's key is hashed with the API's pepper, exactly as the key
 * store hashes (`hashApiKey`), so the API started with that pepper accepts it.
 */

export interface SeedSize {
  users: number;
  tokens: number;
  agents: number;
  calls: number;
  /** Ledger entries of the caller. */
  ledger: number;
}

export const SEED_SIZES = {
  small: { users: 200, tokens: 100, agents: 200, calls: 20_000, ledger: 500 },
  large: { users: 2_000, tokens: 1_000, agents: 5_000, calls: 500_000, ledger: 500 },
} as const satisfies Record<string, SeedSize>;

export type SeedSizeName = keyof typeof SEED_SIZES;

/** What a client of the seeded data needs: a key that works and names that exist. */
export interface SeededMarketplace {
  callerId: number;
  /** Raw API key of the caller (`x-api-key`); counts against the caller's user bucket. */
  apiKey: string;
  /** A published agent with a linked token, tool prices, calls and ratings. */
  agentSlug: string;
  tokenSlug: string;
  /** A search text that finds agents and tokens (a name prefix). */
  searchText: string;
  counts: Record<string, number>;
}

/** Names are `<word> <role> <n>`: each word starts 1/16 of agent and token names. */
// prettier-ignore
const WORDS = [
  'Nova', 'Atlas', 'Echo', 'Quant', 'Orbit', 'Pixel', 'Sage', 'Vertex',
  'Cipher', 'Lumen', 'Pulse', 'Drift', 'Forge', 'Helix', 'Nimbus', 'Zephyr',
];
const ROLES = ['Research', 'Trader', 'Analyst', 'Writer', 'Coder', 'Scout', 'Guide', 'Oracle'];
const TAGS = ['research', 'trading', 'defi', 'nft', 'social', 'coding', 'data', 'support'];
const TOOLS = ['web_search', 'web_fetch', 'code_interpreter', 'image_generation', 'browser'];
const MICRO = 1_000_000;

const sqlArray = (items: readonly string[]) => `array[${items.map((w) => `'${w}'`).join(',')}]`;
const pick = (items: readonly string[], index: string) =>
  `(${sqlArray(items)})[1 + (${index}) % ${items.length}]`;

/** Statements in order; `$1`, where a statement has it, is the caller's user id. */
function statements(size: SeedSize): string[] {
  const users = `(select array_agg(id order by id) as ids from users) u`;
  return [
    `insert into users (address, created_at)
     select '0x' || lpad(to_hex(i), 40, '0'), now() - interval '90 days'
       from generate_series(1, ${size.users}) i`,

    `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, instance, image_url,
                         brief, params, state, holder_reward_pool, created_at)
     select gen_random_uuid(), u.ids[1 + i % cardinality(u.ids)], 'token-' || i,
            ${pick(WORDS, 'i')} || ' Coin ' || i, 'T' || upper(lpad(to_hex(i), 5, '0')),
            case when i % 2 = 0 then 'virtuals' else 'dpnm' end, 31337,
            case when i % 3 <> 0 then '0x' || lpad(to_hex(1000000 + i), 40, '0') end,
            'https://img.example.com/tokens/' || i || '.png',
            'A token for benchmarks, number ' || i,
            case when i % 2 = 0
                 then '{"graduationThreshold":"42000","initialBuy":"0"}'::jsonb
                 else '{"initialPrice":"0.01","dailyLimitFloor":"50","incomeLimitMultiplier":3,"treeActivationCost":"10"}'::jsonb
            end,
            (${sqlArray(['live', 'live', 'live', 'graduating', 'sentient', 'pending'])})[1 + i % 6],
            (i % 50) * ${MICRO}, now() - interval '60 days' + i * interval '1 minute'
       from generate_series(1, ${size.tokens}) i, ${users}`,

    // 90 % published (the last 10 % drafts); half the agents link a token; four models.
    `insert into agents (id, owner_id, slug, name, description, tags, image_url, endpoint_url,
                         endpoint_secret, monetization, per_call_price, subscription_price,
                         freemium_daily_calls, token_id, is_published, published_at,
                         created_at, updated_at)
     select gen_random_uuid(), u.ids[1 + (i * 7) % cardinality(u.ids)], 'agent-' || i,
            ${pick(WORDS, 'i')} || ' ' || ${pick(ROLES, 'i / 16')} || ' ' || i,
            'An agent for benchmarks: it answers questions about topic ' || i || '.',
            array[${pick(TAGS, 'i')}, ${pick(TAGS, 'i / 8 + 1')}],
            'https://img.example.com/agents/' || i || '.png',
            'https://agents.example.com/' || i || '/invoke', md5('secret' || i),
            m.model,
            case when m.model in ('per_call', 'hybrid', 'freemium') then (1 + i % 20) * ${MICRO / 10} end,
            case when m.model in ('subscription', 'hybrid') then (5 + i % 10) * ${MICRO} end,
            case when m.model = 'freemium' then 5 end,
            case when i % 2 = 0 then t.ids[1 + i % cardinality(t.ids)] end,
            i % 10 <> 0,
            case when i % 10 <> 0 then now() - interval '45 days' + i * interval '7 seconds' end,
            now() - interval '50 days' + i * interval '7 seconds', now()
       from generate_series(1, ${size.agents}) i
       cross join lateral (select (array['per_call', 'subscription', 'hybrid', 'freemium'])[1 + i % 4] as model) m,
            ${users}, (select array_agg(id order by created_at) as ids from tokens) t`,

    `insert into agent_tool_prices (agent_id, tool, price)
     select a.id, ${pick(TOOLS, 'n + k')}, (k + 1) * ${MICRO / 20}
       from (select id, (row_number() over (order by slug))::int as n from agents) a,
            generate_series(0, 1) k
      where a.n % 3 = 0`,

    // Calls go to published agents, skewed (a few popular ones), over the last 31 × 24 h.
    `insert into agent_calls (id, agent_id, caller_id, status, error, latency_ms, cost,
                              tools_used, free, created_at)
     select gen_random_uuid(), c.agent_id, u.ids[1 + c.i % cardinality(u.ids)],
            case when c.ok then 'succeeded' else 'failed' end,
            case when not c.ok then 'agent endpoint answered 502' end,
            (40 + 3000 * power(random(), 3))::int,
            case when c.ok then coalesce(a.per_call_price, 0) else 0 end,
            case when c.i % 5 = 0 then array['web_search'] else '{}' end, false,
            now() - random() * interval '31 days'
       from (select i, random() > 0.08 as ok,
                    p.ids[least(cardinality(p.ids), 1 + floor(cardinality(p.ids) * power(random(), 2))::int)] as agent_id
               from generate_series(1, ${size.calls}) i,
                    (select array_agg(id order by slug) as ids from agents where is_published) p) c
       join agents a on a.id = c.agent_id, ${users}`,

    // The daily figures are what the calls add up to (succeeded calls, FLOW billed).
    `insert into agent_daily_stats (agent_id, day, calls, earnings)
     select agent_id, (created_at at time zone 'UTC')::date,
            count(*) filter (where status = 'succeeded'), sum(cost)
       from agent_calls group by 1, 2`,

    // 0 to 12 ratings per published agent, from distinct users.
    `insert into agent_ratings (agent_id, rater_id, rating, created_at, updated_at)
     select a.id, u.ids[1 + (a.n * 31 + k * 7) % cardinality(u.ids)],
            1 + floor(random() * 5)::int, now() - k * interval '1 day', now() - k * interval '1 day'
       from (select id, (row_number() over (order by slug))::int as n from agents where is_published) a,
            generate_series(1, 12) k, ${users}
      where k <= a.n % 13
     on conflict do nothing`,

    // The caller's ledger: top-ups, then calls spent, newest last; balance_after runs along.
    `insert into ledger_entries (id, user_id, delta, balance_after, reason, ref_type, ref_id,
                                 metadata, created_at)
     select gen_random_uuid(), $1::int, l.delta,
            sum(l.delta) over (order by l.i) + 1000 * ${MICRO},
            l.reason, l.ref_type, l.ref_type || ':' || l.i, l.metadata,
            now() - interval '30 days' + l.i * interval '1 hour'
       from (select i,
                    case when i % 10 = 0 then 20 * ${MICRO} else -${MICRO / 2} end as delta,
                    case when i % 10 = 0 then 'topup' else 'call' end as reason,
                    case when i % 10 = 0 then 'credit' else 'agent_call' end as ref_type,
                    case when i % 10 = 0 then '{}'::jsonb
                         else jsonb_build_object('agent', 'agent-' || (1 + i % 50)) end as metadata
               from generate_series(1, ${size.ledger}) i) l`,

    `insert into flow_accounts (user_id, balance, held, updated_at)
     select $1::int, coalesce((select balance_after from ledger_entries where user_id = $1::int
                           order by created_at desc limit 1), 0), 0, now()`,

    // The caller's other keys (raw keys unknown, never used), for GET /me/api-keys.
    `insert into api_keys (id, user_id, prefix, key_hash, name, rate_limit_rpm, spend_limit,
                           spend_period, spend_used, spend_period_start, created_at)
     select gen_random_uuid(), $1::int, 'svc_live_' || substr(md5('k' || i), 1, 3),
            md5('key' || i || random()) || md5('hash' || i || random()), 'spare key ' || i,
            600, case when i % 2 = 0 then 100 * ${MICRO} end,
            (array['day', 'week', 'month', 'forever'])[1 + i % 4], 0, now() - interval '1 day',
            now() - i * interval '1 day'
       from generate_series(1, 4) i`,
  ];
}

const COUNTED = [
  'users',
  'tokens',
  'agents',
  'agent_tool_prices',
  'agent_calls',
  'agent_daily_stats',
  'agent_ratings',
  'ledger_entries',
  'api_keys',
] as const;

/**
 * Seeds a migrated, empty database (one transaction), then VACUUM ANALYZE so the planner
 * knows the data before anything is measured. `apiKeyPepper` is the API's API_KEY_PEPPER.
 */
export async function seedMarketplace(
  databaseUrl: string,
  size: SeedSize,
  apiKeyPepper: string,
): Promise<SeededMarketplace> {
  const pg = new PgClient({ connectionString: databaseUrl, application_name: 'seed-marketplace' });
  await pg.connect();
  try {
    const [{ count } = { count: '0' }] = (
      await pg.query<{ count: string }>('select count(*)::text as count from agents')
    ).rows;
    if (count !== '0') throw new Error(`seed: the database already has ${count} agents`);
    const apiKey = generateApiKey();
    await pg.query('begin');
    try {
      await pg.query('select setseed(0.42)');
      const caller = await pg.query<{ id: number }>(
        `insert into users (address, created_at) values ($1, now() - interval '90 days')
         returning id`,
        [`0x${'b'.repeat(40)}`],
      );
      const callerId = caller.rows[0]!.id;
      // rate_limit_rpm 0: the key counts against its owner's bucket (RATE_LIMIT_USER_RPM).
      await pg.query(
        `insert into api_keys (id, user_id, prefix, key_hash, name, rate_limit_rpm, spend_limit,
                               spend_period, spend_used, spend_period_start, created_at)
         values (gen_random_uuid(), $1, $2, $3, 'bench caller', 0, null, 'month', 0,
                 date_trunc('month', now() at time zone 'UTC') at time zone 'UTC', now())`,
        [callerId, apiKeyPrefix(apiKey), hashApiKey(apiKeyPepper, apiKey)],
      );
      for (const text of statements(size)) {
        await pg.query(text, text.includes('$1') ? [callerId] : []);
      }
      await pg.query('commit');
      await pg.query('vacuum analyze');
      const agent = await pg.query<{ slug: string; token: string }>(
        `select a.slug, t.slug as token from agents a join tokens t on t.id = a.token_id
          where a.is_published
            and exists (select 1 from agent_tool_prices p where p.agent_id = a.id)
            and exists (select 1 from agent_ratings r where r.agent_id = a.id)
          order by (select count(*) from agent_calls c where c.agent_id = a.id) desc, a.slug
          limit 1`,
      );
      const counts: Record<string, number> = {};
      for (const table of COUNTED) {
        const result = await pg.query<{ n: number }>(`select count(*)::int as n from ${table}`);
        counts[table] = result.rows[0]!.n;
      }
      return {
        callerId,
        apiKey,
        agentSlug: agent.rows[0]!.slug,
        tokenSlug: agent.rows[0]!.token,
        searchText: WORDS[0]!.toLowerCase(),
        counts,
      };
    } catch (err) {
      await pg.query('rollback').catch(() => undefined);
      throw err;
    }
  } finally {
    await pg.end();
  }
}

/**
 * `npm run seed:bench -- [small|large]`: migrates DATABASE_URL and seeds it (it must hold no
 * agents yet); prints the counts and the caller's API key, valid for an API started with the
 * same API_KEY_PEPPER.
 */
async function main(): Promise<void> {
  const name = process.argv[2] ?? 'small';
  if (!Object.hasOwn(SEED_SIZES, name)) {
    throw new Error(`seed: size must be one of ${Object.keys(SEED_SIZES).join(', ')}`);
  }
  const config = loadConfig(process.env);
  const databaseUrl = requireDatabaseUrl(config);
  const orm = await initOrm(databaseUrl, 2);
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
  const started = Date.now();
  const seeded = await seedMarketplace(
    databaseUrl,
    SEED_SIZES[name as SeedSizeName],
    config.apiKeyPepper,
  );
  console.log(`seeded ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s:`);
  for (const [table, n] of Object.entries(seeded.counts)) console.log(`  ${table}: ${n}`);
  console.log(`  caller user ${seeded.callerId}, x-api-key: ${seeded.apiKey}`);
  console.log(
    `  agent ${seeded.agentSlug}, token ${seeded.tokenSlug}, search "${seeded.searchText}"`,
  );
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
