import { Migration } from '@mikro-orm/migrations';

/**
 * The marketplace read model (docs/decisions.md "Agents and the marketplace"):
 * `agent_market_stats` holds, per agent, every figure the listing sorts by or shows that grows
 * with data, plus copies of the agent's listing columns, so each sort is one keyset index.
 *
 * Kept exact by triggers, in two steps:
 * 1. Statement-level triggers on `agents`, `agent_daily_stats`, `agent_calls` and
 *    `agent_ratings` note which agents (and which part of their figures) a statement changed,
 *    once per distinct agent (transition tables), in `agent_market_dirty`.
 * 2. A deferred constraint trigger on `agent_market_dirty` runs at commit, after every other
 *    statement of the transaction: it takes this transaction's notes, locks the summary rows
 *    in agent id order and recomputes the noted parts from source, each in a new statement.
 *
 * Why this is exact under READ COMMITTED: every writer recomputes after taking the row lock,
 * and a lock holder releases the lock only after its commit is visible, so the recomputing
 * statement's snapshot sees every transaction that locked the row before it, plus its own
 * changes. Why it adds no deadlock: summary rows are the last locks any transaction takes
 * (at commit) and always in agent id order, and the lock is taken by nothing else but the
 * refresh, which holds no other lock.
 *
 * Time passing (day windows at UTC midnight, the rolling 30 × 24 h latency window) changes
 * figures without a write: each row stores when its figures expire (`days_expire_on`,
 * `p50_expires_at`) and `agent_market_refresh_stale` recomputes the expired ones (the
 * marketplace stats refresh workflow calls it every minute).
 */
export class Migration20261125000000_marketplace_stats extends Migration {
  override up(): void {
    this.addSql(
      `create table "agent_market_stats" ("agent_id" uuid not null, "is_published" boolean not null default false, "published_at" timestamptz(3) null, "tags" text[] not null default '{}', "calls_7d" bigint not null default 0, "calls_30d" bigint not null default 0, "earnings_30d" numeric not null default 0, "days_expire_on" date null, "p50_latency_ms" int not null default 0, "p50_expires_at" timestamptz(3) null, "rating_avg" numeric not null default 0, "rating" numeric not null default 0, "rating_count" int not null default 0, constraint "agent_market_stats_pkey" primary key ("agent_id"));`,
    );
    for (const [name, columns] of SORT_INDEXES) {
      this.addSql(
        `create index "agent_market_stats_${name}_index" on "agent_market_stats" (${columns}) where "is_published";`,
      );
    }
    this.addSql(
      `create index "agent_market_stats_days_expire_on_index" on "agent_market_stats" ("days_expire_on") where "days_expire_on" is not null;`,
    );
    this.addSql(
      `create index "agent_market_stats_p50_expires_at_index" on "agent_market_stats" ("p50_expires_at") where "p50_expires_at" is not null;`,
    );
    this.addSql(
      `alter table "agent_market_stats" add constraint "agent_market_stats_agent_id_foreign" foreign key ("agent_id") references "agents" ("id") on update cascade on delete cascade;`,
    );
    // Unlogged: a note lives only inside the transaction that wrote it.
    this.addSql(
      `create unlogged table "agent_market_dirty" ("xact" bigint not null, "agent_id" uuid not null, "part" text check ("part" in ('listing', 'days', 'latency', 'ratings', 'flush')) not null, constraint "agent_market_dirty_pkey" primary key ("xact", "agent_id", "part"));`,
    );
    this.addSql(RECOMPUTE);
    this.addSql(REFRESH_STALE);
    this.addSql(FLUSH);
    this.addSql(
      `create constraint trigger "agent_market_dirty_flush" after insert on "agent_market_dirty" deferrable initially deferred for each row when (new.part = 'flush') execute function agent_market_flush();`,
    );
    this.addSql(NOTE);
    this.addSql(MARK);
    this.addSql(MARK_SUCCEEDED_CALLS);
    this.addSql(MARK_AGENTS);
    for (const [table, part] of MARKED_TABLES) {
      const mark = table === 'agent_calls' ? 'agent_market_mark_calls' : 'agent_market_mark';
      this.addSql(
        `create trigger "${table}_market_insert" after insert on "${table}" referencing new table as changed for each statement execute function ${mark}('${part}');`,
      );
      this.addSql(
        `create trigger "${table}_market_update" after update on "${table}" referencing new table as changed for each statement execute function agent_market_mark('${part}');`,
      );
      this.addSql(
        `create trigger "${table}_market_delete" after delete on "${table}" referencing old table as changed for each statement execute function agent_market_mark('${part}');`,
      );
    }
    this.addSql(
      `create trigger "agents_market_insert" after insert on "agents" referencing new table as changed for each statement execute function agent_market_mark_agents();`,
    );
    this.addSql(
      `create trigger "agents_market_update" after update on "agents" referencing old table as previous new table as changed for each statement execute function agent_market_mark_agents();`,
    );
    // Agents that exist already: a row each, computed from source.
    this.addSql(
      `select agent_market_recompute(ids, ids, ids, ids) from (select array_agg(id) as ids from agents) a;`,
    );
  }

  override down(): void {
    for (const [table] of MARKED_TABLES) {
      for (const event of ['insert', 'update', 'delete']) {
        this.addSql(`drop trigger if exists "${table}_market_${event}" on "${table}";`);
      }
    }
    this.addSql(`drop trigger if exists "agents_market_insert" on "agents";`);
    this.addSql(`drop trigger if exists "agents_market_update" on "agents";`);
    this.addSql(`drop table if exists "agent_market_dirty" cascade;`);
    this.addSql(`drop table if exists "agent_market_stats" cascade;`);
    for (const fn of [
      'agent_market_mark_agents()',
      'agent_market_mark_calls()',
      'agent_market_mark()',
      'agent_market_note(uuid[], text)',
      'agent_market_flush()',
      'agent_market_refresh_stale(int)',
      'agent_market_recompute(uuid[], uuid[], uuid[], uuid[])',
    ]) {
      this.addSql(`drop function if exists ${fn};`);
    }
  }
}

/** One keyset index per sort, each in the listing's order and ending with the agent id. */
const SORT_INDEXES = [
  ['trending', '"calls_7d" desc, "published_at" desc, "agent_id" desc'],
  ['new', '"published_at" desc, "agent_id" desc'],
  ['top_earning', '"earnings_30d" desc, "published_at" desc, "agent_id" desc'],
  ['top_rated', '"rating_avg" desc, "rating_count" desc, "agent_id" desc'],
] as const;

/** Source tables whose rows feed one part of the figures. */
const MARKED_TABLES = [
  ['agent_daily_stats', 'days'],
  ['agent_calls', 'latency'],
  ['agent_ratings', 'ratings'],
] as const;

/**
 * Recomputes the given parts of the given agents' rows from source (a missing row is created
 * and computed whole). Locks the rows first, in agent id order; each later statement reads
 * with a snapshot taken after the lock was granted. Returns how many agents it touched.
 *
 * - listing: is_published, published_at, tags copied from `agents`.
 * - days: calls of the last 7 and 30 UTC days and gross FLOW of the last 30, today included,
 *   from `agent_daily_stats`; `days_expire_on` is the first day on which one of them changes
 *   without a write (a row leaving a window), null when none can.
 * - latency: the median latency of succeeded calls of the last 30 × 24 h, rounded, 0 when
 *   none; `p50_expires_at` is when the oldest of those calls leaves the window.
 * - ratings: the exact average (the top_rated key, 0 when unrated), the average rounded to 2
 *   decimals (shown) and the count.
 */
const RECOMPUTE = `
create function agent_market_recompute(p_listing uuid[], p_days uuid[], p_latency uuid[], p_ratings uuid[])
returns int language plpgsql as $fn$
declare
  v_now timestamptz := clock_timestamp();
  v_today date := (v_now at time zone 'UTC')::date;
  v_all uuid[];
  v_created uuid[];
begin
  p_listing := array(select distinct id from unnest(p_listing) as id);
  p_days := array(select distinct id from unnest(p_days) as id);
  p_latency := array(select distinct id from unnest(p_latency) as id);
  p_ratings := array(select distinct id from unnest(p_ratings) as id);
  v_all := array(select distinct id from unnest(p_listing || p_days || p_latency || p_ratings) as id);
  if cardinality(v_all) = 0 then
    return 0;
  end if;

  -- Rows of new agents (only their creating transaction can see them, so no race).
  with created as (
    insert into agent_market_stats (agent_id)
    select a.id from agents a
     where a.id = any(v_all)
       and not exists (select 1 from agent_market_stats s where s.agent_id = a.id)
    on conflict (agent_id) do nothing
    returning agent_id
  )
  select array_agg(agent_id) into v_created from created;
  if v_created is not null then
    p_listing := p_listing || v_created;
    p_days := p_days || v_created;
    p_latency := p_latency || v_created;
    p_ratings := p_ratings || v_created;
  end if;

  perform 1 from agent_market_stats where agent_id = any(v_all) order by agent_id for update;

  if cardinality(p_listing) > 0 then
    update agent_market_stats s
       set is_published = a.is_published, published_at = a.published_at, tags = a.tags
      from agents a
     where a.id = s.agent_id and s.agent_id = any(p_listing)
       and (s.is_published, s.published_at, s.tags) is distinct from (a.is_published, a.published_at, a.tags);
  end if;

  if cardinality(p_days) > 0 then
    update agent_market_stats s
       set calls_7d = coalesce(d.calls_7d, 0),
           calls_30d = coalesce(d.calls_30d, 0),
           earnings_30d = coalesce(d.earnings_30d, 0),
           days_expire_on = d.expire_on
      from unnest(p_days) as u(agent_id)
      left join (
        select agent_id,
               sum(calls) filter (where day >= v_today - 6) as calls_7d,
               sum(calls) as calls_30d,
               sum(earnings) as earnings_30d,
               least(min(day) filter (where day >= v_today - 6 and calls <> 0) + 7,
                     min(day) filter (where calls <> 0 or earnings <> 0) + 30) as expire_on
          from agent_daily_stats
         where agent_id = any(p_days) and day >= v_today - 29
         group by agent_id
      ) d on d.agent_id = u.agent_id
     where s.agent_id = u.agent_id;
  end if;

  if cardinality(p_latency) > 0 then
    update agent_market_stats s
       set p50_latency_ms = coalesce(c.p50, 0),
           p50_expires_at = c.oldest + interval '720 hours'
      from unnest(p_latency) as u(agent_id)
      left join (
        select agent_id,
               round(percentile_cont(0.5) within group (order by latency_ms)::numeric) as p50,
               min(created_at) as oldest
          from agent_calls
         where agent_id = any(p_latency) and status = 'succeeded'
           and created_at >= v_now - interval '720 hours'
         group by agent_id
      ) c on c.agent_id = u.agent_id
     where s.agent_id = u.agent_id;
  end if;

  if cardinality(p_ratings) > 0 then
    update agent_market_stats s
       set rating_avg = coalesce(r.average, 0),
           rating = coalesce(round(r.average, 2), 0),
           rating_count = coalesce(r.count, 0)
      from unnest(p_ratings) as u(agent_id)
      left join (
        select agent_id, avg(rating) as average, count(*) as count
          from agent_ratings
         where agent_id = any(p_ratings)
         group by agent_id
      ) r on r.agent_id = u.agent_id
     where s.agent_id = u.agent_id;
  end if;

  return cardinality(v_all);
end
$fn$;`;

/**
 * Recomputes up to `p_limit` rows whose day figures or median have expired (oldest expiry
 * first) and returns how many agents it touched: 0 when nothing is stale, found through the
 * two partial expiry indexes.
 */
const REFRESH_STALE = `
create function agent_market_refresh_stale(p_limit int)
returns int language plpgsql as $fn$
declare
  v_now timestamptz := clock_timestamp();
begin
  return agent_market_recompute(
    null,
    array(select agent_id from agent_market_stats
           where days_expire_on <= (v_now at time zone 'UTC')::date
           order by days_expire_on limit p_limit),
    array(select agent_id from agent_market_stats
           where p50_expires_at < v_now
           order by p50_expires_at limit p_limit),
    null);
end
$fn$;`;

/**
 * At commit (deferred, once per transaction): takes every note of this transaction and
 * recomputes the noted parts once.
 */
const FLUSH = `
create function agent_market_flush() returns trigger language plpgsql as $fn$
declare
  v record;
begin
  with taken as (
    delete from agent_market_dirty where xact = txid_current() returning agent_id, part
  )
  select array_agg(agent_id) filter (where part = 'listing') as listing,
         array_agg(agent_id) filter (where part = 'days') as days,
         array_agg(agent_id) filter (where part = 'latency') as latency,
         array_agg(agent_id) filter (where part = 'ratings') as ratings
    into v from taken;
  perform agent_market_recompute(v.listing, v.days, v.latency, v.ratings);
  return null;
end
$fn$;`;

/**
 * Notes agents whose `p_part` figures this transaction changed. The first note of a
 * transaction also writes its `flush` row, the only row the deferred trigger fires for, so a
 * statement touching 5,000 agents queues one flush, not 5,000.
 */
const NOTE = `
create function agent_market_note(p_agents uuid[], p_part text) returns void language plpgsql as $fn$
begin
  insert into agent_market_dirty (xact, agent_id, part)
  select txid_current(), id, p_part from unnest(p_agents) as id
  on conflict do nothing;
  if found then
    insert into agent_market_dirty (xact, agent_id, part)
    values (txid_current(), '00000000-0000-0000-0000-000000000000', 'flush')
    on conflict do nothing;
  end if;
end
$fn$;`;

/** Notes every distinct agent of the statement's rows (transition table "changed"). */
const MARK = `
create function agent_market_mark() returns trigger language plpgsql as $fn$
begin
  perform agent_market_note(array(select distinct agent_id from changed), tg_argv[0]);
  return null;
end
$fn$;`;

/** Inserted calls: only succeeded ones change the median. */
const MARK_SUCCEEDED_CALLS = `
create function agent_market_mark_calls() returns trigger language plpgsql as $fn$
begin
  perform agent_market_note(
    array(select distinct agent_id from changed where status = 'succeeded'), tg_argv[0]);
  return null;
end
$fn$;`;

/**
 * Agents: a new one gets its row at commit; an update needs a recompute only when it changed a
 * copied listing column. (The "previous" transition table exists for updates only; PL/pgSQL
 * plans a statement when it first runs, so the insert branch never refers to it.)
 */
const MARK_AGENTS = `
create function agent_market_mark_agents() returns trigger language plpgsql as $fn$
begin
  if tg_op = 'INSERT' then
    perform agent_market_note(array(select id from changed), 'listing');
  else
    perform agent_market_note(
      array(select n.id from changed n join previous o on o.id = n.id
             where (n.is_published, n.published_at, n.tags)
                   is distinct from (o.is_published, o.published_at, o.tags)),
      'listing');
  end if;
  return null;
end
$fn$;`;
