import { Client as PgClient } from 'pg';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UsageRecorder } from '../../api/access/usage-recorder';
import { createKey, signIn, type CreatedKey, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';

/**
 * What every request costs besides its own work (performance issue, items 3 to 5): one log
 * line, a response serializer compiled once that writes what zod wrote, and no database
 * round trip for a user read the credential cache can answer.
 */

const detail = z.object({
  id: z.number().int(),
  name: z.string(),
  note: z.string().nullable(),
  limit: z.number().nullable(),
  tags: z.array(z.string()),
  owner: z.object({ id: z.number(), label: z.string().optional() }).nullable(),
  state: z.enum(['draft', 'live']),
  params: z.record(z.string(), z.unknown()),
  value: z.union([z.string(), z.number()]),
  event: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('call'), tool: z.string() }),
    z.object({ kind: z.literal('error'), message: z.string().nullable() }),
  ]),
  at: z.iso.datetime(),
  extra: z.unknown(),
  missing: z.string().optional(),
});

/** What handlers hand the serializer: the declared fields plus internals it must drop. */
const built = [
  {
    id: 1,
    name: 'alpha',
    note: null,
    limit: null,
    tags: ['a', 'b'],
    owner: null,
    state: 'live',
    params: { sym: 'ABC', decimals: 18, nested: { ok: true, none: null } },
    value: 'text',
    event: { kind: 'error', message: null, stack: 'at internal.ts:1' },
    at: '2026-11-24T10:00:00.000Z',
    extra: { anything: [1, null] },
    passwordHash: 'secret internals',
    spendUsed: 12n,
  },
  {
    id: 2,
    name: 'beta',
    note: 'n',
    limit: 2.5,
    tags: [],
    owner: { id: 7, label: 'x', internal: 'drop me' },
    state: 'draft',
    params: {},
    value: 3,
    event: { kind: 'call', tool: 'search', costMicro: 5n },
    at: '2026-11-24T10:00:00.000Z',
    extra: undefined,
    missing: undefined,
  },
];

const serializationProbe: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/__probe/serialized',
    {
      config: { auth: 'public' },
      schema: { response: { 200: z.object({ items: z.array(detail) }) } },
    },
    async () => ({ items: built }) as never,
  );
  app.get(
    '/__probe/incomplete',
    { config: { auth: 'public' }, schema: { response: { 200: detail } } },
    async () => ({ id: 3 }) as never,
  );
};

const test = useTestApp({ plugins: [serializationProbe], env: UNLIMITED_RATES });

let session: SignedIn;
let key: CreatedKey;

beforeAll(async () => {
  session = await signIn(test.app);
  key = await createKey(test.app, session);
});

function linesOf(requestId: string) {
  return test.ctx.logs.filter((line) => line.requestId === requestId);
}

describe('request log', () => {
  it('writes exactly one line per successful request, with no credential in it', async () => {
    const cases = [
      { id: 'log-key', url: '/me', headers: { 'x-api-key': key.key, cookie: session.cookie } },
      { id: 'log-bearer', url: '/me', headers: { authorization: `Bearer ${session.token}` } },
      { id: 'log-cookie', url: '/me', headers: { cookie: session.cookie } },
      { id: 'log-health', url: '/healthz', headers: { authorization: 'Bearer not-read' } },
    ];
    for (const { id, url, headers } of cases) {
      const response = await test.app.inject({
        method: 'GET',
        url: `${url}?trace=1`,
        headers: { ...headers, 'x-request-id': id },
      });
      expect(response.statusCode).toBe(200);
      const lines = linesOf(id);
      expect(lines).toEqual([
        {
          level: 30,
          time: expect.any(Number),
          pid: expect.any(Number),
          hostname: expect.any(String),
          name: 'test',
          requestId: id,
          method: 'GET',
          route: url,
          status: 200,
          responseTime: expect.any(Number),
          msg: 'request completed',
        },
      ]);
    }
    const everything = JSON.stringify(test.ctx.logs);
    for (const secret of [key.key, key.key.slice(9), session.token, session.cookie]) {
      expect(everything.includes(secret)).toBe(false);
    }
  });

  it('adds the error line to a failed request and still ends with the completion line', async () => {
    await test.app.inject({ method: 'GET', url: '/me', headers: { 'x-request-id': 'log-401' } });
    expect(linesOf('log-401')).toEqual([
      expect.objectContaining({ level: 40, code: 'unauthenticated' }),
      expect.objectContaining({ level: 30, route: '/me', status: 401, msg: 'request completed' }),
    ]);
  });
});

describe('response serialization', () => {
  it('writes what zod wrote: unknown keys dropped, nulls kept, unions and records intact', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/__probe/serialized' });
    expect(response.statusCode).toBe(200);
    const zodWrote = JSON.parse(
      JSON.stringify(z.object({ items: z.array(detail) }).parse({ items: built })),
    ) as unknown;
    expect(response.json()).toEqual(zodWrote);
    // Spelled out, so the test does not only trust zod's own output.
    const [first, second] = response.json<{ items: Record<string, unknown>[] }>().items;
    expect(first).toMatchObject({ note: null, limit: null, owner: null });
    expect(first?.event).toEqual({ kind: 'error', message: null });
    expect(first?.params).toEqual({ sym: 'ABC', decimals: 18, nested: { ok: true, none: null } });
    expect(second?.owner).toEqual({ id: 7, label: 'x' });
    expect(second?.event).toEqual({ kind: 'call', tool: 'search' });
    expect(second).not.toHaveProperty('extra');
    expect(second).not.toHaveProperty('missing');
    expect(response.body).not.toMatch(/passwordHash|secret internals|spendUsed|drop me|stack/);
  });

  it('answers 500 internal_error when a built response lacks a required field', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/__probe/incomplete' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: { code: 'internal_error', message: 'Internal server error' },
    });
  });
});

/** The usage recorder's batch write: on its own timer, not part of any one request. */
const USAGE_WRITE = /api_key_usage|last_used_at|^\s*(begin|commit)/i;

/** Every statement any PostgreSQL client of this process sends while `work` runs. */
async function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const original = Reflect.get(PgClient.prototype, 'query') as (...a: unknown[]) => unknown;
  const query = jest.spyOn(PgClient.prototype, 'query').mockImplementation(function (
    this: PgClient,
    ...args: unknown[]
  ) {
    const [config] = args;
    const text = typeof config === 'string' ? config : (config as { text?: string })?.text;
    if (text) sent.push(text);
    return original.apply(this, args) as never;
  });
  try {
    await work();
  } finally {
    query.mockRestore();
  }
  return sent;
}

describe('GET /me', () => {
  it('makes no database round trip when the key is cached', async () => {
    const fresh = await createKey(test.app, session, { name: 'cold' });
    const headers = { 'x-api-key': fresh.key };
    // The first request reads the key (and its user) once: proof the spy sees the database.
    const cold = await statementsDuring(() =>
      test.app.inject({ method: 'GET', url: '/me', headers }),
    );
    expect(cold.filter((text) => !USAGE_WRITE.test(text)).length).toBeGreaterThanOrEqual(1);

    const warm = await statementsDuring(async () => {
      for (let i = 0; i < 5; i++) {
        const response = await test.app.inject({ method: 'GET', url: '/me', headers });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({
          id: session.userId,
          address: session.account.address.toLowerCase(),
          matrixUserId: null,
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        });
      }
    });
    expect(warm.filter((text) => !USAGE_WRITE.test(text))).toEqual([]);
  });

  it('answers from the session cache just as from the database', async () => {
    const [row] = await test.ctx.sql<{ address: string; created_at: Date }>(
      'select address, created_at from users where id = $1',
      [session.userId],
    );
    const warm = await statementsDuring(async () => {
      for (const headers of [
        { cookie: session.cookie },
        { authorization: `Bearer ${session.token}` },
        { 'x-api-key': key.key },
      ]) {
        const response = await test.app.inject({ method: 'GET', url: '/me', headers });
        expect(response.json()).toEqual({
          id: session.userId,
          address: row?.address,
          matrixUserId: null,
          createdAt: row?.created_at.toISOString(),
        });
      }
    });
    expect(warm.filter((text) => !USAGE_WRITE.test(text))).toEqual([]);
  });
});

describe('usage recorder', () => {
  it('writes a steady stream of requests in a few batches, not one transaction per trickle', async () => {
    const recorder = new UsageRecorder(test.ctx.deps.orm, test.ctx.logger, {
      flushIntervalMs: 60_000,
    });
    const sent = await statementsDuring(async () => {
      // 1,000 requests, 10 a millisecond: more keep arriving while each batch is written.
      for (let i = 0; i < 100; i++) {
        for (let j = 0; j < 10; j++) {
          recorder.record({
            apiKeyId: key.id,
            method: 'GET',
            route: '/me',
            status: 200,
            latencyMs: 1,
            flowCost: 0n,
            model: null,
            inputTokens: 0,
            outputTokens: 0,
            createdAt: new Date(),
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await recorder.close();
    });
    const inserts = sent.filter((text) => /insert into api_key_usage/i.test(text));
    // A batch of 500, then what arrived meanwhile, then the rest at close.
    expect(inserts.length).toBeLessThanOrEqual(4);
    const [row] = await test.ctx.sql<{ count: string }>(
      "select count(*) from api_key_usage where api_key_id = $1 and route = '/me'",
      [key.id],
    );
    expect(Number(row?.count)).toBeGreaterThanOrEqual(1000);
  });
});
