import { createHmac, randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { loadConfig } from '../shared/config';
import { initOrm, migrate } from '../shared/db/orm';
import { parseFlow } from '../shared/domain/flow';
import { apiKeyPrefix, hashApiKey } from '../shared/domain/api-key';
import { createPublicClient, http, type Address, type Hex } from 'viem';
import { launchCalldata } from '../shared/chain/launchpad';
import { DEMO_AGENTS, demoAgentSecret, demoAgentUrl } from './demo-agent';
import { seedMarket, type MarketToken, type SeededMarket } from './seed-market';
import {
  DevError,
  devPostgresUrl,
  exitWith,
  loadDotEnv,
  portAnswers,
  runningDevServer,
} from './dev-env';
import type { ObjectStore } from '../shared/media/store';
import { createObjectStore, mediaUrl } from '../api/routes/media/service';
import { storeDemoPicture, type DemoImage } from './demo-images';

/**
 * `npm run seed`: demo data in the development database, so the first hour starts with
 * something to look at and call. Idempotent: a second run finds everything in place and adds
 * nothing (it refreshes the demo agents' endpoint, which follows PORT).
 *
 * - two users, anvil's accounts 1 and 2 (their private keys are public: sign in with SIWE from
 *   a wallet holding them), each with an API key derived from API_KEY_PEPPER (the same key on
 *   every run, printed at the end);
 * - three tokens of the two users, launched and traded on the local chain when `npm run dev`
 *   runs one (scripts/seed-market.ts), else metadata only;
 * - a picture for each token and agent, drawn by the seed and stored as an upload
 *   (scripts/demo-images.ts);
 * - two published agents of the second user with tool prices (the first links his token),
 *   whose endpoint is the demo agent
 *   `npm run dev` serves (`/dev/demo-agent/<name>`, scripts/demo-agent.ts);
 * - a project on the first token with one finished build and its stored stream events, as the
 *   build workers would have written them.
 *
 * The database is DATABASE_URL, else the embedded one `npm run dev` serves on DEV_POSTGRES_PORT
 * (so `npm run dev` must be running).
 */

export const DEMO_USERS = [
  {
    address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    label: 'alice (anvil account 1)',
    account: 1,
  },
  {
    address: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
    label: 'bob (anvil account 2)',
    account: 2,
  },
] as const;

/** `owner` indexes DEMO_USERS; `style` is how the market seed trades it (scripts/seed-market.ts). */
const DEMO_TOKENS = [
  {
    slug: 'demo-dpnm',
    owner: 0,
    name: 'Demo Tree',
    ticker: 'DTREE',
    template: 'dpnm',
    style: 'pool',
    params: {
      initialPrice: '0.01',
      dailyLimitFloor: '50',
      incomeLimitMultiplier: 3,
      treeActivationCost: '10',
    },
  },
  {
    slug: 'demo-virtuals',
    owner: 1,
    name: 'Demo Curve',
    ticker: 'DCURV',
    template: 'virtuals',
    style: 'steady',
    params: { graduationThreshold: '42000', initialBuy: '0' },
  },
  {
    slug: 'demo-rocket',
    owner: 0,
    name: 'Demo Rocket',
    ticker: 'DRKT',
    template: 'virtuals',
    style: 'rally',
    params: { graduationThreshold: '5000', initialBuy: '0' },
  },
] as const;

export const DEMO_PROJECT_SLUG = 'demo-build';

export interface SeedOptions {
  databaseUrl: string;
  /** The API's API_KEY_PEPPER: demo keys are hashed with it, and derived from it. */
  apiKeyPepper: string;
  /** Where the demo agents answer: the dev server's own address (http://127.0.0.1:<PORT>). */
  agentBaseUrl: string;
  /**
   * The local chain 31337 with the reference factories: the demo tokens are launched and
   * traded there (scripts/seed-market.ts). Without it they are metadata only.
   */
  /**
   * Where the demo pictures go (scripts/demo-images.ts): the API's object store and the URL it
   * serves a media id at. Without it the demo tokens and agents have no image.
   */
  media?: { store: ObjectStore; urlOf: (id: string) => string };
  chain?: {
    rpcUrl: string;
    factories: { virtuals: Address; dpnm: Address };
    /** Hours of trading, ending now (default 6). */
    hours?: number;
    log?: (line: string) => void;
  };
}

export interface SeededDemo {
  users: { id: number; address: string; label: string; apiKey: string }[];
  agents: string[];
  tokens: string[];
  project: string;
  /** Rows this run inserted, per table (all 0 on a second run). */
  inserted: Record<string, number>;
  /** What the market seed did on the chain; null without a chain. */
  market: SeededMarket | null;
}

/** The demo user's API key: the same on every run for the same pepper, never stored raw. */
export function demoApiKey(apiKeyPepper: string, address: string): string {
  return `svc_live_${createHmac('sha256', apiKeyPepper).update(`demo-key:${address}`).digest('hex')}`;
}

const micro = (flow: number) => {
  const value = parseFlow(flow);
  if (value === null) throw new Error(`not a FLOW amount: ${flow}`);
  return value.toString();
};

/** The events of the demo build, in the shapes shared/projects/events.ts defines. */
function buildEvents(runId: string, sha: string) {
  const files = ['README.md', 'package.json', 'src/server.js', 'public/index.html'];
  return [
    {
      type: 'plan',
      data: { steps: ['Scaffold the site', 'Write the pages', 'Commit'], revision: 1 },
    },
    {
      type: 'message',
      data: { role: 'assistant', text: 'Scaffolding a small site for Demo Tree.' },
    },
    {
      type: 'tool_call',
      data: { tool: 'write_file', args: { path: 'README.md' }, callId: 'call-1' },
    },
    { type: 'tool_result', data: { callId: 'call-1', result: { ok: true } } },
    { type: 'commit', data: { sha, message: 'Demo Tree site', files } },
    { type: 'message', data: { role: 'assistant', text: 'Done: the site is committed.' } },
    { type: 'done', data: { runId, finalStatus: 'completed' } },
  ].map((event, index) => ({ ...event, key: `seed-${index + 1}` }));
}

export async function seedDemo(options: SeedOptions): Promise<SeededDemo> {
  const pg = new PgClient({ connectionString: options.databaseUrl, application_name: 'seed' });
  await pg.connect();
  const inserted: Record<string, number> = {};
  const count = (table: string, rows: number | null) => {
    inserted[table] = (inserted[table] ?? 0) + (rows ?? 0);
  };
  let seeded: SeededDemo;
  let launchable: { slug: string; id: string; launchTx: Hex }[];
  // Objects before rows, as POST /media stores them.
  const pictures = new Map<string, DemoImage>();
  if (options.media) {
    for (const slug of [...DEMO_TOKENS, ...DEMO_AGENTS].map((item) => item.slug)) {
      pictures.set(slug, await storeDemoPicture(options.media.store, slug));
    }
  }
  /** Gives the row of `table` its demo picture, unless it has an image already. */
  const picture = async (table: 'tokens' | 'agents', slug: string, userId: number) => {
    const image = pictures.get(slug);
    if (!image || !options.media) return;
    const media = await pg.query(
      `insert into media (id, mime_type, width, height, bytes, created_by, created_at)
       values ($1, 'image/webp', $2, $3, $4, $5, now()) on conflict (id) do nothing`,
      [image.id, image.width, image.height, image.bytes, userId],
    );
    count('media', media.rowCount);
    await pg.query(`update ${table} set image_url = $2 where slug = $1 and image_url is null`, [
      slug,
      options.media.urlOf(image.id),
    ]);
  };
  try {
    await pg.query('begin');
    const users: SeededDemo['users'] = [];
    for (const user of DEMO_USERS) {
      const created = await pg.query(
        `insert into users (address, created_at) values ($1, now()) on conflict (address) do nothing`,
        [user.address],
      );
      count('users', created.rowCount);
      const { rows } = await pg.query<{ id: number }>('select id from users where address = $1', [
        user.address,
      ]);
      const id = rows[0]!.id;
      const apiKey = demoApiKey(options.apiKeyPepper, user.address);
      const key = await pg.query(
        `insert into api_keys (id, user_id, prefix, key_hash, name, rate_limit_rpm, spend_limit,
                               spend_period, spend_used, spend_period_start, created_at)
         select $1::uuid, $2::int, $3::text, $4::text, 'demo key (npm run seed)', 0, null,
                'month', 0, date_trunc('month', now() at time zone 'UTC') at time zone 'UTC', now()
          where not exists (select 1 from api_keys where key_hash = $4::text)`,
        [randomUUID(), id, apiKeyPrefix(apiKey), hashApiKey(options.apiKeyPepper, apiKey)],
      );
      count('api_keys', key.rowCount);
      users.push({ id, address: user.address, label: user.label, apiKey });
    }
    const [alice, bob] = users as [SeededDemo['users'][0], SeededDemo['users'][0]];

    const tokenIds: string[] = [];
    for (const token of DEMO_TOKENS) {
      const id = randomUUID();
      const created = await pg.query(
        `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, brief, params,
                             state, pending_launch_tx, created_at)
         values ($1, $2, $3, $4, $5, $6, 31337, $7, $8::jsonb, $9, $10, now())
         on conflict do nothing`,
        [
          id,
          users[token.owner]!.id,
          token.slug,
          token.name,
          token.ticker,
          token.template,
          briefOf(token.template, options.chain !== undefined),
          JSON.stringify(token.params),
          options.chain ? 'pending' : 'live',
          options.chain
            ? launchCalldata(token.template, id, token.name, token.ticker, token.params)
            : null,
        ],
      );
      count('tokens', created.rowCount);
      const { rows } = await pg.query<{ id: string }>('select id from tokens where slug = $1', [
        token.slug,
      ]);
      if (!rows[0])
        throw new DevError(`a token with ticker ${token.ticker} exists already on chain 31337`);
      tokenIds.push(rows[0].id);
      await picture('tokens', token.slug, users[token.owner]!.id);
      if (options.chain) {
        // A demo token of a run without the chain (metadata only) becomes launchable: pending,
        // with its calldata, created now (the indexer fails pending tokens left too long).
        await pg.query(
          `update tokens set state = 'pending', pending_launch_tx = $2, brief = $3,
                             created_at = now()
            where id = $1 and instance is null and state <> 'pending'`,
          [
            rows[0].id,
            launchCalldata(token.template, rows[0].id, token.name, token.ticker, token.params),
            briefOf(token.template, true),
          ],
        );
      }
    }

    for (const [index, agent] of DEMO_AGENTS.entries()) {
      const created = await pg.query<{ id: string; inserted: boolean }>(
        `insert into agents (id, owner_id, slug, name, description, tags, endpoint_url,
                             endpoint_secret, monetization, per_call_price, freemium_daily_calls,
                             token_id, is_published, published_at, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, true, now(), now(), now())
         on conflict (slug) do update set endpoint_url = excluded.endpoint_url,
                                          endpoint_secret = excluded.endpoint_secret
         returning id, (xmax = 0) as inserted`,
        [
          randomUUID(),
          bob.id,
          agent.slug,
          agent.title,
          agent.description,
          agent.tags,
          demoAgentUrl(options.agentBaseUrl, agent.name),
          demoAgentSecret(options.apiKeyPepper, agent.name),
          agent.monetization,
          micro(agent.perCallFlow),
          agent.freemiumDailyCalls,
          // The first agent carries bob's token (an agent links only its owner's tokens).
          index === 0 ? tokenIds[1] : null,
        ],
      );
      const row = created.rows[0]!;
      count('agents', row.inserted ? 1 : 0);
      await picture('agents', agent.slug, bob.id);
      for (const [tool, flow] of Object.entries(agent.toolPrices)) {
        const priced = await pg.query(
          `insert into agent_tool_prices (agent_id, tool, price) values ($1, $2, $3)
           on conflict do nothing`,
          [row.id, tool, micro(flow)],
        );
        count('agent_tool_prices', priced.rowCount);
      }
    }

    const existing = await pg.query('select 1 from projects where slug = $1', [DEMO_PROJECT_SLUG]);
    if (existing.rowCount === 0) {
      const projectId = randomUUID();
      const runId = randomUUID();
      const sha = createHmac('sha1', 'seed').update(projectId).digest('hex');
      const events = buildEvents(runId, sha);
      await pg.query(
        `insert into projects (id, owner_id, token_id, slug, title, brief, agent_template, private,
                               status, current_run_id, last_event_seq, created_at, updated_at)
         values ($1, $2, $3, $4, 'Demo Tree site', $5, 'fullstack-builder', false, 'completed',
                 $6, $7, now() - interval '10 minutes', now())`,
        [
          projectId,
          alice.id,
          tokenIds[0],
          DEMO_PROJECT_SLUG,
          "A small site for Demo Tree's holders: the story and the roadmap.",
          runId,
          events.length,
        ],
      );
      await pg.query(
        `insert into project_runs (id, project_id, status, planner, head_sha, created_at,
                                   started_at, finished_at)
         values ($1, $2, 'completed', 'deterministic', $3, now() - interval '10 minutes',
                 now() - interval '9 minutes', now() - interval '5 minutes')`,
        [runId, projectId, sha],
      );
      for (const [index, event] of events.entries()) {
        await pg.query(
          `insert into project_events (project_id, seq, run_id, type, data, event_key, created_at)
           values ($1, $2, $3, $4, $5::jsonb, $6, now() - interval '9 minutes' + $7 * interval '30 seconds')`,
          [projectId, index + 1, runId, event.type, JSON.stringify(event.data), event.key, index],
        );
      }
      count('projects', 1);
      count('project_runs', 1);
      count('project_events', events.length);
    }
    await pg.query('commit');
    // The demo tokens the indexer has not linked yet: the market seed launches those whose
    // launch is not on the chain either.
    const { rows: unlinked } = await pg.query<{ slug: string; id: string; launchTx: Hex }>(
      `select slug, id, pending_launch_tx as "launchTx" from tokens
        where slug = any($1) and instance is null and state = 'pending'`,
      [DEMO_TOKENS.map((token) => token.slug)],
    );
    seeded = {
      users,
      agents: DEMO_AGENTS.map((agent) => agent.slug),
      tokens: DEMO_TOKENS.map((token) => token.slug),
      project: DEMO_PROJECT_SLUG,
      inserted,
      market: null,
    };
    launchable = unlinked;
  } catch (error) {
    await pg.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await pg.end();
  }
  if (!options.chain) return seeded;
  const { chain } = options;
  const tokens = DEMO_TOKENS.flatMap((token): MarketToken[] => {
    const row = launchable.find((candidate) => candidate.slug === token.slug);
    if (!row) return [];
    return [
      {
        id: row.id,
        slug: token.slug,
        template: token.template,
        owner: DEMO_USERS[token.owner].account,
        launchTx: row.launchTx,
        factory: chain.factories[token.template],
        style: token.style,
        graduationThreshold:
          token.template === 'virtuals' ? token.params.graduationThreshold : undefined,
      },
    ];
  });
  return {
    ...seeded,
    market: await seedMarket({ rpcUrl: chain.rpcUrl, tokens, hours: chain.hours, log: chain.log }),
  };
}

function briefOf(template: string, launched: boolean): string {
  return launched
    ? `A demo ${template} token (npm run seed), launched and traded on the local chain.`
    : `A demo ${template} token (npm run seed): metadata only, not launched on chain.`;
}

async function main(): Promise<void> {
  loadDotEnv();
  const env: Record<string, string | undefined> = { NODE_ENV: 'development', ...process.env };
  // The `npm run dev` running here says where it serves: its port, database and chain (what
  // the environment sets still wins).
  const running = runningDevServer();
  if (running) {
    env.PORT ??= String(running.port);
    if (running.databaseUrl) env.DATABASE_URL ??= running.databaseUrl;
    if (running.chainRpcUrls) env.CHAIN_RPC_URLS ??= running.chainRpcUrls;
  }
  // The local chain where `npm run dev` starts it when CHAIN_RPC_URLS is unset.
  env.CHAIN_RPC_URLS ??= `31337=http://127.0.0.1:${env.DEV_ANVIL_PORT ?? 8545}`;
  const config = loadConfig(env);
  if (config.env === 'production') throw new DevError('npm run seed is for development only');
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    databaseUrl = devPostgresUrl(env);
    const port = Number(new URL(databaseUrl).port);
    if (!(await portAnswers(port))) {
      throw new DevError(
        `nothing answers on 127.0.0.1:${port}: start npm run dev first (it serves the ` +
          'embedded database), or set DATABASE_URL',
      );
    }
  }
  const orm = await initOrm(databaseUrl, 2);
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
  const base = `http://localhost:${config.port}`;
  const chain = await localChain(config);
  console.log(
    typeof chain === 'string'
      ? `seed: no local chain (${chain}): demo tokens not launched yet stay metadata only`
      : `seed: the demo tokens' market is on the local chain ${chain.rpcUrl}`,
  );
  const store = createObjectStore(config.media);
  let seeded: SeededDemo;
  try {
    seeded = await seedDemo({
      databaseUrl,
      apiKeyPepper: config.apiKeyPepper,
      agentBaseUrl: `http://127.0.0.1:${config.port}`,
      media: { store, urlOf: (id) => mediaUrl(config, id) },
      chain: typeof chain === 'string' ? undefined : { ...chain, log: (line) => console.log(line) },
    });
  } finally {
    store.close();
  }
  const added = Object.entries(seeded.inserted).filter(([, n]) => n > 0);
  console.log(
    added.length > 0
      ? `seeded: ${added.map(([table, n]) => `${n} ${table}`).join(', ')}`
      : 'seed: everything was in place already (nothing added)',
  );
  for (const user of seeded.users) {
    console.log(`  user ${user.id} ${user.label} ${user.address}\n    x-api-key: ${user.apiKey}`);
  }
  const key = seeded.users[0]!.apiKey;
  console.log(
    [
      `  agents ${seeded.agents.join(', ')} (answered by npm run dev at ${base}/dev/demo-agent/…)`,
      `  tokens ${seeded.tokens.join(', ')}; project ${seeded.project} with a finished build`,
      ...(seeded.market ? marketLines(seeded.market, base) : []),
      '',
      'Try it (npm run dev must be running):',
      `  curl -X POST -H 'x-api-key: ${key}' ${base}/dev/faucet`,
      `  curl -X POST -H 'x-api-key: ${key}' -H 'content-type: application/json' \\`,
      `       -d '{"input":{"text":"hello"},"tools":["web_search"]}' ${base}/agents/demo-echo/invoke`,
      `  curl ${base}/projects/${seeded.project}`,
    ].join('\n'),
  );
}

/**
 * The chain the market seed trades on: chain 31337 of the configuration, an anvil (its clock
 * is moved) with the reference factories deployed; else why not, as a sentence.
 */
async function localChain(
  config: ReturnType<typeof loadConfig>,
): Promise<NonNullable<SeedOptions['chain']> | string> {
  const rpcUrl = config.chainRpcUrls[31337];
  const factories = config.launchFactories[31337];
  if (!rpcUrl || !factories?.virtuals || !factories.dpnm) {
    return 'chain 31337 or its launch factories are not configured';
  }
  const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
  const version = await client
    .request({ method: 'web3_clientVersion' })
    .catch(() => null as string | null);
  if (version === null) return `nothing answers at ${rpcUrl} (start npm run dev first)`;
  if (!version.toLowerCase().startsWith('anvil')) {
    return `${rpcUrl} is ${version}, not anvil: the seed moves the chain's clock only on anvil`;
  }
  for (const address of [factories.virtuals, factories.dpnm]) {
    if (!(await client.getCode({ address }))) {
      return `no launch factory at ${address} on ${rpcUrl} (npm run chain:deploy puts them there)`;
    }
  }
  return { rpcUrl, factories: { virtuals: factories.virtuals, dpnm: factories.dpnm } };
}

/** Where to look at the seeded market. */
function marketLines(market: SeededMarket, base: string): string[] {
  if (market.launched.length === 0)
    return ['  market: the demo tokens were launched and traded before'];
  const hours = ((market.to - market.from) / 3600).toFixed(1);
  return [
    `  market: launched ${market.launched.join(', ')} and made ${market.trades} trades over ${hours} h of block time`,
    `    board    ${base}/tokens?sort=market_cap   (also volume_24h, trending, graduating)`,
    `    candles  ${base}/tokens/demo-virtuals/candles?resolution=15m&countback=40`,
    `    stream   curl -N ${base}/tokens/stream   (trade at docs/launch-walkthrough.md to see ticks)`,
  ];
}

if (require.main === module) {
  main().catch(exitWith);
}
