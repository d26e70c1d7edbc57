import { Validator } from '@seriousme/openapi-schema-validator';
import { Redis } from 'ioredis';
import { buildApp } from '../../api/app';
import { createTemporalClient } from '../../shared/temporal';
import { useTestApp } from '../helpers/context';

const test = useTestApp();

/** `METHOD /path` of every route Fastify serves, read from its route tree. */
function servedRoutes(): string[] {
  const routes: string[] = [];
  const prefixes: string[] = [];
  for (const line of test.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│├└─\s]*)(\S+) \(([A-Z, ]+)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    prefixes.length = depth;
    // printRoutes shows a wildcard child as `*`; OpenAPI documents it as `/{path}`.
    const segment = match[2] === '*' ? '/*' : match[2]!;
    const path = prefixes.join('') + segment;
    prefixes.push(segment);
    for (const method of match[3]!.split(', ')) {
      routes.push(`${method} ${path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{path}')}`);
    }
  }
  return routes;
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('lists every public route with its methods', async () => {
    const document = (await test.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const documented = Object.entries(document.paths as Record<string, object>).flatMap(
      ([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    // Every route Fastify serves, minus HEAD twins, the documentation's own routes, the
    // operators' metrics (hidden on purpose: docs/metrics.md), the CORS plugin's catch-all
    // OPTIONS (preflights, answered before any route runs) and `GET /api/v1/rooms/`, the
    // contract's spelling of `GET /api/v1/rooms` (documented once, without the slash its lint
    // forbids).
    const expected = servedRoutes().filter(
      (route) =>
        !/^HEAD |^GET \/docs|^GET \/openapi\.json$|^GET \/metrics$|^OPTIONS \/\{path\}$|^GET \/api\/v1\/rooms\/$/.test(
          route,
        ),
    );
    expect(expected.length).toBeGreaterThanOrEqual(2);
    expect(documented.sort()).toEqual(expected.sort());
    expect(documented).toEqual(expect.arrayContaining(['GET /healthz', 'GET /readyz']));
  });

  it('documents the error envelope on every operation', async () => {
    const document = (await test.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const operations of Object.values(document.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(operations)) {
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['4XX', '5XX']));
      }
    }
  });

  it('serves an interactive reference at /docs', async () => {
    let response = await test.app.inject({ method: 'GET', url: '/docs' });
    if (response.statusCode === 301 || response.statusCode === 302) {
      response = await test.app.inject({ method: 'GET', url: String(response.headers.location) });
    }
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toMatch(/Scalar\.createApiReference/);
  });
});

describe('health', () => {
  it('GET /healthz answers while the process is up', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz is 200 when PostgreSQL, Redis and Temporal answer', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ready',
      checks: { postgres: 'ok', redis: 'ok', temporal: 'ok' },
    });
  });

  it('GET /readyz is 503 naming every dependency that does not answer', async () => {
    // Real clients pointed at closed ports: nothing is mocked.
    const deadRedis = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    deadRedis.on('error', () => undefined);
    const deadTemporal = createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });
    const broken = buildApp({ ...test.ctx.deps, redis: deadRedis, temporal: deadTemporal });
    try {
      const response = await broken.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        error: { code: 'service_unavailable', message: 'not ready: redis, temporal unreachable' },
      });
    } finally {
      // Let the client's own deadline end its gRPC retries before closing the channel.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await broken.close();
      deadRedis.disconnect();
      await deadTemporal.connection.close().catch(() => undefined);
    }
  });
});
