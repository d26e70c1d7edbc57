// The floors of bench/hot-reads.ts: bare Fastify servers, each doing the least work one kind of
// hot read can do on this machine. Plain JavaScript run by plain `node` (no tsx, no build), as
// our API runs from dist/, so the gap to them is our code and nothing else.
//
//   node bench/anchors/anchor.mjs hello   GET /        {"hello":"world"}
//   node bench/anchors/anchor.mjs pg      GET /agents  one prepared statement: the agents page
//   node bench/anchors/anchor.mjs redis   GET /incr    one autopipelined INCR
//
// Env: PORT (required), HOST (127.0.0.1); pg: DATABASE_URL, PG_POOL_MAX (our pool size);
// redis: REDIS_URL, REDIS_KEY_PREFIX. No logger: a floor logs nothing. Stops on SIGTERM/SIGINT.
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

const mode = process.argv[2];
const env = process.env;
const app = Fastify();
const closers = [];

if (mode === 'hello') {
  app.get('/', async () => ({ hello: 'world' }));
} else if (mode === 'pg') {
  const pool = new pg.Pool({
    connectionString: env.DATABASE_URL,
    max: Number(env.PG_POOL_MAX ?? 10),
    application_name: 'bench-pg-floor',
  });
  pool.on('error', (err) => console.error(`pg floor: ${err.message}`));
  closers.push(() => pool.end());
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
  console.error(`anchor: unknown mode ${mode} (hello, pg or redis)`);
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
