import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { buildApp } from '../api/app';
import { closeApiDeps, connectApiDeps } from '../api/deps';
import { loadConfig } from '../shared/config';
import { createLogger } from '../shared/logger';

/**
 * GET /healthz through the whole app vs a bare Fastify hello world, side by side in one
 * run (alternating rounds, so drift on a shared machine hits both alike).
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;

interface LoadResult {
  requests: { average: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
}

/** The load generator runs in its own process, so it does not steal the servers' event loop. */
async function measure(url: string, durationS = DURATION_S) {
  const { stdout } = await promisify(execFile)(
    require.resolve('autocannon/autocannon.js'),
    ['--json', '-c', String(CONNECTIONS), '-d', String(durationS), url],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as LoadResult;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
  };
}

export async function benchHttpOverhead(): Promise<void> {
  const config = loadConfig({
    DATABASE_URL: 'postgres://postgres:postgres@127.0.0.1:5432/postgres',
    REDIS_URL: 'redis://127.0.0.1:6379',
    ...process.env,
    LOG_LEVEL: 'warn',
  });
  const deps = await connectApiDeps(config, createLogger('warn', 'bench'));
  const app = buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const bare = Fastify();
  bare.get('/healthz', async () => ({ status: 'ok' }));
  await bare.listen({ host: '127.0.0.1', port: 0 });

  const urlOf = (server: { addresses(): { port: number }[] }) =>
    `http://127.0.0.1:${server.addresses()[0]!.port}/healthz`;
  const bareUrl = urlOf(bare as never);
  const ourUrl = urlOf(app as never);
  const totals = { ours: 0, bare: 0 };
  console.log(`http-overhead: ${ROUNDS} rounds x ${DURATION_S}s, ${CONNECTIONS} connections`);
  // Warm both servers up (JIT, connection pools) before anything is counted.
  await measure(bareUrl, 2);
  await measure(ourUrl, 2);
  for (let round = 1; round <= ROUNDS; round++) {
    const baseline = await measure(bareUrl);
    const ours = await measure(ourUrl);
    totals.bare += baseline.rps;
    totals.ours += ours.rps;
    console.log(
      `  round ${round}: bare fastify ${baseline.rps.toFixed(0)} req/s (p99 ${baseline.p99} ms)` +
        ` | our /healthz ${ours.rps.toFixed(0)} req/s (p99 ${ours.p99} ms, ${ours.errors} errors)`,
    );
  }
  console.log(`  ratio ours/bare: ${(totals.ours / totals.bare).toFixed(2)}`);
  await bare.close();
  await app.close();
  await closeApiDeps(deps);
}
