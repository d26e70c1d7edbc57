import { createPublicClient, createTestClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { seedDemo, type SeededDemo } from '../../scripts/seed';
import { eventually } from '../helpers/chain';
import { useOwnChain } from '../helpers/launchpad';

/**
 * `npm run seed` with the local chain (scripts/seed-market.ts): the demo tokens, first seeded
 * as metadata only by a run without the chain, are launched and traded over hours of block
 * time; the indexer links them and the board, the candles and the graduating sort show the
 * trades. A second run sends nothing. On a chain of the file's own, since it moves the clock.
 */

const world = useOwnChain();
const HOURS = 6;
const SLUGS = ['demo-dpnm', 'demo-rocket', 'demo-virtuals'];

interface BoardItem {
  slug: string;
  state: string;
  instance: string | null;
  market: {
    price: string;
    volume24h: string;
    trades24h: number;
    progressToGraduation: number | null;
    lastTradeAt: string | null;
  } | null;
}

let metadataOnly: SeededDemo;
let seeded: SeededDemo;
let again: SeededDemo;
let seedStartedAt: number;
let headAfterSeed: bigint;
let headAfterSecondRun: bigint;

function options(withChain: boolean) {
  const { config } = world.ctx;
  const factories = config.launchFactories[31337]!;
  return {
    databaseUrl: config.databaseUrl!,
    apiKeyPepper: config.apiKeyPepper,
    agentBaseUrl: 'http://127.0.0.1:1',
    chain: withChain
      ? {
          rpcUrl: config.chainRpcUrls[31337]!,
          factories: { virtuals: factories.virtuals!, dpnm: factories.dpnm! },
          hours: HOURS,
        }
      : undefined,
  };
}

async function board(sort: string): Promise<BoardItem[]> {
  const response = await world.app.inject({ method: 'GET', url: `/tokens?sort=${sort}&limit=50` });
  expect(response.statusCode).toBe(200);
  return response.json<{ items: BoardItem[] }>().items.filter((item) => SLUGS.includes(item.slug));
}

beforeAll(async () => {
  const chain = createPublicClient({ chain: foundry, transport: http(world.chain.url) });
  metadataOnly = await seedDemo(options(false));
  seedStartedAt = Math.floor(Date.now() / 1000);
  seeded = await seedDemo(options(true));
  headAfterSeed = await chain.getBlockNumber();
  again = await seedDemo(options(true));
  headAfterSecondRun = await chain.getBlockNumber();
  // The indexer has linked every demo token and read up to the seed's last block.
  await eventually(
    async () => {
      const [row] = await world.ctx.sql<{ linked: number; indexed: string }>(
        `select (select count(*)::int from tokens where slug = any($1) and instance is not null)
                  as linked,
                (select coalesce(max(next_block), 0)::text from chain_cursors where chain_id = 31337)
                  as indexed`,
        [SLUGS],
      );
      return row!.linked === SLUGS.length &&
        BigInt(row!.indexed) > BigInt(seeded.market!.lastBlock!)
        ? true
        : undefined;
    },
    60_000,
    'the indexer to link the demo tokens and reach the seed’s last block',
  );
}, 180_000);

describe('npm run seed with the local chain', () => {
  it('first seeds the demo tokens as metadata only when there is no chain', () => {
    expect(metadataOnly.inserted.tokens).toBe(3);
    expect(metadataOnly.market).toBeNull();
  });

  it('launches the demo tokens and trades them over hours of block time that end now', () => {
    const market = seeded.market!;
    expect(market.launched.sort()).toEqual(SLUGS);
    expect(seeded.inserted.tokens ?? 0).toBe(0);
    // About one trade every 4 minutes per token over 6 hours.
    expect(market.trades).toBeGreaterThan(150);
    expect(market.rewound).toBe(true);
    expect(market.from).toBeGreaterThanOrEqual(seedStartedAt - HOURS * 3600 - 1);
    expect(market.to - market.from).toBeGreaterThan((HOURS - 1) * 3600);
    expect(market.to).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('leaves the chain’s clock at the wall clock', async () => {
    const before = Math.floor(Date.now() / 1000);
    const testClient = createTestClient({
      chain: foundry,
      mode: 'anvil',
      transport: http(world.chain.url),
    });
    await testClient.mine({ blocks: 1 });
    const block = await createPublicClient({
      chain: foundry,
      transport: http(world.chain.url),
    }).getBlock();
    expect(Number(block.timestamp)).toBeGreaterThanOrEqual(before);
    expect(Number(block.timestamp)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
  });

  it('sends nothing on a second run', () => {
    expect(again.market).toMatchObject({ launched: [], trades: 0, lastBlock: null });
    expect(headAfterSecondRun).toBe(headAfterSeed);
  });

  it('shows the trades on the board: every one counted, prices and volumes set', async () => {
    const items = await board('market_cap');
    expect(items.map((item) => item.slug).sort()).toEqual(SLUGS);
    for (const item of items) {
      expect(item).toMatchObject({ state: 'live' });
      expect(Number(item.market!.price)).toBeGreaterThan(0);
      expect(Number(item.market!.volume24h)).toBeGreaterThan(0);
    }
    const counted = items.reduce((sum, item) => sum + item.market!.trades24h, 0);
    expect(counted).toBe(seeded.market!.trades);
  });

  it('puts the rally token first among those about to graduate, short of its threshold', async () => {
    const items = await board('graduating');
    expect(items[0]!.slug).toBe('demo-rocket');
    const progress = items[0]!.market!.progressToGraduation!;
    expect(progress).toBeGreaterThan(0.8);
    expect(progress).toBeLessThanOrEqual(0.9);
  });

  it('serves hourly candles over the whole window, adding up to the trades', async () => {
    let bars = 0;
    let trades = 0;
    for (const slug of SLUGS) {
      const response = await world.app.inject({
        method: 'GET',
        url: `/tokens/${slug}/candles?resolution=1h&from=${seeded.market!.from - 3600}`,
      });
      expect(response.statusCode).toBe(200);
      const body = response.json<{ s: string; t: number[]; n: number[] }>();
      expect(body.s).toBe('ok');
      // Trades in at least five of the six hours.
      expect(body.t.length).toBeGreaterThanOrEqual(HOURS - 1);
      bars += body.t.length;
      trades += body.n.reduce((sum, n) => sum + n, 0);
    }
    expect(bars).toBeGreaterThan(0);
    expect(trades).toBe(seeded.market!.trades);
  });
});
