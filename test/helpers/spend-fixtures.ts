import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import type { App } from '../../api/app';
import { reserveSpend } from '../../api/access/spend-guard';
import { parseFlow } from '../../shared/domain/flow';
import { AppError } from '../../shared/errors';
import { createKey, type CreatedKey, type SignedIn } from './auth';
import type { TestApp } from './context';
import { expectError } from './errors';

/**
 * FLOW spend caps as the split spend-*.test.ts files drive them: a charged probe route, UTC
 * period boundaries computed independently of the product code, and keys and reservations
 * bound to a file's world.
 */

export const FLOW = 1_000_000n;

export function micro(flow: number): bigint {
  const value = parseFlow(flow);
  if (value === null) throw new Error(`not a FLOW amount: ${flow}`);
  return value;
}

/** A charged endpoint that exists only in the spend tests. */
export const chargeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/__probe/charge',
    {
      config: { auth: 'user' },
      schema: {
        body: z.strictObject({
          cost: z.number().min(0),
          actual: z.number().min(0).optional(),
          fail: z.enum(['client', 'server']).optional(),
        }),
        response: { 200: z.object({ ok: z.boolean() }) },
      },
    },
    async (request) => {
      await request.reserveFlow(micro(request.body.cost));
      if (request.body.fail === 'client') throw new AppError('invalid_request', 'boom');
      if (request.body.fail === 'server') throw new Error('the paid work crashed');
      if (request.body.actual !== undefined) await request.settleFlow(micro(request.body.actual));
      return { ok: true };
    },
  );
};

export function charge(app: App, key: string, body: Record<string, unknown>) {
  return app.inject({
    method: 'POST',
    url: '/__probe/charge',
    headers: { 'x-api-key': key },
    payload: body,
  });
}

export function flowHeaders(response: LightMyRequestResponse) {
  return {
    cost: response.headers['x-flow-cost'],
    used: response.headers['x-flow-period-used'],
    limit: response.headers['x-flow-period-limit'],
    reset: response.headers['x-flow-period-reset'],
  };
}

export function free(app: App, key: string) {
  return app.inject({ method: 'GET', url: '/me', headers: { 'x-api-key': key } });
}

/**
 * A free request on an instance other than the one that changed the key: its cached view of
 * the key is dropped by a Redis pub/sub message, which may land a moment after the change.
 */
export async function freeOnOtherInstance(app: App, key: string, used: string) {
  let response = await free(app, key);
  for (let i = 0; i < 40 && response.headers['x-flow-period-used'] !== used; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    response = await free(app, key);
  }
  return response;
}

export function utcMidnight(d: Date, addDays = 0): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + addDays));
}

/** Next UTC midnight, computed independently of the product code. */
export const nextDay = (now = new Date()) => utcMidnight(now, 1).toISOString();
/** Next Monday 00:00 UTC. */
export const nextMonday = (now = new Date()) =>
  utcMidnight(now, 7 - ((now.getUTCDay() + 6) % 7)).toISOString();
/** Next 1st of the month 00:00 UTC. */
export const nextMonth = (now = new Date()) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();

export function expectCapRefusal(response: LightMyRequestResponse) {
  expectError(response, 402, 'spend_limit_reached');
}

export async function expectRefused(promise: Promise<unknown>) {
  await expect(promise).rejects.toMatchObject({ code: 'spend_limit_reached', status: 402 });
}

/** The helpers of one test file, bound to its world and its signed-in key owner. */
export function spendFixtures(test: TestApp, session: () => SignedIn) {
  let n = 0;

  function newKey(body: Record<string, unknown>, owner = session()): Promise<CreatedKey> {
    return createKey(test.app, owner, { name: `spend ${++n}`, rate_limit_rpm: 100_000, ...body });
  }

  async function spendUsed(keyId: string): Promise<bigint> {
    const [row] = await test.ctx.sql<{ spend_used: string }>(
      'select spend_used from api_keys where id = $1',
      [keyId],
    );
    if (!row) throw new Error(`no key ${keyId}`);
    return BigInt(row.spend_used);
  }

  async function listedKey(keyId: string, owner = session()) {
    const response = await test.app.inject({
      method: 'GET',
      url: '/me/api-keys',
      headers: { cookie: owner.cookie },
    });
    expect(response.statusCode).toBe(200);
    const key = response
      .json<{ items: { id: string; [field: string]: unknown }[] }>()
      .items.find((item) => item.id === keyId);
    if (!key) throw new Error(`key ${keyId} not listed`);
    return key;
  }

  async function reserve(keyId: string, flow: number, now: Date) {
    return reserveSpend(test.ctx.deps.orm.em.fork(), keyId, micro(flow), now);
  }

  return { newKey, spendUsed, listedKey, reserve };
}
