import { Migration } from '@mikro-orm/migrations';

/**
 * The chain index (docs/chain.md "Indexer"): the cursor and recent block hashes per chain,
 * factory launches, the journal of contract events, ERC-20 transfers with the holders they
 * add up to, trades, and `dpnm` trees.
 *
 * Balances are kept by statement-level triggers, like `flow_ledger_totals`: inserting
 * transfers adds their net movement per holder to `token_holders`, deleting them (a reorg's
 * rollback) subtracts it, so a balance always equals the sum of the transfers still indexed.
 * The zero address and the launch's factory (a curve's own reserve) are no holders. A second
 * pair of triggers keeps `token_holder_totals` (holders with a positive balance and their sum)
 * from the changes to `token_holders`. Holder rows are touched in primary-key order, so
 * concurrent statements cannot deadlock on them.
 */

const ZERO = '0x0000000000000000000000000000000000000000';

/** `sign` 1 adds the statement's transfers (insert), -1 takes them back (delete). */
function applyTransfers(rows: 'new_rows' | 'old_rows', sign: 1 | -1): string {
  return `insert into token_holders (chain_id, instance, address, balance)
    select chain_id, instance, address, sum(delta) * ${sign}
      from (select chain_id, instance, to_address as address, value as delta from ${rows}
            union all
            select chain_id, instance, from_address, -value from ${rows}) moved
     where address <> '${ZERO}'
       and not exists (select 1 from chain_launches l
                        where l.chain_id = moved.chain_id and l.instance = moved.instance
                          and l.factory = moved.address)
     group by chain_id, instance, address
     order by chain_id, instance, address
    on conflict (chain_id, instance, address)
    do update set balance = token_holders.balance + excluded.balance;`;
}

const TRANSFERS_APPLY = `create function token_transfers_apply() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    ${applyTransfers('new_rows', 1)}
  else
    ${applyTransfers('old_rows', -1)}
  end if;
  return null;
end $$;`;

/** `sign` 1 counts the rows in (new rows), -1 counts them out (old rows). */
function holderTotals(rows: 'new_rows' | 'old_rows', sign: 1 | -1): string {
  return `select chain_id, instance, ${sign} * (balance > 0)::int as holders, ${sign} * balance as held
            from ${rows}`;
}

function addTotals(changed: string): string {
  return `insert into token_holder_totals (chain_id, instance, holders_count, held_supply)
    select chain_id, instance, sum(holders), sum(held) from (${changed}) changed
     group by chain_id, instance
     order by chain_id, instance
    on conflict (chain_id, instance) do update
       set holders_count = token_holder_totals.holders_count + excluded.holders_count,
           held_supply = token_holder_totals.held_supply + excluded.held_supply;`;
}

// An insert's trigger has no old rows and a delete's no new ones: each branch names only the
// transition tables its operation has.
const HOLDERS_APPLY = `create function token_holder_totals_apply() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    ${addTotals(holderTotals('new_rows', 1))}
  elsif tg_op = 'UPDATE' then
    ${addTotals(`${holderTotals('new_rows', 1)} union all ${holderTotals('old_rows', -1)}`)}
  else
    ${addTotals(holderTotals('old_rows', -1))}
  end if;
  return null;
end $$;`;

const TRANSITIONS = {
  insert: 'new table as new_rows',
  update: 'old table as old_rows new table as new_rows',
  delete: 'old table as old_rows',
} as const;

export class Migration20261128000000_chain_index extends Migration {
  override up(): void {
    this.addSql(
      `create table "chain_blocks" ("chain_id" int not null, "number" bigint not null, "hash" varchar(66) not null, constraint "chain_blocks_pkey" primary key ("chain_id", "number"));`,
    );
    this.addSql(
      `create table "chain_cursors" ("chain_id" int not null, "next_block" bigint not null, "head_time" timestamptz(3) null, "updated_at" timestamptz(3) not null, constraint "chain_cursors_pkey" primary key ("chain_id"));`,
    );
    this.addSql(
      `create table "chain_events" ("chain_id" int not null, "block_number" bigint not null, "log_index" int not null, "block_hash" varchar(66) not null, "tx_hash" varchar(66) not null, "block_time" timestamptz(3) not null, "instance" varchar(42) not null, "emitter" varchar(42) not null, "name" varchar(32) not null, "subject" varchar(42) null, "args" jsonb not null, constraint "chain_events_pkey" primary key ("chain_id", "block_number", "log_index"));`,
    );
    this.addSql(
      `create index "chain_events_instance_name_index" on "chain_events" ("chain_id", "instance", "name", "block_number" desc, "log_index" desc);`,
    );
    this.addSql(
      `create index "chain_events_subject_index" on "chain_events" ("chain_id", "instance", "subject", "name", "block_number" desc, "log_index" desc) where "subject" is not null;`,
    );
    this.addSql(
      `create table "chain_launches" ("chain_id" int not null, "instance" varchar(42) not null, "template" text check ("template" in ('virtuals', 'dpnm')) not null, "factory" varchar(42) not null, "ref" uuid not null, "creator" varchar(42) not null, "token_id" uuid null, "protocol" varchar(42) null, "tree" varchar(42) null, "gwt" varchar(42) null, "params" jsonb null, "block_number" bigint not null, "log_index" int not null, "block_hash" varchar(66) not null, "tx_hash" varchar(66) not null, "block_time" timestamptz(3) not null, constraint "chain_launches_pkey" primary key ("chain_id", "instance"));`,
    );
    this.addSql(`create index "chain_launches_token_id_index" on "chain_launches" ("token_id");`);
    this.addSql(
      `alter table "chain_launches" add constraint "chain_launches_position_unique" unique ("chain_id", "block_number", "log_index");`,
    );
    this.addSql(
      `create table "dpnm_tree_nodes" ("chain_id" int not null, "instance" varchar(42) not null, "address" varchar(42) not null, "parent" varchar(42) null, "referrer" varchar(42) null, "slot" smallint not null, "active_until" bigint not null, "block_number" bigint not null, "log_index" int not null, "block_hash" varchar(66) not null, "tx_hash" varchar(66) not null, "block_time" timestamptz(3) not null, constraint "dpnm_tree_nodes_pkey" primary key ("chain_id", "instance", "address"));`,
    );
    this.addSql(
      `create index "dpnm_tree_nodes_chain_id_instance_active_until_index" on "dpnm_tree_nodes" ("chain_id", "instance", "active_until");`,
    );
    this.addSql(
      `create table "dpnm_tree_paths" ("chain_id" int not null, "instance" varchar(42) not null, "ancestor" varchar(42) not null, "descendant" varchar(42) not null, "level" smallint not null, "block_number" bigint not null, constraint "dpnm_tree_paths_pkey" primary key ("chain_id", "instance", "ancestor", "descendant"));`,
    );
    this.addSql(
      `create index "dpnm_tree_paths_chain_id_instance_descendant_index" on "dpnm_tree_paths" ("chain_id", "instance", "descendant");`,
    );
    this.addSql(
      `create table "token_holders" ("chain_id" int not null, "instance" varchar(42) not null, "address" varchar(42) not null, "balance" numeric(78,0) not null, constraint "token_holders_pkey" primary key ("chain_id", "instance", "address"));`,
    );
    this.addSql(
      `create index "token_holders_page_index" on "token_holders" ("chain_id", "instance", "balance" desc, "address" desc) where "balance" > 0;`,
    );
    this.addSql(
      `create table "token_holder_totals" ("chain_id" int not null, "instance" varchar(42) not null, "holders_count" int not null default 0, "held_supply" numeric(78,0) not null default 0, constraint "token_holder_totals_pkey" primary key ("chain_id", "instance"));`,
    );
    this.addSql(
      `create table "token_trades" ("chain_id" int not null, "block_number" bigint not null, "log_index" int not null, "block_hash" varchar(66) not null, "tx_hash" varchar(66) not null, "block_time" timestamptz(3) not null, "instance" varchar(42) not null, "kind" text check ("kind" in ('buy', 'sell', 'graduation')) not null, "trader" varchar(42) null, "amount_token" numeric(78,0) not null, "amount_payment" numeric(78,0) not null, "price" numeric(78,0) not null, "reserve_token" numeric(78,0) null, "locked_payment" numeric(78,0) null, constraint "token_trades_pkey" primary key ("chain_id", "block_number", "log_index"));`,
    );
    this.addSql(
      `create index "token_trades_page_index" on "token_trades" ("chain_id", "instance", "block_number" desc, "log_index" desc);`,
    );
    this.addSql(
      `create index "token_trades_graduation_index" on "token_trades" ("chain_id", "instance") where "kind" = 'graduation';`,
    );
    this.addSql(
      `create index "token_trades_time_index" on "token_trades" ("chain_id", "instance", "block_time" desc) where "kind" <> 'graduation';`,
    );
    this.addSql(
      `create table "token_transfers" ("chain_id" int not null, "block_number" bigint not null, "log_index" int not null, "block_hash" varchar(66) not null, "tx_hash" varchar(66) not null, "block_time" timestamptz(3) not null, "instance" varchar(42) not null, "from_address" varchar(42) not null, "to_address" varchar(42) not null, "value" numeric(78,0) not null, constraint "token_transfers_pkey" primary key ("chain_id", "block_number", "log_index"));`,
    );
    this.addSql(TRANSFERS_APPLY);
    // Transfers are facts of the chain: inserted once, deleted by a rollback, never updated.
    for (const op of ['insert', 'delete'] as const) {
      this.addSql(
        `create trigger "token_transfers_${op}" after ${op} on "token_transfers" referencing ${TRANSITIONS[op]} for each statement execute function token_transfers_apply();`,
      );
    }
    this.addSql(HOLDERS_APPLY);
    for (const op of ['insert', 'update', 'delete'] as const) {
      this.addSql(
        `create trigger "token_holder_totals_${op}" after ${op} on "token_holders" referencing ${TRANSITIONS[op]} for each statement execute function token_holder_totals_apply();`,
      );
    }
  }

  override down(): void {
    for (const table of [
      'token_holder_totals',
      'token_holders',
      'token_transfers',
      'token_trades',
      'dpnm_tree_paths',
      'dpnm_tree_nodes',
      'chain_events',
      'chain_launches',
      'chain_blocks',
      'chain_cursors',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
    this.addSql('drop function if exists token_transfers_apply();');
    this.addSql('drop function if exists token_holder_totals_apply();');
  }
}
