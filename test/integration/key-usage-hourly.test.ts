import type { Actor } from '../../api/access/actor';
import { UsageRecorder } from '../../api/access/usage-recorder';
import { keyUsage } from '../../api/routes/keys/usage';
import { createKey, signIn, type SignedIn } from '../helpers/auth';
import { useTestApp } from '../helpers/context';

/**
 * The read model `api_key_usage_hourly` against `api_key_usage`: the stored hourly sums equal
 * a recomputation after every kind of write, and the usage summary, read from whole hours
 * plus raw edge hours, equals a summary computed here from the raw rows for windows that cut
 * hours anywhere (docs/decisions.md "Hot reads").
 */

const test = useTestApp();
const HOUR = 3_600_000;

const STORED = `
  select api_key_id::text as key, hour, method, route, model, requests::int, errors::int,
         flow_cost::text as flow, input_tokens::int as input, output_tokens::int as output
    from api_key_usage_hourly where requests <> 0`;

const RECOMPUTED = `
  select api_key_id::text as key, date_trunc('hour', created_at, 'UTC') as hour, method, route,
         coalesce(model, '') as model, count(*)::int as requests,
         count(*) filter (where status >= 400)::int as errors, sum(flow_cost)::text as flow,
         sum(input_tokens)::int as input, sum(output_tokens)::int as output
    from api_key_usage group by 1, 2, 3, 4, 5`;

async function drift(): Promise<unknown[]> {
  return test.ctx.sql(
    `select * from ((${STORED}) except all (${RECOMPUTED})) a
     union all
     select * from ((${RECOMPUTED}) except all (${STORED})) b`,
  );
}

let alice: SignedIn;
let keyId: string;
/** Usage rows spread over 40 days before `base`, at minutes that cut hours anywhere. */
const base = new Date('2026-11-20T12:00:00.000Z');

beforeAll(async () => {
  alice = await signIn(test.app);
  keyId = (await createKey(test.app, alice)).id;
  // The key must exist before its oldest usage for since=all to start there.
  await test.ctx.sql(`update api_keys set created_at = $2 where id = $1`, [
    keyId,
    new Date(base.getTime() - 41 * 24 * HOUR),
  ]);
  await test.ctx.sql(
    `insert into api_key_usage (id, api_key_id, method, route, status, latency_ms, flow_cost,
                                model, input_tokens, output_tokens, created_at)
     select gen_random_uuid(), $1, (array['GET', 'POST'])[1 + i % 2],
            (array['/me', '/agents/:slug/invoke', '/tokens'])[1 + i % 3],
            (array[200, 200, 402, 500])[1 + i % 4], 5, i % 7,
            (array[null, 'gpt-x', 'claude-y', ''])[1 + i % 4], i % 11, i % 13,
            $2::timestamptz - (i * 397 || ' seconds')::interval
       from generate_series(1, 9000) as i`,
    [keyId, base],
  );
});

/** The summary computed in JavaScript from every raw row of the key. */
async function expected(from: Date, to: Date) {
  const rows = await test.ctx.sql<{
    method: string;
    route: string;
    status: number;
    flow: string;
    model: string | null;
    input: number;
    output: number;
  }>(
    `select method, route, status, flow_cost::text as flow, model, input_tokens as input,
            output_tokens as output
       from api_key_usage where api_key_id = $1 and created_at >= $2 and created_at <= $3`,
    [keyId, from, to],
  );
  const models = new Map<
    string,
    { requests: number; flow: bigint; input: number; output: number }
  >();
  const endpoints = new Map<string, number>();
  let flow = 0n;
  for (const row of rows) {
    flow += BigInt(row.flow);
    if (row.model) {
      const m = models.get(row.model) ?? { requests: 0, flow: 0n, input: 0, output: 0 };
      m.requests += 1;
      m.flow += BigInt(row.flow);
      m.input += row.input;
      m.output += row.output;
      models.set(row.model, m);
    }
    const endpoint = `${row.method} ${row.route}`;
    endpoints.set(endpoint, (endpoints.get(endpoint) ?? 0) + 1);
  }
  return {
    requests: rows.length,
    errors: rows.filter((row) => row.status >= 400).length,
    flow: Number(flow) / 1e6,
    models: Object.fromEntries(
      [...models].map(([model, m]) => [
        model,
        { requests: m.requests, flow: Number(m.flow) / 1e6, input: m.input, output: m.output },
      ]),
    ),
    endpoints: Object.fromEntries(endpoints),
  };
}

async function actual(since: 'day' | 'week' | 'month' | 'all', now: Date) {
  const deps = { db: test.ctx.deps.db, usage: test.app.usage };
  const usage = await keyUsage(deps, { userId: alice.userId } as Actor, { id: keyId, since }, now);
  return {
    from: usage.from,
    summary: {
      requests: usage.requests,
      errors: usage.errors,
      flow: usage.flow_spent,
      models: Object.fromEntries(
        usage.by_model.map((m) => [
          m.model,
          {
            requests: m.requests,
            flow: m.flow_spent,
            input: m.input_tokens,
            output: m.output_tokens,
          },
        ]),
      ),
      endpoints: Object.fromEntries(
        usage.by_endpoint.map((e) => [`${e.method} ${e.route}`, e.requests]),
      ),
    },
  };
}

describe('api_key_usage_hourly', () => {
  it('holds the raw rows summed per hour', async () => {
    expect(await drift()).toEqual([]);
    const [count] = await test.ctx.sql<{ n: number }>(
      'select count(distinct hour)::int as n from api_key_usage_hourly where api_key_id = $1',
      [keyId],
    );
    expect(count!.n).toBeGreaterThan(900);
  });

  it('answers every window as the raw rows do, wherever it cuts an hour', async () => {
    const windows = { day: 24 * HOUR, week: 7 * 24 * HOUR, month: 30 * 24 * HOUR };
    const nows = [
      base, // on the hour
      new Date(base.getTime() - 17 * 60_000 - 250), // cuts hours at both edges
      new Date(base.getTime() - 5 * 24 * HOUR + 59 * 60_000 + 59_999),
    ];
    for (const now of nows) {
      for (const [since, span] of Object.entries(windows)) {
        const from = new Date(now.getTime() - span);
        const got = await actual(since as keyof typeof windows, now);
        expect(got.from).toBe(from.toISOString());
        expect(got.summary).toEqual(await expected(from, now));
        expect(got.summary.requests).toBeGreaterThan(0);
      }
      const all = await actual('all', now);
      expect(all.summary).toEqual(await expected(new Date(all.from), now));
    }
  });

  it('reads whole hours from the read model and only edge hours from raw rows', async () => {
    const now = new Date(base.getTime() - 17 * 60_000);
    const before = await actual('day', now);
    // An hour well inside the window: the read follows the read model there.
    const inside = new Date(base.getTime() - 10 * HOUR);
    const [{ n } = { n: 0 }] = await test.ctx.sql<{ n: number }>(
      `with bumped as (update api_key_usage_hourly set requests = requests + 1000
                        where api_key_id = $1 and hour = $2 and method = 'GET' and route = '/me'
                          and model = '' returning 1)
       select count(*)::int as n from bumped`,
      [keyId, inside],
    );
    expect(n).toBe(1);
    try {
      expect((await actual('day', now)).summary.requests).toBe(before.summary.requests + 1000);
    } finally {
      await test.ctx.sql(
        `update api_key_usage_hourly set requests = requests - 1000
          where api_key_id = $1 and hour = $2 and method = 'GET' and route = '/me' and model = ''`,
        [keyId, inside],
      );
    }
    // The partial hour at the window's end is read from raw rows, never from its hourly row.
    const lastHour = new Date(base.getTime() - HOUR);
    await test.ctx.sql(
      `update api_key_usage_hourly set requests = requests + 1000 where api_key_id = $1 and hour = $2`,
      [keyId, lastHour],
    );
    try {
      expect((await actual('day', now)).summary).toEqual(before.summary);
    } finally {
      await test.ctx.sql(
        `update api_key_usage_hourly set requests = requests - 1000 where api_key_id = $1 and hour = $2`,
        [keyId, lastHour],
      );
    }
    expect(await drift()).toEqual([]);
  });

  it('follows the recorder, updates, deletes and a key deletion', async () => {
    const recorder = new UsageRecorder(test.ctx.deps.orm, test.ctx.logger, {
      flushIntervalMs: 60_000,
    });
    const other = (await createKey(test.app, alice)).id;
    for (let i = 0; i < 50; i++) {
      recorder.record({
        apiKeyId: i % 2 ? keyId : other,
        method: 'GET',
        route: '/me',
        status: i % 5 ? 200 : 429,
        latencyMs: 1,
        flowCost: BigInt(i),
        model: i % 3 ? 'm' : '',
        inputTokens: i,
        outputTokens: 1,
        createdAt: new Date(),
      });
    }
    await recorder.close();
    expect(await drift()).toEqual([]);

    await test.ctx.sql(
      `update api_key_usage set status = 503 where api_key_id = $1 and status = 402`,
      [keyId],
    );
    expect(await drift()).toEqual([]);
    await test.ctx.sql(`delete from api_key_usage where api_key_id = $1 and route = '/tokens'`, [
      keyId,
    ]);
    expect(await drift()).toEqual([]);

    await test.ctx.sql('delete from api_keys where id = $1', [other]);
    const left = await test.ctx.sql('select 1 from api_key_usage_hourly where api_key_id = $1', [
      other,
    ]);
    expect(left).toEqual([]);
    expect(await drift()).toEqual([]);
  });
});
