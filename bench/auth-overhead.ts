import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { Client as PgClient } from 'pg';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { z } from 'zod';
import { buildApp, type App } from '../api/app';
import { closeApiDeps, connectApiDeps } from '../api/deps';
import { MAX_RATE_LIMIT_RPM } from '../api/routes/keys/schemas';
import { loadConfig } from '../shared/config';
import { initOrm, migrate } from '../shared/db/orm';
import { statement } from '../shared/db/sql';
import { createLogger } from '../shared/logger';

/**
 * The same trivial endpoint with API-key auth and rate limits vs without, side by side in one
 * run (alternating rounds, so drift on a shared machine hits both alike). `/bench/open` is
 * `auth: 'none'` (no credential read, no rate limit); `/bench/keyed` is `auth: 'user'` called
 * with `x-api-key`: key lookup (hash + in-process cache), the Redis rate-limit script, the
 * `X-RateLimit-*` and `X-FLOW-*` headers and a usage row per request. Goal: auth and limits
 * cost at most 15 % of throughput.
 *
 * Needs real PostgreSQL and Redis (DATABASE_URL names the server; a fresh database is
 * created, migrated and dropped) and a Redis key prefix of its own. Temporal is not called.
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
const GOAL_MAX_COST = 0.15;

/** The usage rows the given keys wrote. */
const usageRowCount = statement<{ count: number }, [keyIds: string[]]>(
  'bench.usage_row_count',
  'select count(*)::int as count from api_key_usage where api_key_id = any($1::uuid[])',
);

interface LoadResult {
  requests: { average: number; total: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}

interface Measured {
  rps: number;
  p99: number;
  total: number;
  ok: number;
  non2xx: number;
  errors: number;
}

/** The load generator runs in its own process, so it does not steal the server's event loop. */
async function measure(url: string, headers: string[] = [], durationS = DURATION_S) {
  const { stdout } = await promisify(execFile)(
    require.resolve('autocannon/autocannon.js'),
    [
      '--json',
      '-c',
      String(CONNECTIONS),
      '-d',
      String(durationS),
      ...headers.flatMap((h) => ['-H', h]),
      url,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as LoadResult;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    total: result.requests.total,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  } satisfies Measured;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(adminUrl: string, work: (pg: PgClient) => Promise<T>): Promise<T> {
  const pg = new PgClient({ connectionString: adminUrl });
  await pg.connect();
  try {
    return await work(pg);
  } finally {
    await pg.end();
  }
}

/** Signs in through the real SIWE flow with a fresh wallet; returns the session cookie. */
async function signIn(app: App, domain: string, chainId: number): Promise<string> {
  const nonce = await app.inject({ method: 'POST', url: '/auth/nonce' });
  if (nonce.statusCode !== 200) throw new Error(`nonce: ${nonce.statusCode} ${nonce.body}`);
  const account = privateKeyToAccount(generatePrivateKey());
  const message = createSiweMessage({
    domain,
    address: account.address,
    uri: `http://${domain}/login`,
    version: '1',
    chainId,
    nonce: nonce.json<{ nonce: string }>().nonce,
    issuedAt: new Date(),
  });
  const verify = await app.inject({
    method: 'POST',
    url: '/auth/verify',
    payload: { message, signature: await account.signMessage({ message }) },
  });
  if (verify.statusCode !== 200) throw new Error(`verify: ${verify.statusCode} ${verify.body}`);
  const setCookie = verify.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ''])
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('svc_session='));
  if (!cookie) throw new Error('verify: no svc_session cookie');
  return cookie;
}

async function createKey(app: App, cookie: string, name: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/me/api-keys',
    headers: { cookie },
    payload: { name, rate_limit_rpm: MAX_RATE_LIMIT_RPM },
  });
  if (response.statusCode !== 201) {
    throw new Error(`create key: ${response.statusCode} ${response.body}`);
  }
  return response.json<{ id: string; key: string }>();
}

const okSchema = z.object({ ok: z.literal(true) });

export async function benchAuthOverhead(): Promise<void> {
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const adminUrl =
    process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const database = `svc_bench_${runId}`;
  const redisKeyPrefix = `svc-bench:${runId}:`;

  await admin(adminUrl, (pg) => pg.query(`create database "${database}"`));
  try {
    const migrator = await initOrm(withDatabase(adminUrl, database), 2);
    try {
      await migrate(migrator);
    } finally {
      await migrator.close();
    }
    await run(
      loadConfig({
        ...process.env,
        DATABASE_URL: withDatabase(adminUrl, database),
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: redisKeyPrefix,
        LOG_LEVEL: 'warn',
      }),
    );
  } finally {
    await admin(adminUrl, (pg) => pg.query(`drop database if exists "${database}" with (force)`));
    const redis = new Redis(redisUrl);
    try {
      // SCAN, not KEYS: the Redis may be shared. Left over: rate-limit windows, nonces.
      for await (const batch of redis.scanStream({ match: `${redisKeyPrefix}*`, count: 500 })) {
        const stale = batch as string[];
        if (stale.length > 0) await redis.del(...stale);
      }
    } finally {
      redis.disconnect();
    }
  }
}

async function run(config: ReturnType<typeof loadConfig>): Promise<void> {
  const deps = await connectApiDeps(config, createLogger('warn', 'bench'));
  const app = buildApp(deps);
  // Registered after every product plugin, so their hooks (errors, auth, spend, usage) apply.
  void app.register(async (scope) => {
    for (const [url, auth] of [
      ['/bench/open', 'none'],
      ['/bench/keyed', 'user'],
    ] as const) {
      scope.get(
        url,
        { config: { auth }, schema: { hide: true, response: { 200: okSchema } } },
        async () => ({ ok: true as const }),
      );
    }
  });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const chainId = Number(Object.keys(config.chainRpcUrls)[0] ?? 31337);
    const cookie = await signIn(app, config.siweDomain, chainId);

    // Rate limits are fixed one-minute windows per key bucket, at most MAX_RATE_LIMIT_RPM
    // (100 000) requests per window. Several rounds on one key could pass that within a
    // minute and start measuring 429s, so every keyed round (and the warm-up) gets a fresh
    // key with the maximum limit: its bucket then holds one round only, and a 5 s round
    // stays below the limit up to 20 000 req/s. The limiter still runs in full (Redis script,
    // headers) on every request; any 429 would show in the non-2xx count printed per round.
    const keys = await Promise.all(
      Array.from({ length: ROUNDS + 1 }, (_, i) => createKey(app, cookie, `bench ${i}`)),
    );
    const port = (app.addresses()[0] as { port: number }).port;
    const openUrl = `http://127.0.0.1:${port}/bench/open`;
    const keyedUrl = `http://127.0.0.1:${port}/bench/keyed`;
    const keyHeader = (i: number) => [`x-api-key=${keys[i]!.key}`];

    // The key must authenticate at all, or the whole keyed run would be fast 401s.
    const probe = await fetch(keyedUrl, { headers: { 'x-api-key': keys[0]!.key } });
    if (probe.status !== 200) throw new Error(`keyed probe: ${probe.status} ${await probe.text()}`);

    console.log(
      `auth-overhead: ${ROUNDS} rounds x ${DURATION_S}s, ${CONNECTIONS} connections, ` +
        `key limit ${MAX_RATE_LIMIT_RPM} rpm (a fresh key per round)`,
    );
    // Warm up both routes (JIT, key cache, Redis script load) before anything is counted.
    await measure(openUrl, [], 2);
    await measure(keyedUrl, keyHeader(0), 2);

    const open: Measured[] = [];
    const keyed: Measured[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const o = await measure(openUrl);
      const k = await measure(keyedUrl, keyHeader(round));
      open.push(o);
      keyed.push(k);
      console.log(
        `  round ${round}: no auth ${o.rps.toFixed(0)} req/s (p99 ${o.p99} ms, ` +
          `${o.non2xx} non-2xx, ${o.errors} errors) | key + limits ${k.rps.toFixed(0)} req/s ` +
          `(p99 ${k.p99} ms, ${k.non2xx} non-2xx, ${k.errors} errors, ${k.total} requests)`,
      );
      if (k.total >= MAX_RATE_LIMIT_RPM) {
        console.log(`    warning: ${k.total} requests on one key may have crossed its limit`);
      }
    }

    const sum = (list: Measured[], pick: (m: Measured) => number) =>
      list.reduce((acc, m) => acc + pick(m), 0);
    const ratio = sum(keyed, (m) => m.rps) / sum(open, (m) => m.rps);
    const cost = 1 - ratio;
    console.log(
      `  mean: no auth ${(sum(open, (m) => m.rps) / ROUNDS).toFixed(0)} req/s ` +
        `(p99 ${(sum(open, (m) => m.p99) / ROUNDS).toFixed(1)} ms) | key + limits ` +
        `${(sum(keyed, (m) => m.rps) / ROUNDS).toFixed(0)} req/s ` +
        `(p99 ${(sum(keyed, (m) => m.p99) / ROUNDS).toFixed(1)} ms)`,
    );
    console.log(
      `  ratio keyed/open: ${ratio.toFixed(2)}; auth+limits cost = ${(cost * 100).toFixed(1)} % ` +
        `(goal <= ${GOAL_MAX_COST * 100} %: ${cost <= GOAL_MAX_COST ? 'met' : 'NOT met'})`,
    );
    console.log(
      `  non-2xx: no auth ${sum(open, (m) => m.non2xx)}, ` +
        `key + limits ${sum(keyed, (m) => m.non2xx)}`,
    );

    // Usage logging is asynchronous (batched): flush, then count what the measured keys wrote.
    await app.usage.flush();
    const roundKeys = keys.slice(1).map((key) => key.id);
    const row = await deps.db.row(usageRowCount, [roundKeys]);
    console.log(
      `  usage rows written for the measured keyed rounds: ${row?.count ?? 0} ` +
        `(autocannon counted ${sum(keyed, (m) => m.ok)} 2xx)`,
    );
  } finally {
    await app.close();
    await closeApiDeps(deps);
  }
}

if (require.main === module) {
  benchAuthOverhead().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
