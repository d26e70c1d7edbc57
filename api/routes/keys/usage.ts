import type { z } from 'zod';
import type { EntityManager } from '../../../shared/db/orm';
import { flowNumber } from '../../../shared/domain/flow';
import type { ApiKey } from '../../../shared/db/entities';
import type { recentSchema, usageQuery, usageSchema } from './schemas';

/**
 * Usage reads over `api_key_usage` (decisions §4). `since` is a rolling window ending now:
 * day = 24 h, week = 7 days, month = 30 days, all = since the key was created.
 */

type Since = z.output<typeof usageQuery>['since'];

const WINDOW_MS: Record<Exclude<Since, 'all'>, number> = {
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
};

export async function keyUsage(
  em: EntityManager,
  key: ApiKey,
  since: Since,
  now = new Date(),
): Promise<z.infer<typeof usageSchema>> {
  const from = since === 'all' ? key.createdAt : new Date(now.getTime() - WINDOW_MS[since]);
  const window = [key.id, from, now];
  const inWindow = 'api_key_id = ? and created_at >= ? and created_at <= ?';
  const [totals] = await em.execute<{ requests: string; errors: string; flow: string }[]>(
    `select count(*) as requests, count(*) filter (where status >= 400) as errors,
            coalesce(sum(flow_cost), 0) as flow
       from api_key_usage where ${inWindow}`,
    window,
  );
  const models = await em.execute<
    { model: string; requests: string; flow: string; input: string; output: string }[]
  >(
    `select model, count(*) as requests, coalesce(sum(flow_cost), 0) as flow,
            coalesce(sum(input_tokens), 0) as input, coalesce(sum(output_tokens), 0) as output
       from api_key_usage where ${inWindow} and model is not null
      group by model order by count(*) desc, model`,
    window,
  );
  const endpoints = await em.execute<{ method: string; route: string; requests: string }[]>(
    `select method, route, count(*) as requests from api_key_usage where ${inWindow}
      group by method, route order by count(*) desc, route, method`,
    window,
  );
  return {
    since,
    from: from.toISOString(),
    to: now.toISOString(),
    requests: Number(totals?.requests ?? 0),
    errors: Number(totals?.errors ?? 0),
    flow_spent: flowNumber(BigInt(totals?.flow ?? 0)),
    by_model: models.map((row) => ({
      model: row.model,
      requests: Number(row.requests),
      flow_spent: flowNumber(BigInt(row.flow)),
      input_tokens: Number(row.input),
      output_tokens: Number(row.output),
    })),
    by_endpoint: endpoints.map((row) => ({
      method: row.method,
      route: row.route,
      requests: Number(row.requests),
    })),
  };
}

export async function recentCalls(
  em: EntityManager,
  keyId: string,
  limit: number,
): Promise<z.infer<typeof recentSchema>> {
  const rows = await em.execute<
    {
      id: string;
      method: string;
      route: string;
      status: number;
      flow_cost: string;
      model: string | null;
      latency_ms: number;
      created_at: Date;
    }[]
  >(
    `select id, method, route, status, flow_cost, model, latency_ms, created_at
       from api_key_usage where api_key_id = ?
      order by created_at desc, id desc limit ?`,
    [keyId, limit],
  );
  return {
    items: rows.map((row) => ({
      id: row.id,
      method: row.method,
      route: row.route,
      status: row.status,
      flow_cost: flowNumber(BigInt(row.flow_cost)),
      model: row.model,
      latency_ms: row.latency_ms,
      created_at: new Date(row.created_at).toISOString(),
    })),
  };
}
