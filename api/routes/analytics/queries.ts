import type { Tier } from '../../../shared/db/entities/subscription';
import { statement } from '../../../shared/db/sql';
import { entitledTierSql } from '../../../shared/subscriptions/entitlements';
import type { Analytics } from './schemas';
import { LATENCY_MAX_SAMPLES } from './schemas';

/**
 * The analytics reads (docs/decisions.md "Hot reads", "Analytics"). Every figure that grows
 * with traffic comes from a read model kept exact by the writes:
 * - per agent and day: `agent_daily_stats` (succeeded calls, gross FLOW billed), one row per
 *   agent and active day, read by its primary key (agent_id, day);
 * - per API key, hour, endpoint and model: `api_key_usage_hourly`, read by its primary key
 *   (api_key_id, hour, …). The window is whole UTC days, so it is whole hours too: unlike the
 *   rolling key usage summary, no raw `api_key_usage` row is read for the sums.
 * Only the advanced latency percentiles read raw rows, because a percentile cannot be summed:
 * per agent its succeeded `agent_calls` (index agent_calls (agent_id, created_at)), per key
 * its `api_key_usage` rows (index api_key_usage (api_key_id, created_at, id)), each bounded
 * by the latency window (at most 30 days) and by the newest LATENCY_MAX_SAMPLES rows, read
 * backwards along the index, so the cost has a fixed ceiling whatever the traffic.
 */

/** The caller's entitled tier (null: none). */
interface TierRow {
  tier: Tier | null;
}

/** The caller's entitled tier, as `entitledTier` reads it. */
export const entitledTier = statement<TierRow, [userId: number]>(
  'analytics.tier',
  `select ${entitledTierSql('$1::int')} as tier`,
);

/** micro-FLOW → the wire number (exact decimal, then the nearest double, like `flowNumber`). */
const flow = (expr: string) => `(${expr} * 0.000001)::float8`;
const isoDay = (expr: string) => `to_char(${expr}, 'YYYY-MM-DD')`;
/** The start of a UTC day bound as a date parameter. */
const dayStart = (param: string) => `(${param}::date)::timestamp at time zone 'UTC'`;

/** p50, p95 and the sample count of the newest latencies `rows` selects (`latency_ms`). */
function percentiles(rows: string): string {
  return `select round(percentile_cont(0.5) within group (order by r.latency_ms))::int as p50,
                 round(percentile_cont(0.95) within group (order by r.latency_ms))::int as p95,
                 count(*)::int as samples
            from (${rows} limit ${LATENCY_MAX_SAMPLES}) r`;
}

const LATENCY_JSON = `'latency', json_build_object('p50Ms', l.p50, 'p95Ms', l.p95,
                                                    'samples', l.samples)`;

/**
 * The whole answer in one statement, one row of JSON columns already in the wire shape.
 * Parameters: $1 the user, $2 and $3 the first and last UTC day (inclusive); advanced also
 * $4, the first day of the latency window.
 */
function analyticsText(advanced: boolean): string {
  const agentLatency = advanced
    ? `left join lateral (${percentiles(
        `select c.latency_ms from agent_calls c
          where c.agent_id = a.id and c.created_at >= ${dayStart('$4')}
            and c.created_at < w.to_at and c.status = 'succeeded'
          order by c.created_at desc`,
      )}) l on true`
    : '';
  const keyLatency = advanced
    ? `left join lateral (${percentiles(
        `select u.latency_ms from api_key_usage u
          where u.api_key_id = k.id and u.created_at >= ${dayStart('$4')}
            and u.created_at < w.to_at
          order by u.created_at desc`,
      )}) l on true`
    : '';
  const breakdowns = advanced
    ? `,
     (select coalesce(json_agg(json_build_object(
               'model', m.model, 'requests', m.requests, 'flowSpent', ${flow('m.flow')},
               'inputTokens', m.input, 'outputTokens', m.output)
             order by m.requests desc, m.model), '[]'::json)
        from (select model, sum(requests) as requests, sum(flow_cost) as flow,
                     sum(input_tokens) as input, sum(output_tokens) as output
                from key_hours where model <> '' group by model) m) as "byModel",
     (select coalesce(json_agg(json_build_object(
               'method', e.method, 'route', e.route, 'requests', e.requests,
               'errors', e.errors, 'flowSpent', ${flow('e.flow')})
             order by e.requests desc, e.route, e.method), '[]'::json)
        from (select method, route, sum(requests) as requests, sum(errors) as errors,
                     sum(flow_cost) as flow
                from key_hours group by method, route) e) as "byEndpoint"`
    : '';
  return `with w as (
     select ${dayStart('$2')} as from_at, ${dayStart('($3::date + 1)')} as to_at
   ), my_agents as (
     select a.id, a.slug, a.name, a.premium, a.is_published, a.created_at
       from agents a where a.owner_id = $1
   ), agent_days as (
     select s.agent_id, s.day, s.calls::bigint as calls, s.earnings
       from my_agents a
       join agent_daily_stats s on s.agent_id = a.id and s.day >= $2::date and s.day <= $3::date
   ), my_keys as (
     select k.id, k.prefix, k.name, k.revoked_at, k.created_at
       from api_keys k cross join w
      where k.user_id = $1 and k.created_at < w.to_at
        and coalesce(least(k.revoked_at, k.expires_at), 'infinity'::timestamptz) >= w.from_at
   ), key_hours as (
     select h.api_key_id, h.hour, h.method, h.route, h.model, h.requests, h.errors,
            h.flow_cost, h.input_tokens, h.output_tokens
       from my_keys k cross join w
       join api_key_usage_hourly h
         on h.api_key_id = k.id and h.hour >= w.from_at and h.hour < w.to_at
   ), key_days as (
     select api_key_id, (hour at time zone 'UTC')::date as day, sum(requests) as requests,
            sum(errors) as errors, sum(flow_cost) as flow
       from key_hours group by 1, 2
   ), daily as (
     select d.day, coalesce(ad.calls, 0) as calls, coalesce(ad.earnings, 0) as earnings,
            coalesce(kd.requests, 0) as requests, coalesce(kd.errors, 0) as errors,
            coalesce(kd.flow, 0) as flow
       from (select $2::date + i as day from generate_series(0, $3::date - $2::date) as i) d
       left join (select day, sum(calls) as calls, sum(earnings) as earnings
                    from agent_days group by day) ad on ad.day = d.day
       left join (select day, sum(requests) as requests, sum(errors) as errors, sum(flow) as flow
                    from key_days group by day) kd on kd.day = d.day
   )
   select
     (select json_build_object(
               'calls', sum(calls), 'flowEarned', ${flow('sum(earnings)')},
               'requests', sum(requests), 'errors', sum(errors), 'flowSpent', ${flow('sum(flow)')})
        from daily) as totals,
     (select json_agg(json_build_object(
               'day', ${isoDay('d.day')}, 'calls', d.calls, 'flowEarned', ${flow('d.earnings')},
               'requests', d.requests, 'errors', d.errors, 'flowSpent', ${flow('d.flow')})
             order by d.day)
        from daily d) as daily,
     (select coalesce(json_agg(json_build_object(
               'slug', a.slug, 'name', a.name, 'premium', a.premium,
               'isPublished', a.is_published,
               'totals', json_build_object('calls', coalesce(t.calls, 0),
                                           'flowEarned', ${flow('coalesce(t.earnings, 0)')}),
               'daily', coalesce(t.daily, '[]'::json)
               ${advanced ? `, ${LATENCY_JSON}` : ''})
             order by a.created_at desc, a.id desc), '[]'::json)
        from my_agents a cross join w
        left join lateral (
          select sum(x.calls) as calls, sum(x.earnings) as earnings,
                 json_agg(json_build_object('day', ${isoDay('x.day')}, 'calls', x.calls,
                                            'flowEarned', ${flow('x.earnings')})
                          order by x.day) as daily
            from agent_days x where x.agent_id = a.id) t on true
        ${agentLatency}) as agents,
     (select coalesce(json_agg(json_build_object(
               'id', k.id, 'prefix', k.prefix, 'name', k.name,
               'revoked', k.revoked_at is not null,
               'totals', json_build_object('requests', coalesce(t.requests, 0),
                                           'errors', coalesce(t.errors, 0),
                                           'flowSpent', ${flow('coalesce(t.flow, 0)')}),
               'daily', coalesce(t.daily, '[]'::json)
               ${advanced ? `, ${LATENCY_JSON}` : ''})
             order by k.created_at desc, k.id desc), '[]'::json)
        from my_keys k cross join w
        left join lateral (
          select sum(x.requests) as requests, sum(x.errors) as errors, sum(x.flow) as flow,
                 json_agg(json_build_object('day', ${isoDay('x.day')}, 'requests', x.requests,
                                            'errors', x.errors, 'flowSpent', ${flow('x.flow')})
                          order by x.day) as daily
            from key_days x where x.api_key_id = k.id) t on true
        ${keyLatency}) as "apiKeys"${breakdowns}`;
}

/** One row, already in the wire shape (numbers as JSON numbers, days as YYYY-MM-DD). */
export type AnalyticsRow = Pick<Analytics, 'totals' | 'daily' | 'agents' | 'apiKeys'> &
  Partial<Pick<Analytics, 'byModel' | 'byEndpoint'>>;

export const basicAnalytics = statement<
  AnalyticsRow,
  [userId: number, fromDay: string, toDay: string]
>('analytics.basic', analyticsText(false));

export const advancedAnalytics = statement<
  AnalyticsRow,
  [userId: number, fromDay: string, toDay: string, latencyFromDay: string]
>('analytics.advanced', analyticsText(true));
