import { Migration } from '@mikro-orm/migrations';

/**
 * Per-user on-chain reads and holder rewards (docs/chain.md "User state", docs/decisions.md
 * "Holder rewards").
 *
 * - `users.address` becomes nullable: an account without a wallet has no on-chain state.
 * - Two read models of the `dpnm` tree, so `GET /me/tree` and `/me/flow-onchain` read rows
 *   shaped like the answer instead of counting subtrees or summing payouts: members per level
 *   below each position (`dpnm_subtree_levels`, and their sum in `dpnm_tree_nodes.subtree_size`)
 *   and USDT paid to each upline per level (`dpnm_earnings`). Statement-level triggers keep them
 *   exact like `token_holders`: inserting paths or `UplinePaid` events adds, deleting them (a
 *   reorg's rollback) subtracts, so a count always equals what the remaining rows add up to.
 *   Rows are touched in primary-key order, so concurrent statements cannot deadlock on them.
 * - Holder-reward distributions and their per-user payouts.
 */

const TRANSITIONS = {
  insert: 'new table as new_rows',
  delete: 'old table as old_rows',
} as const;

/** Members per (ancestor, level) of a statement's paths. */
function pathCounts(rows: 'new_rows' | 'old_rows'): string {
  return `select chain_id, instance, ancestor as address, level, count(*)::int as members
            from ${rows} group by chain_id, instance, ancestor, level`;
}

/** Members per ancestor, all levels together. */
function pathTotals(rows: 'new_rows' | 'old_rows'): string {
  return `select chain_id, instance, ancestor as address, count(*)::int as members
            from ${rows} group by chain_id, instance, ancestor`;
}

const PATHS_APPLY = `create function dpnm_tree_paths_apply() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into dpnm_subtree_levels (chain_id, instance, address, level, members)
    select * from (${pathCounts('new_rows')}) d order by chain_id, instance, address, level
    on conflict (chain_id, instance, address, level)
    do update set members = dpnm_subtree_levels.members + excluded.members;
    update dpnm_tree_nodes n set subtree_size = n.subtree_size + d.members
      from (${pathTotals('new_rows')}) d
     where n.chain_id = d.chain_id and n.instance = d.instance and n.address = d.address;
  else
    update dpnm_subtree_levels s set members = s.members - d.members
      from (${pathCounts('old_rows')}) d
     where s.chain_id = d.chain_id and s.instance = d.instance and s.address = d.address
       and s.level = d.level;
    update dpnm_tree_nodes n set subtree_size = n.subtree_size - d.members
      from (${pathTotals('old_rows')}) d
     where n.chain_id = d.chain_id and n.instance = d.instance and n.address = d.address;
  end if;
  return null;
end $$;`;

/** USDT per (upline, level) of a statement's `UplinePaid` events. */
function payouts(rows: 'new_rows' | 'old_rows'): string {
  return `select chain_id, instance, subject as address, (args->>'level')::smallint as level,
                 sum((args->>'amountUsdt')::numeric) as amount
            from ${rows} where name = 'UplinePaid'
           group by chain_id, instance, subject, (args->>'level')::smallint`;
}

const EARNINGS_APPLY = `create function dpnm_earnings_apply() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into dpnm_earnings (chain_id, instance, address, level, amount)
    select * from (${payouts('new_rows')}) d order by chain_id, instance, address, level
    on conflict (chain_id, instance, address, level)
    do update set amount = dpnm_earnings.amount + excluded.amount;
  else
    update dpnm_earnings e set amount = e.amount - d.amount
      from (${payouts('old_rows')}) d
     where e.chain_id = d.chain_id and e.instance = d.instance and e.address = d.address
       and e.level = d.level;
  end if;
  return null;
end $$;`;

export class Migration20261129000000_onchain_user_state extends Migration {
  override up(): void {
    this.addSql(`alter table "users" alter column "address" drop not null;`);

    this.addSql(`alter table "dpnm_tree_nodes" add column "subtree_size" int not null default 0;`);
    this.addSql(
      `create index "dpnm_tree_nodes_chain_id_instance_parent_index" on "dpnm_tree_nodes" ("chain_id", "instance", "parent");`,
    );
    this.addSql(
      `create index "dpnm_tree_paths_chain_id_instance_ancestor_level_index" on "dpnm_tree_paths" ("chain_id", "instance", "ancestor", "level");`,
    );
    this.addSql(
      `create table "dpnm_subtree_levels" ("chain_id" int not null, "instance" varchar(42) not null, "address" varchar(42) not null, "level" smallint not null, "members" int not null, constraint "dpnm_subtree_levels_pkey" primary key ("chain_id", "instance", "address", "level"));`,
    );
    this.addSql(
      `create table "dpnm_earnings" ("chain_id" int not null, "instance" varchar(42) not null, "address" varchar(42) not null, "level" smallint not null, "amount" numeric(78,0) not null, constraint "dpnm_earnings_pkey" primary key ("chain_id", "instance", "address", "level"));`,
    );
    // What an index built before this migration already holds.
    this.addSql(
      `insert into dpnm_subtree_levels (chain_id, instance, address, level, members)
       select chain_id, instance, ancestor, level, count(*) from dpnm_tree_paths
        group by chain_id, instance, ancestor, level;`,
    );
    this.addSql(
      `update dpnm_tree_nodes n set subtree_size = d.members
         from (select chain_id, instance, ancestor, count(*) as members from dpnm_tree_paths
                group by chain_id, instance, ancestor) d
        where n.chain_id = d.chain_id and n.instance = d.instance and n.address = d.ancestor;`,
    );
    this.addSql(
      `insert into dpnm_earnings (chain_id, instance, address, level, amount)
       select chain_id, instance, subject, (args->>'level')::smallint,
              sum((args->>'amountUsdt')::numeric)
         from chain_events where name = 'UplinePaid'
        group by chain_id, instance, subject, (args->>'level')::smallint;`,
    );
    this.addSql(PATHS_APPLY);
    this.addSql(EARNINGS_APPLY);
    for (const op of ['insert', 'delete'] as const) {
      this.addSql(
        `create trigger "dpnm_tree_paths_${op}" after ${op} on "dpnm_tree_paths" referencing ${TRANSITIONS[op]} for each statement execute function dpnm_tree_paths_apply();`,
      );
      this.addSql(
        `create trigger "dpnm_earnings_${op}" after ${op} on "chain_events" referencing ${TRANSITIONS[op]} for each statement execute function dpnm_earnings_apply();`,
      );
    }

    this.addSql(
      `create table "holder_reward_distributions" ("id" uuid not null, "token_id" uuid not null, "period" date not null, "chain_id" int not null, "instance" varchar(42) not null, "block_number" bigint not null, "pool_before" bigint not null, "eligible_supply" numeric(78,0) not null, "distributed" bigint not null, "recipients" int not null, "created_at" timestamptz(3) not null, "completed_at" timestamptz(3) null, constraint "holder_reward_distributions_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "holder_reward_distributions" add constraint "holder_reward_distributions_token_period_unique" unique ("token_id", "period");`,
    );
    this.addSql(
      `create table "holder_reward_payouts" ("distribution_id" uuid not null, "user_id" int not null, "address" varchar(42) not null, "balance" numeric(78,0) not null, "amount" bigint not null, "paid_at" timestamptz(3) null, constraint "holder_reward_payouts_pkey" primary key ("distribution_id", "user_id"));`,
    );
    this.addSql(
      `create index "holder_reward_payouts_user_id_index" on "holder_reward_payouts" ("user_id");`,
    );
    this.addSql(
      `alter table "holder_reward_distributions" add constraint "holder_reward_distributions_token_id_foreign" foreign key ("token_id") references "tokens" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "holder_reward_payouts" add constraint "holder_reward_payouts_distribution_id_foreign" foreign key ("distribution_id") references "holder_reward_distributions" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "holder_reward_payouts" add constraint "holder_reward_payouts_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override down(): void {
    this.addSql('drop table if exists "holder_reward_payouts" cascade;');
    this.addSql('drop table if exists "holder_reward_distributions" cascade;');
    for (const op of ['insert', 'delete'] as const) {
      this.addSql(`drop trigger if exists "dpnm_tree_paths_${op}" on "dpnm_tree_paths";`);
      this.addSql(`drop trigger if exists "dpnm_earnings_${op}" on "chain_events";`);
    }
    this.addSql('drop function if exists dpnm_tree_paths_apply();');
    this.addSql('drop function if exists dpnm_earnings_apply();');
    this.addSql('drop table if exists "dpnm_earnings" cascade;');
    this.addSql('drop table if exists "dpnm_subtree_levels" cascade;');
    this.addSql('drop index if exists "dpnm_tree_nodes_chain_id_instance_parent_index";');
    this.addSql('drop index if exists "dpnm_tree_paths_chain_id_instance_ancestor_level_index";');
    this.addSql('alter table "dpnm_tree_nodes" drop column if exists "subtree_size";');
    this.addSql(`alter table "users" alter column "address" set not null;`);
  }
}
