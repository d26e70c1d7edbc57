import { randomUUID } from 'node:crypto';
import { defaultPayloadConverter, type Client } from '@temporalio/client';
import { buildApp } from '../../api/app';
import { MAX_WEBHOOKS_PER_USER } from '../../api/routes/webhooks/schemas';
import { webhookTaskQueue, workflowIds, workflowTypes } from '../../shared/temporal';
import { WEBHOOK_EVENTS } from '../../shared/webhooks/events';
import { createKey, signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';

/**
 * Webhook endpoints (spec "Webhooks", docs/spec/contract.md §7): subscriptions, the event catalog, test
 * pings, soft delete, and the delivery history with redelivery. No worker runs here: a started
 * delivery workflow stays pending in Temporal, where its id and input are checked.
 */

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const URL_OK = 'http://127.0.0.1:9/hooks';

type Headers = Record<string, string>;

let alice: SignedIn;
let bob: SignedIn;
const startedDeliveries: string[] = [];

const test = useTestApp({
  env: UNLIMITED_RATES,
  // Nothing runs these workflows here; end them so they do not linger on the server.
  beforeClose: async ({ ctx }) => {
    for (const id of startedDeliveries) {
      await ctx.deps.temporal.workflow
        .getHandle(workflowIds.webhookDelivery(id))
        .terminate('test over')
        .catch(() => undefined);
    }
  },
});
beforeAll(async () => {
  alice = await signIn(test.app);
  bob = await signIn(test.app);
});

const as = (session: SignedIn): Headers => ({ cookie: session.cookie });

function call(method: 'GET' | 'POST' | 'DELETE', url: string, headers: Headers, payload?: object) {
  return test.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

async function subscribe(owner: SignedIn, body: object = { url: URL_OK }) {
  const response = await call('POST', '/me/webhooks', as(owner), body);
  expect(response.statusCode).toBe(201);
  return response.json<{ webhook: { id: string; secret: string; events: string[] } }>().webhook;
}

/** The delivery workflow as Temporal has it: status, type, queue and the input it was given. */
async function deliveryWorkflow(deliveryId: string) {
  startedDeliveries.push(deliveryId);
  const handle = test.ctx.deps.temporal.workflow.getHandle(workflowIds.webhookDelivery(deliveryId));
  const description = await handle.describe();
  const history = await handle.fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  return {
    status: description.status.name,
    type: description.type,
    taskQueue: description.taskQueue,
    input: started?.input?.payloads?.map((payload) => defaultPayloadConverter.fromPayload(payload)),
  };
}

async function deliveryRow(id: string) {
  const [row] = await test.ctx.sql('select * from webhook_deliveries where id = $1', [id]);
  return row;
}

describe('POST /me/webhooks', () => {
  it('creates a subscription with its secret, in the decided shape', async () => {
    const response = await call('POST', '/me/webhooks', as(alice), { url: URL_OK });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      webhook: {
        id: expect.stringMatching(UUID),
        url: URL_OK,
        events: [],
        secret: expect.stringMatching(SECRET),
        created_at: expect.stringMatching(ISO),
        last_error: null,
      },
    });
  });

  it('keeps known events once each, in the order given', async () => {
    const webhook = await subscribe(alice, {
      url: URL_OK,
      events: ['project.failed', 'agent.published', 'project.failed'],
    });
    expect(webhook.events).toEqual(['project.failed', 'agent.published']);
    expect(await subscribe(alice, { url: URL_OK, events: [] })).toMatchObject({ events: [] });
  });

  it('refuses unknown events, naming the value; ping is not subscribable', async () => {
    for (const bad of ['project.exploded', 'ping']) {
      const response = await call('POST', '/me/webhooks', as(alice), {
        url: URL_OK,
        events: ['project.completed', bad],
      });
      expectError(
        response,
        400,
        'invalid_request',
        `events: unknown event "${bad}"; GET /me/webhooks/events lists them`,
      );
    }
    const notArray = await call('POST', '/me/webhooks', as(alice), { url: URL_OK, events: 'x' });
    expectError(notArray, 400, 'invalid_request', 'events: must be an array of event names');
  });

  it('refuses a missing url, an unknown field and a non-https url', async () => {
    expectError(
      await call('POST', '/me/webhooks', as(alice), { events: [] }),
      400,
      'invalid_request',
      'url: is required',
    );
    expectError(
      await call('POST', '/me/webhooks', as(alice), { url: URL_OK, secret: 'mine' }),
      400,
      'invalid_request',
      'secret: is not a known field',
    );
    expectError(
      await call('POST', '/me/webhooks', as(alice), { url: 'ftp://example.com/x' }),
      400,
      'invalid_url',
      'url: must use https',
    );
  });

  it('accepts a Bearer session and an x-api-key; anonymous is 401', async () => {
    const { key } = await createKey(test.app, bob);
    const credentials: Headers[] = [{ authorization: `Bearer ${bob.token}` }, { 'x-api-key': key }];
    for (const headers of credentials) {
      expect((await call('POST', '/me/webhooks', headers, { url: URL_OK })).statusCode).toBe(201);
    }
    expectError(await call('POST', '/me/webhooks', {}, { url: URL_OK }), 401, 'unauthenticated');
  });

  it(`allows ${MAX_WEBHOOKS_PER_USER} live subscriptions per user; deleting frees a place`, async () => {
    const carol = await signIn(test.app);
    const ids: string[] = [];
    for (let i = 0; i < MAX_WEBHOOKS_PER_USER; i += 1) ids.push((await subscribe(carol)).id);
    expectError(
      await call('POST', '/me/webhooks', as(carol), { url: URL_OK }),
      409,
      'webhook_limit_reached',
      `A user can hold at most ${MAX_WEBHOOKS_PER_USER} webhooks; delete one first`,
    );
    expect((await call('DELETE', `/me/webhooks/${ids[0]}`, as(carol))).statusCode).toBe(204);
    await subscribe(carol);
  });

  it('replays a creation repeated with the same Idempotency-Key: one row, the same secret', async () => {
    const dave = await signIn(test.app);
    const headers = { ...as(dave), 'idempotency-key': `hook-${randomUUID()}` };
    const first = await call('POST', '/me/webhooks', headers, { url: URL_OK });
    const second = await call('POST', '/me/webhooks', headers, { url: URL_OK });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    const rows = await test.ctx.sql('select id from webhooks where user_id = $1', [dave.userId]);
    expect(rows).toHaveLength(1);
  });
});

describe('GET /me/webhooks', () => {
  it('lists only the caller’s live subscriptions, never a secret, with last_error', async () => {
    const erin = await signIn(test.app);
    const kept = await subscribe(erin, { url: URL_OK, events: ['flow.balance.low'] });
    const gone = await subscribe(erin);
    await subscribe(bob);
    await call('DELETE', `/me/webhooks/${gone.id}`, as(erin));
    const failure = {
      at: '2026-11-22T10:00:00.000Z',
      deliveryId: randomUUID(),
      status: 500,
      error: 'receiver answered 500',
    };
    await test.ctx.sql('update webhooks set last_error = $1 where id = $2', [failure, kept.id]);

    const response = await call('GET', '/me/webhooks', as(erin));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      items: [
        {
          id: kept.id,
          url: URL_OK,
          events: ['flow.balance.low'],
          created_at: expect.stringMatching(ISO),
          last_error: {
            at: failure.at,
            delivery_id: failure.deliveryId,
            status: 500,
            error: failure.error,
          },
        },
      ],
    });
    expect(response.body).not.toContain(kept.secret);
    expect(response.body).not.toContain('whsec_');
    expectError(await call('GET', '/me/webhooks', {}), 401, 'unauthenticated');
  });
});

describe('GET /me/webhooks/events', () => {
  it('serves the catalog (not taken for a webhook id); anonymous is 401', async () => {
    const response = await call('GET', '/me/webhooks/events', as(alice));
    expect({ status: response.statusCode, body: response.json() }).toEqual({
      status: 200,
      body: { events: [...WEBHOOK_EVENTS] },
    });
    expectError(await call('GET', '/me/webhooks/events', {}), 401, 'unauthenticated');
  });
});

describe('DELETE /me/webhooks/:id', () => {
  it('soft-deletes: 204 without a body, then 404 for every endpoint of that id', async () => {
    const webhook = await subscribe(alice);
    const deleted = await call('DELETE', `/me/webhooks/${webhook.id}`, as(alice));
    expect({ status: deleted.statusCode, body: deleted.body }).toEqual({ status: 204, body: '' });
    const [row] = await test.ctx.sql('select deleted_at from webhooks where id = $1', [webhook.id]);
    expect(row?.deleted_at).toBeInstanceOf(Date);
    for (const [method, path] of [
      ['DELETE', ''],
      ['POST', '/test'],
      ['GET', '/deliveries'],
    ] as const) {
      expectError(
        await call(method, `/me/webhooks/${webhook.id}${path}`, as(alice)),
        404,
        'webhook_not_found',
        `webhook ${webhook.id} does not exist`,
      );
    }
  });

  it('answers 404 for another user’s id or a malformed id, and 401 anonymously', async () => {
    const webhook = await subscribe(alice);
    expectError(
      await call('DELETE', `/me/webhooks/${webhook.id}`, as(bob)),
      404,
      'webhook_not_found',
    );
    expectError(
      await call('DELETE', '/me/webhooks/not-a-uuid', as(alice)),
      404,
      'webhook_not_found',
    );
    expectError(await call('DELETE', `/me/webhooks/${webhook.id}`, {}), 401, 'unauthenticated');
    const [row] = await test.ctx.sql('select deleted_at from webhooks where id = $1', [webhook.id]);
    expect(row?.deleted_at).toBeNull();
  });
});

describe('POST /me/webhooks/:id/test', () => {
  it('writes a pending ping delivery and starts its workflow at once: 202 {delivery_id}', async () => {
    const webhook = await subscribe(alice);
    const response = await call('POST', `/me/webhooks/${webhook.id}/test`, as(alice));
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ delivery_id: expect.stringMatching(UUID) });
    const deliveryId = response.json<{ delivery_id: string }>().delivery_id;
    expect(await deliveryRow(deliveryId)).toMatchObject({
      webhook_id: webhook.id,
      outbox_event_id: null,
      event: 'ping',
      status: 'pending',
      attempts: 0,
      completed_at: null,
      payload: {
        id: expect.stringMatching(UUID),
        event: 'ping',
        user_id: alice.userId,
        created_at: expect.stringMatching(ISO),
        data: { webhook_id: webhook.id },
      },
    });
    expect(await deliveryWorkflow(deliveryId)).toEqual({
      status: 'RUNNING',
      type: workflowTypes.webhookDelivery,
      taskQueue: webhookTaskQueue(test.ctx.config.temporal.taskQueue),
      input: [{ deliveryId }],
    });
  });

  it('gives each ping its own envelope id', async () => {
    const webhook = await subscribe(alice);
    const ids = [];
    for (let i = 0; i < 2; i += 1) {
      const response = await call('POST', `/me/webhooks/${webhook.id}/test`, as(alice));
      const deliveryId = response.json<{ delivery_id: string }>().delivery_id;
      startedDeliveries.push(deliveryId);
      ids.push(((await deliveryRow(deliveryId))?.payload as { id: string }).id);
    }
    expect(new Set(ids).size).toBe(2);
  });

  it('answers 404 for another user’s webhook and 401 anonymously, starting nothing', async () => {
    const webhook = await subscribe(alice);
    expectError(
      await call('POST', `/me/webhooks/${webhook.id}/test`, as(bob)),
      404,
      'webhook_not_found',
    );
    expectError(await call('POST', `/me/webhooks/${webhook.id}/test`, {}), 401, 'unauthenticated');
    const rows = await test.ctx.sql('select id from webhook_deliveries where webhook_id = $1', [
      webhook.id,
    ]);
    expect(rows).toEqual([]);
  });

  it('answers 503 and keeps no delivery when Temporal cannot be reached', async () => {
    const webhook = await subscribe(alice);
    const api = buildApp({ ...test.ctx.deps, temporal: refusingStarts(test.ctx.deps.temporal) });
    try {
      const response = await api.inject({
        method: 'POST',
        url: `/me/webhooks/${webhook.id}/test`,
        headers: as(alice),
      });
      expectError(
        response,
        503,
        'service_unavailable',
        'The delivery service is unreachable; try again later',
      );
    } finally {
      await api.close();
    }
    const rows = await test.ctx.sql('select id from webhook_deliveries where webhook_id = $1', [
      webhook.id,
    ]);
    expect(rows).toEqual([]);
  });
});

/** The real client, except that starting a workflow fails as an unreachable server does. */
function refusingStarts(real: Client): Client {
  const workflow = new Proxy(real.workflow, {
    get: (target, property): unknown => {
      if (property === 'start') return () => Promise.reject(new Error('Deadline exceeded'));
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  return new Proxy(real, {
    get: (target, property): unknown =>
      property === 'workflow' ? workflow : (Reflect.get(target, property) as unknown),
  });
}

describe('GET /me/webhooks/:id/deliveries', () => {
  /** A delivery as the workflow leaves it, written directly: no worker runs in this file. */
  async function recordDelivery(webhookId: string, createdAt: string, attempts: number) {
    const id = randomUUID();
    const envelope = { id: randomUUID(), event: 'project.completed', user_id: alice.userId };
    await test.ctx.sql(
      `insert into webhook_deliveries (id, webhook_id, event, payload, status, attempts,
         created_at, completed_at)
       values ($1, $2, 'project.completed', $3, $4, $5, $6, $7)`,
      [
        id,
        webhookId,
        envelope,
        attempts ? 'failed' : 'pending',
        attempts,
        createdAt,
        attempts ? createdAt : null,
      ],
    );
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      await test.ctx.sql(
        `insert into webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms,
           status_code, error, response_body) values ($1, $2, $3, 12, $4, $5, 'nope')`,
        [id, attempt, createdAt, attempt === 1 ? null : 500, attempt === 1 ? 'timeout' : null],
      );
    }
    return { id, eventId: envelope.id };
  }

  it('pages newest first, each delivery with its attempts in order', async () => {
    const webhook = await subscribe(alice);
    const older = await recordDelivery(webhook.id, '2026-11-22T10:00:00.000Z', 2);
    const newer = await recordDelivery(webhook.id, '2026-11-22T11:00:00.000Z', 0);
    const url = `/me/webhooks/${webhook.id}/deliveries`;
    const first = await call('GET', `${url}?limit=1`, as(alice));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      items: [
        {
          id: newer.id,
          event: 'project.completed',
          event_id: newer.eventId,
          status: 'pending',
          attempts: [],
          created_at: '2026-11-22T11:00:00.000Z',
          completed_at: null,
        },
      ],
      nextCursor: expect.any(String),
    });
    const cursor = first.json<{ nextCursor: string }>().nextCursor;
    const second = await call(
      'GET',
      `${url}?limit=1&cursor=${encodeURIComponent(cursor)}`,
      as(alice),
    );
    expect(second.json()).toEqual({
      items: [
        {
          id: older.id,
          event: 'project.completed',
          event_id: older.eventId,
          status: 'failed',
          attempts: [
            {
              attempt: 1,
              started_at: '2026-11-22T10:00:00.000Z',
              status_code: null,
              duration_ms: 12,
              error: 'timeout',
            },
            {
              attempt: 2,
              started_at: '2026-11-22T10:00:00.000Z',
              status_code: 500,
              duration_ms: 12,
              error: null,
            },
          ],
          created_at: '2026-11-22T10:00:00.000Z',
          completed_at: '2026-11-22T10:00:00.000Z',
        },
      ],
      nextCursor: null,
    });
    // The cursor belongs to this webhook's list only.
    const other = await subscribe(alice);
    expectError(
      await call(
        'GET',
        `/me/webhooks/${other.id}/deliveries?cursor=${encodeURIComponent(cursor)}`,
        as(alice),
      ),
      400,
      'invalid_cursor',
    );
    expectError(await call('GET', `${url}?limit=0`, as(alice)), 400, 'invalid_request');
  });

  it('answers 404 for another user’s webhook and 401 anonymously', async () => {
    const webhook = await subscribe(alice);
    const url = `/me/webhooks/${webhook.id}/deliveries`;
    expectError(await call('GET', url, as(bob)), 404, 'webhook_not_found');
    expectError(await call('GET', url, {}), 401, 'unauthenticated');
  });
});

describe('POST /me/webhooks/:id/deliveries/:deliveryId/redeliver', () => {
  it('starts a new delivery of the same envelope; the original stays as it was', async () => {
    const webhook = await subscribe(alice);
    const ping = await call('POST', `/me/webhooks/${webhook.id}/test`, as(alice));
    const originalId = ping.json<{ delivery_id: string }>().delivery_id;
    startedDeliveries.push(originalId);
    await test.ctx.sql(
      "update webhook_deliveries set status = 'failed', attempts = 4, completed_at = now() where id = $1",
      [originalId],
    );
    const original = await deliveryRow(originalId);

    const url = `/me/webhooks/${webhook.id}/deliveries/${originalId}/redeliver`;
    const response = await call('POST', url, as(alice));
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ delivery_id: expect.stringMatching(UUID) });
    const newId = response.json<{ delivery_id: string }>().delivery_id;
    expect(newId).not.toBe(originalId);
    expect(await deliveryRow(newId)).toMatchObject({
      webhook_id: webhook.id,
      event: 'ping',
      status: 'pending',
      attempts: 0,
      completed_at: null,
      payload: original?.payload,
    });
    expect(await deliveryRow(originalId)).toEqual(original);
    expect(await deliveryWorkflow(newId)).toMatchObject({
      status: 'RUNNING',
      type: workflowTypes.webhookDelivery,
      input: [{ deliveryId: newId }],
    });
  });

  it('answers 404 delivery_not_found for a delivery of another webhook or a bad id', async () => {
    const webhook = await subscribe(alice);
    const other = await subscribe(alice);
    const ping = await call('POST', `/me/webhooks/${other.id}/test`, as(alice));
    const foreign = ping.json<{ delivery_id: string }>().delivery_id;
    startedDeliveries.push(foreign);
    for (const deliveryId of [foreign, randomUUID(), 'nope']) {
      expectError(
        await call(
          'POST',
          `/me/webhooks/${webhook.id}/deliveries/${deliveryId}/redeliver`,
          as(alice),
        ),
        404,
        'delivery_not_found',
        `delivery ${deliveryId} does not exist`,
      );
    }
  });

  it('answers 404 webhook_not_found to another user, 401 anonymously', async () => {
    const webhook = await subscribe(alice);
    const ping = await call('POST', `/me/webhooks/${webhook.id}/test`, as(alice));
    const deliveryId = ping.json<{ delivery_id: string }>().delivery_id;
    startedDeliveries.push(deliveryId);
    const url = `/me/webhooks/${webhook.id}/deliveries/${deliveryId}/redeliver`;
    expectError(await call('POST', url, as(bob)), 404, 'webhook_not_found');
    expectError(await call('POST', url, {}), 401, 'unauthenticated');
    const rows = await test.ctx.sql('select id from webhook_deliveries where webhook_id = $1', [
      webhook.id,
    ]);
    expect(rows).toHaveLength(1);
  });
});
