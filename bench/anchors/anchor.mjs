// The floors of bench/hot-reads.ts: bare Fastify servers, each doing the least work one kind of
// hot read can do on this machine. Plain JavaScript run by plain `node` (no tsx, no build), as
// our API runs from dist/, so the gap to them is our code and nothing else.
//
//   node bench/anchors/anchor.mjs hello   GET /        {"hello":"world"}
//   node bench/anchors/anchor.mjs pg      GET /agents  one prepared statement: the agents page
//   node bench/anchors/anchor.mjs redis   GET /incr    one autopipelined INCR
//
// and the market floors of bench/market.ts, each one prepared statement of a route, its text
// and parameters as the route runs them (FLOOR_STATEMENT), mapped to the route's JSON:
//
//   node bench/anchors/anchor.mjs candles GET /candles  the bars of GET /tokens/:slug/candles
//   node bench/anchors/anchor.mjs board   GET /board    the page of GET /tokens?sort=<board sort>
//
// Env: PORT (required), HOST (127.0.0.1); pg, candles, board: DATABASE_URL, PG_POOL_MAX (our
// pool size), PG_OPTIONS (session options: the market floors get our read pool's);
// candles, board: FLOOR_STATEMENT; redis: REDIS_URL, REDIS_KEY_PREFIX. No logger: a floor logs
// nothing. Stops on SIGTERM/SIGINT.
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * The DB-read floor: the page `GET /marketplace/agents?limit=20` answers (default sort,
 * trending), in one prepared statement of 21 rows from the marketplace read model: its
 * trending index (calls_7d desc, published_at desc, agent_id desc), each agent and its token's
 * slug by primary key, the sort keys as text for a cursor. It never aggregates calls.
 *
 * The page size is a literal, not a parameter: with `limit $1` and PostgreSQL's default plan
 * cache mode the statement may be planned again on every execution (our read pool forces
 * generic plans for that reason), and the floor must not pay for planning.
 */
const PAGE = 20;
const FLOOR_LISTING_SQL = `
  select a.slug, a.name, a.image_url, a.tags, a.monetization,
         (a.per_call_price * 0.000001)::float8 as per_call_price_flow,
         s.calls_30d::float8 as calls_last_30d, s.p50_latency_ms, s.rating::float8 as rating,
         s.rating_count, t.slug as token_slug,
         s.calls_7d::text as k0, s.published_at::text as k1, s.agent_id::text as k2
    from agent_market_stats s
    join agents a on a.id = s.agent_id
    left join tokens t on t.id = a.token_id
   where s.is_published
   order by s.calls_7d desc, s.published_at desc, s.agent_id desc
   limit ${PAGE + 1}`;

/** 18 decimals: base units → whole units, every decimal kept ("1500000000000000000" → "1.5"). */
const DECIMALS = 18;
function units(base) {
  const negative = base.startsWith('-');
  const digits = (negative ? base.slice(1) : base).padStart(DECIMALS + 1, '0');
  const fraction = digits.slice(-DECIMALS).replace(/0+$/, '');
  return `${negative ? '-' : ''}${digits.slice(0, -DECIMALS)}${fraction ? `.${fraction}` : ''}`;
}

const QUOTE_SYMBOLS = { virtuals: 'VIRTUAL', dpnm: 'USDT' };

/**
 * `GET /tokens/:slug/candles` without `fill`: the statement's one row (the token, the indexed
 * block, the bars as tuples [t, o, h, l, c, vBase, vQuote, n]) as the route's columns.
 */
function candlesBody(row, seconds, resolution) {
  const body = {
    s: 'ok',
    resolution,
    quoteSymbol: QUOTE_SYMBOLS[row.template],
    t: [],
    o: [],
    h: [],
    l: [],
    c: [],
    vBase: [],
    vQuote: [],
    n: [],
    filled: [],
  };
  for (const bar of row.bars) {
    body.t.push(bar[0]);
    body.o.push(units(bar[1]));
    body.h.push(units(bar[2]));
    body.l.push(units(bar[3]));
    body.c.push(units(bar[4]));
    body.vBase.push(units(bar[5]));
    body.vQuote.push(units(bar[6]));
    body.n.push(bar[7]);
    body.filled.push(false);
  }
  const last = body.t.at(-1);
  if (last === undefined) body.s = 'no_data';
  body.nextTime = last === undefined ? (row.before?.[0] ?? null) : null;
  body.partialLast = last !== undefined && (row.headTime === null || last + seconds > row.headTime);
  body.blockNumber =
    row.blockNumber === null || Number(row.blockNumber) < 0 ? null : Number(row.blockNumber);
  return body;
}

/** `GET /tokens` on a board sort: a token with its board figures. */
function boardItem(row) {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    ticker: row.ticker,
    template: row.template,
    instance: row.instance ?? null,
    chainId: row.chainId,
    imageUrl: row.imageUrl ?? null,
    brief: row.brief ?? null,
    params: row.params,
    state: row.state,
    createdAt: row.createdAt,
    ...(row.instance == null && row.pendingLaunchTx
      ? { pendingLaunchTx: row.pendingLaunchTx }
      : {}),
    market:
      row.price === null
        ? null
        : {
            quoteSymbol: QUOTE_SYMBOLS[row.template],
            price: units(row.price),
            marketCap: units(row.marketCap),
            volume24h: units(row.volume24h),
            priceChange24h: Number(row.priceChange24h),
            trades24h: row.trades24h,
            holdersCount: row.holdersCount ?? 0,
            progressToGraduation: row.progress === null ? null : Number(row.progress),
            lastTradeAt: row.lastTradeAt,
          },
  };
}

const mode = process.argv[2];
const env = process.env;
const app = Fastify();
const closers = [];

function pgPool(name) {
  const pool = new pg.Pool({
    connectionString: env.DATABASE_URL,
    max: Number(env.PG_POOL_MAX ?? 10),
    application_name: 'bench-pg-floor',
    ...(env.PG_OPTIONS ? { options: env.PG_OPTIONS } : {}),
  });
  pool.on('error', (err) => console.error(`${name}: ${err.message}`));
  closers.push(() => pool.end());
  return pool;
}

/**
 * The statement a market floor runs: `{ name, text, values }` as the route sends them; `now`:
 * the index of the value the route sets to the current Unix second on each request (null:
 * none); `page`: the page size of a keyset page (values end with page + 1); `seconds` and
 * `resolution`: the candles' bar width.
 */
const floor = mode === 'candles' || mode === 'board' ? JSON.parse(env.FLOOR_STATEMENT) : null;
const floorQuery = () => {
  const values = [...floor.values];
  if (floor.now !== null) values[floor.now] = Math.floor(Date.now() / 1000);
  return { name: floor.name, text: floor.text, values };
};

if (mode === 'hello') {
  app.get('/', async () => ({ hello: 'world' }));
} else if (mode === 'candles') {
  const pool = pgPool('candles floor');
  app.get('/candles', async () => {
    const { rows } = await pool.query(floorQuery());
    return candlesBody(rows[0], floor.seconds, floor.resolution);
  });
} else if (mode === 'board') {
  const pool = pgPool('board floor');
  app.get('/board', async () => {
    const { rows } = await pool.query(floorQuery());
    const page = rows.slice(0, floor.page);
    const last = page.at(-1);
    return {
      items: page.map(boardItem),
      nextCursor:
        rows.length > floor.page && last
          ? Buffer.from(JSON.stringify([last.sortKey, last.id])).toString('base64url')
          : null,
    };
  });
} else if (mode === 'pg') {
  const pool = pgPool('pg floor');
  app.get('/agents', async () => {
    const { rows } = await pool.query({ name: 'bench_floor_listing', text: FLOOR_LISTING_SQL });
    const page = rows.slice(0, PAGE);
    const last = page.at(-1);
    return {
      items: page.map((row) => ({
        slug: row.slug,
        name: row.name,
        imageUrl: row.image_url,
        tags: row.tags,
        monetization: row.monetization,
        perCallPriceFlow: row.per_call_price_flow,
        stats: {
          callsLast30d: row.calls_last_30d,
          p50LatencyMs: row.p50_latency_ms,
          rating: row.rating,
          ratingCount: row.rating_count,
        },
        tokenSlug: row.token_slug,
      })),
      nextCursor:
        rows.length > PAGE && last
          ? Buffer.from(`${last.k0}|${last.k1}|${last.k2}`).toString('base64url')
          : null,
    };
  });
} else if (mode === 'redis') {
  const redis = new Redis(env.REDIS_URL, {
    keyPrefix: env.REDIS_KEY_PREFIX ?? '',
    enableAutoPipelining: true,
    maxRetriesPerRequest: 2,
  });
  redis.on('error', (err) => console.error(`redis floor: ${err.message}`));
  closers.push(async () => redis.disconnect());
  app.get('/incr', async () => ({ count: await redis.incr('anchor:incr') }));
} else {
  console.error(`anchor: unknown mode ${mode} (hello, pg, redis, candles or board)`);
  process.exit(2);
}

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  setTimeout(() => process.exit(1), 5000).unref();
  app
    .close()
    .then(() => Promise.all(closers.map((close) => close())))
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

await app.listen({ host: env.HOST ?? '127.0.0.1', port: Number(env.PORT) });
