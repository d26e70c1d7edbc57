import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import type { App } from '../../api/app';
import { searchStatement, type SearchInput } from '../../api/routes/search/service';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';

/** GET /search (spec "Search", docs/spec/contract.md §7), on rows written straight into PostgreSQL. */

const test = useTestApp({ env: UNLIMITED_RATES });

interface Hit {
  kind: 'agent' | 'token';
  slug: string;
  name: string;
  ticker: string | null;
}
type Reply = Awaited<ReturnType<App['inject']>>;

let ownerId: number;
let serial = 0;
const nextSlug = (prefix: string) => `${prefix}-${++serial}`;

async function insertAgent(name: string, published = true): Promise<Hit> {
  const slug = nextSlug('agent');
  await test.ctx.sql(
    `insert into agents (id, owner_id, slug, name, endpoint_url, endpoint_secret, is_published,
                         created_at, updated_at)
     values (gen_random_uuid(), $1, $2, $3, 'https://agent.example/run', 'secret', $4, now(), now())`,
    [ownerId, slug, name, published],
  );
  return { kind: 'agent', slug, name, ticker: null };
}

async function insertToken(name: string, ticker: string, instance?: string): Promise<Hit> {
  const slug = nextSlug('token');
  await test.ctx.sql(
    `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, instance, params,
                         state, created_at)
     values (gen_random_uuid(), $1, $2, $3, $4, 'virtuals', 31337, $5, '{}', 'live', now())`,
    [ownerId, slug, name, ticker, instance ?? null],
  );
  return { kind: 'token', slug, name, ticker };
}

function searchFor(query: Record<string, string>): Promise<Reply> {
  return test.app.inject({
    method: 'GET',
    url: `/search?${new URLSearchParams(query).toString()}`,
  });
}

async function hitsFor(query: Record<string, string>): Promise<Hit[]> {
  const response = await searchFor(query);
  expect(response.statusCode).toBe(200);
  const body = response.json<{ ok: boolean; items: Hit[] }>();
  expect(body.ok).toBe(true);
  return body.items;
}

const namesOf = (hits: Hit[]) => hits.map((hit) => hit.name);

function expectInvalid(response: Reply, message: string) {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual({ error: { code: 'invalid_request', message } });
}

beforeAll(async () => {
  const [user] = await test.ctx.sql<{ id: number }>(
    `insert into users (address, created_at) values ($1, now()) returning id`,
    [privateKeyToAddress(generatePrivateKey()).toLowerCase()],
  );
  ownerId = user!.id;
});

describe('GET /search input', () => {
  const tooLong = 'a'.repeat(121);

  it('refuses an empty, blank, missing or over-long q with the envelope, naming q', async () => {
    for (const q of ['', '   ', tooLong, '😀'.repeat(121)]) {
      expectInvalid(await searchFor({ q }), 'q: must be 1 to 120 characters');
    }
    expectInvalid(await searchFor({}), 'q: is required');
  });

  it('accepts q of exactly 120 characters, counted as characters not UTF-16 units', async () => {
    expect(await hitsFor({ q: 'a'.repeat(120) })).toEqual([]);
    expect(await hitsFor({ q: '😀'.repeat(120) })).toEqual([]);
  });

  it('refuses control characters (PostgreSQL cannot even hold NUL)', async () => {
    // NUL is refused for every field before the route's own checks (docs/decisions.md "Wire").
    expectInvalid(
      await searchFor({ q: 'ab\u0000c' }),
      'q: must not contain NUL (\\u0000) or an unpaired surrogate',
    );
    expectInvalid(await searchFor({ q: 'ab\u0007c' }), 'q: must not contain control characters');
  });

  it('refuses a limit below 1 or not an integer, and an unknown type', async () => {
    expectInvalid(await searchFor({ q: 'x', limit: '0' }), 'limit: must be at least 1');
    expectInvalid(await searchFor({ q: 'x', limit: '-3' }), 'limit: must be at least 1');
    expectInvalid(await searchFor({ q: 'x', limit: '2.5' }), 'limit: must be an integer');
    expectInvalid(await searchFor({ q: 'x', limit: 'ten' }), 'limit: must be an integer');
    expectInvalid(await searchFor({ q: 'x', type: 'user' }), 'type: must be agent, token or all');
  });
});

describe('GET /search limits', () => {
  beforeAll(async () => {
    for (let i = 0; i < 55; i++) await insertAgent(`Filler ${String(i).padStart(2, '0')}`);
  });

  it('returns 20 hits by default, and clamps a limit above 50 to 50', async () => {
    expect(await hitsFor({ q: 'filler' })).toHaveLength(20);
    expect(await hitsFor({ q: 'filler', limit: '500' })).toHaveLength(50);
    expect(await hitsFor({ q: 'filler', limit: '51' })).toHaveLength(50);
    const three = await hitsFor({ q: 'filler', limit: '3' });
    expect(namesOf(three)).toEqual(['Filler 00', 'Filler 01', 'Filler 02']);
  });
});

describe('GET /search wildcards match themselves', () => {
  beforeAll(async () => {
    for (const name of ['100% Uptime', 'Plain', 'snake_case bot', 'snakeXcase bot']) {
      await insertAgent(name);
    }
    await insertAgent('back\\slash');
    await insertAgent('backslash');
    await insertToken('Half_Off', 'HALF');
  });

  it('% finds only names with a literal percent sign', async () => {
    const hits = await hitsFor({ q: '%' });
    expect(namesOf(hits)).toEqual(['100% Uptime']);
    expect(namesOf(await hitsFor({ q: '0% u' }))).toEqual(['100% Uptime']);
  });

  it('_ finds only names with a literal underscore, agents and tokens alike', async () => {
    expect(namesOf(await hitsFor({ q: 'e_c' }))).toEqual(['snake_case bot']);
    expect(namesOf(await hitsFor({ q: '_' }))).toEqual(['Half_Off', 'snake_case bot']);
  });

  it('a backslash finds only names with a literal backslash', async () => {
    expect(namesOf(await hitsFor({ q: 'k\\s' }))).toEqual(['back\\slash']);
    expect(namesOf(await hitsFor({ q: '\\' }))).toEqual(['back\\slash']);
    expect(namesOf(await hitsFor({ q: 'k\\' }))).toEqual(['back\\slash']);
  });
});

describe('GET /search matching and ranking', () => {
  const fixtures: Record<string, Hit> = {};

  beforeAll(async () => {
    fixtures.exactAgent = await insertAgent('Rank');
    fixtures.exactTicker = await insertToken('Stable Thing', 'RANK');
    fixtures.prefixAgent = await insertAgent('Rank Keeper');
    fixtures.prefixToken = await insertToken('Ranker', 'RNKR');
    fixtures.prefixTicker = await insertToken('Zed Coin', 'RANKZ');
    fixtures.innerAgent = await insertAgent('Alpha Rank');
    fixtures.innerToken = await insertToken('Frank Token', 'FRNK');
    await insertAgent('Rank Hidden', false);
    await insertAgent('Moonbeam Oracle');
  });

  it('ranks exact, then prefix, then inner matches of both kinds in one list', async () => {
    const hits = await hitsFor({ q: 'rank' });
    expect(hits).toEqual([
      fixtures.exactAgent,
      fixtures.exactTicker,
      fixtures.prefixAgent,
      fixtures.prefixToken,
      fixtures.prefixTicker,
      fixtures.innerAgent,
      fixtures.innerToken,
    ]);
    // Agents never carry a ticker; tokens always do.
    expect(hits.filter((hit) => hit.kind === 'agent').every((hit) => hit.ticker === null)).toBe(
      true,
    );
  });

  it('ignores letter case in the query and in names', async () => {
    expect(await hitsFor({ q: 'mOONBEAM' })).toEqual([
      expect.objectContaining({ name: 'Moonbeam Oracle', kind: 'agent' }),
    ]);
    expect(await hitsFor({ q: 'RANK', limit: '1' })).toEqual([fixtures.exactAgent]);
  });

  it('never shows an unpublished agent', async () => {
    expect(await hitsFor({ q: 'Rank Hidden' })).toEqual([]);
    expect(namesOf(await hitsFor({ q: 'hidden' }))).toEqual([]);
  });

  it('type=agent and type=token keep only that kind, in the same order', async () => {
    expect(await hitsFor({ q: 'rank', type: 'agent' })).toEqual([
      fixtures.exactAgent,
      fixtures.prefixAgent,
      fixtures.innerAgent,
    ]);
    expect(await hitsFor({ q: 'rank', type: 'token' })).toEqual([
      fixtures.exactTicker,
      fixtures.prefixToken,
      fixtures.prefixTicker,
      fixtures.innerToken,
    ]);
    expect(await hitsFor({ q: 'rank', type: 'all', limit: '2' })).toEqual([
      fixtures.exactAgent,
      fixtures.exactTicker,
    ]);
  });

  it('finds a token by its ticker alone', async () => {
    expect(await hitsFor({ q: 'rnkr' })).toEqual([fixtures.prefixToken]);
  });
});

describe('GET /search by contract address', () => {
  const instance = getAddress(privateKeyToAddress(generatePrivateKey()));
  let token: Hit;

  beforeAll(async () => {
    token = await insertToken('Addressed', 'ADDR', instance);
  });

  it('finds the token by its exact instance address in any letter case', async () => {
    const upper = `0x${instance.slice(2).toUpperCase()}`;
    for (const q of [instance, instance.toLowerCase(), upper]) {
      expect(await hitsFor({ q })).toEqual([token]);
    }
    expect(await hitsFor({ q: instance, type: 'agent' })).toEqual([]);
  });

  it('does not match part of an address, or another address', async () => {
    expect(await hitsFor({ q: instance.slice(0, 20) })).toEqual([]);
    const other = privateKeyToAddress(generatePrivateKey());
    expect(await hitsFor({ q: other })).toEqual([]);
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

async function explain(input: SearchInput): Promise<PlanNode[]> {
  const { query, params } = searchStatement(input);
  const rows = await test.ctx.sql<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
    `explain (format json) ${query.text}`,
    params,
  );
  return planNodes(rows[0]!['QUERY PLAN'][0]!.Plan);
}

const indexScans = (nodes: PlanNode[]) =>
  nodes
    .filter((node) => node['Node Type'] === 'Bitmap Index Scan')
    .map((node) => node['Index Name']);
const seqScans = (nodes: PlanNode[]) =>
  nodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name']);

describe('GET /search query plan', () => {
  let target: Hit;
  let instance: string;

  beforeAll(async () => {
    // 10k of each with hex names: "zebra" (z, r are not hex) is then selective.
    await test.ctx.sql(
      `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, instance, params,
                           state, created_at)
       select gen_random_uuid(), $1, 'bulk-token-' || i, md5(i::text), 'B' || lpad(i::text, 5, '0'),
              'virtuals', 31337, '0x' || md5(i::text) || substr(md5('x' || i), 1, 8), '{}', 'live',
              now()
         from generate_series(1, 10000) as i`,
      [ownerId],
    );
    await test.ctx.sql(
      `insert into agents (id, owner_id, slug, name, endpoint_url, endpoint_secret, is_published,
                           created_at, updated_at)
       select gen_random_uuid(), $1, 'bulk-agent-' || i, md5(i::text), 'https://agent.example/run',
              'secret', i % 10 <> 0, now(), now()
         from generate_series(1, 10000) as i`,
      [ownerId],
    );
    target = await insertToken('Zebra Fund', 'ZBRA');
    await insertAgent('The Zebra Crossing');
    // What autovacuum does in production: statistics, and the GIN pending list merged.
    await test.ctx.sql('vacuum analyze tokens');
    await test.ctx.sql('vacuum analyze agents');
    const [row] = await test.ctx.sql<{ instance: string }>(
      `select instance from tokens where slug = 'bulk-token-4242'`,
    );
    instance = row!.instance;
  });

  it('the endpoint still answers from the large tables', async () => {
    expect(namesOf(await hitsFor({ q: 'zebra' }))).toEqual(['Zebra Fund', 'The Zebra Crossing']);
    expect(await hitsFor({ q: 'zbra' })).toEqual([target]);
    expect(await hitsFor({ q: `0x${instance.slice(2).toUpperCase()}` })).toEqual([
      expect.objectContaining({ slug: 'bulk-token-4242' }),
    ]);
  });

  it('uses the trigram indexes of names and tickers, never a sequential scan', async () => {
    const nodes = await explain({ q: 'zebra', type: 'all', limit: 20 });
    expect(indexScans(nodes)).toEqual(
      expect.arrayContaining([
        'agents_name_trgm_index',
        'tokens_name_trgm_index',
        'tokens_ticker_trgm_index',
      ]),
    );
    expect(seqScans(nodes)).toEqual([]);
  });

  it('looks an address up through the lower(instance) index', async () => {
    // On 10k rows a 40-trigram pattern costs the planner more than a scan of the table (a
    // sound choice); from about 30k tokens on it takes the indexes.
    await test.ctx.sql(
      `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, instance, params,
                           state, created_at)
       select gen_random_uuid(), $1, 'more-token-' || i, md5(i::text), 'C' || lpad(i::text, 5, '0'),
              'virtuals', 31337, '0x' || md5('y' || i) || substr(md5('z' || i), 1, 8), '{}',
              'live', now()
         from generate_series(1, 30000) as i`,
      [ownerId],
    );
    await test.ctx.sql('vacuum analyze tokens');
    const nodes = await explain({
      q: `0x${instance.slice(2).toUpperCase()}`,
      type: 'token',
      limit: 20,
    });
    expect(indexScans(nodes)).toEqual(['tokens_name_trgm_index', 'tokens_instance_lower_index']);
    expect(seqScans(nodes)).toEqual([]);
  });
});
