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
 * The DB-read floor: the page `GET /marketplace/agents?limit=20` answers, in one indexed
 * statement of 20 rows (published agents, newest first, their token's slug by primary key;
 * `published_at is not null` lets the backward index scan skip the drafts, whose null
 * published_at sorts first). The stats are constants until the marketplace summary table
 * lands: then they are its columns and the order is its trending index (calls_7d desc,
 * published_at desc, agent_id desc), still one index scan of 20 rows, which is what this
 * floor stands for. It must never aggregate calls.
 *
 * The page size is a literal, not a parameter: with `limit $1` PostgreSQL cannot cost the
 * generic plan (it assumes a tenth of the rows), so on the large data set it plans the
 * statement again on every execution (pg_prepared_statements.custom_plans), on the small one it
 * does not, and the floor would differ between the two by the planning alone.
 */
const PAGE = 20;
const FLOOR_LISTING_SQL = `
  select a.id, a.slug, a.name, a.image_url, a.tags, a.monetization,
         (a.per_call_price / 1000000.0)::float8 as per_call_price_flow,
         0 as calls_last_30d, 0 as p50_latency_ms, 0::float8 as rating, 0 as rating_count,
         t.slug as token_slug, a.published_at
    from agents a
    left join tokens t on t.id = a.token_id
   where a.is_published and a.published_at is not null
   order by a.published_at desc, a.id desc
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
          ? Buffer.from(`${last.published_at.toISOString()}|${last.id}`).toString('base64url')
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
