import type { SpendPeriod } from '../../../shared/domain/spend-period';
import { isoUtc, statement } from '../../../shared/db/sql';

/** The API key reads (decisions "Hot reads"): one prepared statement per response. */

/**
 * A key as `publicKey` reads it. Its times stay Dates: whether it is active and what it spent
 * this period are computed from them.
 */
export interface KeyRow {
  id: string;
  prefix: string;
  name: string;
  rateLimitRpm: number;
  /** micro-FLOW (int8, a string). */
  spendLimit: string | null;
  spendPeriod: SpendPeriod;
  spendUsed: string;
  spendPeriodStart: Date;
  lastUsedAt: Date | null;
  createdAt: Date;
  revokedAt: Date | null;
  expiresAt: Date | null;
}

/** The caller's active keys, newest first (index `api_keys (user_id, created_at)`). */
export const activeKeys = statement<KeyRow, [userId: number, now: Date]>(
  'keys.active',
  `select id, prefix, name, rate_limit_rpm as "rateLimitRpm", spend_limit as "spendLimit",
          spend_period as "spendPeriod", spend_used as "spendUsed",
          spend_period_start as "spendPeriodStart", last_used_at as "lastUsedAt",
          created_at as "createdAt", revoked_at as "revokedAt", expires_at as "expiresAt"
     from api_keys
    where user_id = $1 and revoked_at is null and (expires_at is null or expires_at > $2)
    order by created_at desc, id desc`,
);

/**
 * One row per group of the window's calls: the totals (`set` 'total'), each model
 * ('model', most used first) and each endpoint ('endpoint', most used first). No row at all
 * when the key is not the caller's. Calls without a model and, for a key without calls, the
 * null groups of the outer join are left out. Counts are int8 and sums numeric: strings.
 */
export interface UsageRow {
  from: string;
  set: 'total' | 'model' | 'endpoint';
  model: string | null;
  method: string | null;
  route: string | null;
  requests: string;
  errors: string;
  flow: string;
  input: string;
  output: string;
}

/**
 * The usage of one key over `[from, to]` (`from` null: since the key was created), grouped
 * three ways at once. Whole UTC hours inside the window come from the read model
 * `api_key_usage_hourly`; only the partial hours at the two edges are read request by request
 * (index `api_key_usage (api_key_id, created_at, id)`), so the cost grows with the window's
 * hours, not with its traffic. `lo_h` is the first whole hour, `hi_h` the start of the last
 * partial one; when they cross, the window lies within two hours and the edges cover it.
 * A model '' counts as no model, as in the read model.
 */
export const keyUsage = statement<
  UsageRow,
  [keyId: string, userId: number, from: Date | null, to: Date]
>(
  'keys.usage',
  `with k as (
     select id, coalesce($3::timestamptz, created_at) as from_at
       from api_keys where id = $1 and user_id = $2
   ), edges as (
     select id, from_at,
            date_trunc('hour', from_at, 'UTC')
              + case when date_trunc('hour', from_at, 'UTC') = from_at then interval '0'
                     else interval '1 hour' end as lo_h,
            date_trunc('hour', $4::timestamptz, 'UTC') as hi_h
       from k
   ), u as (
     select h.model, h.method, h.route, h.requests, h.errors, h.flow_cost, h.input_tokens,
            h.output_tokens
       from edges e
       join api_key_usage_hourly h
         on h.api_key_id = e.id and h.hour >= e.lo_h and h.hour < e.hi_h
     union all
     select coalesce(r.model, ''), r.method, r.route, 1, (r.status >= 400)::int, r.flow_cost,
            r.input_tokens, r.output_tokens
       from edges e
       join api_key_usage r
         on r.api_key_id = e.id and r.created_at >= e.from_at and r.created_at < e.lo_h
        and r.created_at <= $4
     union all
     select coalesce(r.model, ''), r.method, r.route, 1, (r.status >= 400)::int, r.flow_cost,
            r.input_tokens, r.output_tokens
       from edges e
       join api_key_usage r
         on r.api_key_id = e.id and r.created_at >= greatest(e.hi_h, e.lo_h)
        and r.created_at <= $4
   )
   select ${isoUtc('edges.from_at')} as "from",
          case when grouping(u.model) = 0 then 'model'
               when grouping(u.method, u.route) = 0 then 'endpoint'
               else 'total' end as set,
          u.model, u.method, u.route,
          coalesce(sum(u.requests), 0) as requests,
          coalesce(sum(u.errors), 0) as errors,
          coalesce(sum(u.flow_cost), 0) as flow,
          coalesce(sum(u.input_tokens), 0) as input,
          coalesce(sum(u.output_tokens), 0) as output
     from edges left join u on true
    group by edges.from_at, grouping sets ((), (u.model), (u.method, u.route))
   having (grouping(u.model) = 1 or u.model <> '')
      and (grouping(u.method, u.route) <> 0 or u.method is not null)
    order by set, sum(u.requests) desc nulls last, u.model, u.route, u.method`,
);

/** A call of the key. */
export interface RecentCallRow {
  id: string;
  method: string;
  route: string;
  status: number;
  /** micro-FLOW (int8, as text inside JSON, where a number could lose digits). */
  flowCost: string;
  model: string | null;
  latencyMs: number;
  createdAt: string;
}

/** The key's latest calls, newest first; no row at all when the key is not the caller's. */
export const recentCalls = statement<
  { calls: RecentCallRow[] },
  [keyId: string, userId: number, limit: number]
>(
  'keys.recent',
  `select (select coalesce(jsonb_agg(to_jsonb(u) - 'at' order by u.at desc, u.id desc), '[]')
             from (select id, method, route, status, flow_cost::text as "flowCost", model,
                          latency_ms as "latencyMs", ${isoUtc('created_at')} as "createdAt",
                          created_at as at
                     from api_key_usage
                    where api_key_id = k.id
                    order by created_at desc, id desc
                    limit $3) as u) as calls
     from api_keys k
    where k.id = $1 and k.user_id = $2`,
);
