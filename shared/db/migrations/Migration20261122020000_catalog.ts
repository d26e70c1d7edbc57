import { Migration } from '@mikro-orm/migrations';

/**
 * Catalog and money: tokens, agents with prices, calls, subscriptions, ratings and daily
 * stats, FLOW accounts, holds and the ledger. pg_trgm backs substring search by index.
 */
export class Migration20261122020000_catalog extends Migration {
  override up(): void {
    this.addSql('create extension if not exists pg_trgm;');
    this.addSql(
      `create table "tokens" ("id" uuid not null, "owner_id" int not null, "slug" varchar(80) not null, "name" varchar(64) not null, "ticker" varchar(6) not null, "template" text check ("template" in ('virtuals', 'dpnm')) not null, "chain_id" int not null, "instance" varchar(42) null, "image_url" varchar(2048) null, "brief" text null, "params" jsonb not null, "state" text check ("state" in ('pending', 'live', 'graduating', 'sentient', 'failed')) not null, "pending_launch_tx" text null, "holder_reward_pool" bigint not null default 0, "created_at" timestamptz(3) not null, constraint "tokens_pkey" primary key ("id"), constraint tokens_holder_reward_pool_nonnegative check (holder_reward_pool >= 0));`,
    );
    this.addSql(`create index "tokens_owner_id_index" on "tokens" ("owner_id");`);
    this.addSql(`alter table "tokens" add constraint "tokens_slug_unique" unique ("slug");`);
    this.addSql(`create index "tokens_created_at_id_index" on "tokens" ("created_at", "id");`);
    this.addSql(
      `create index "tokens_instance_lower_index" on "tokens" (lower("instance")) where "instance" is not null;`,
    );
    this.addSql(
      `create index "tokens_name_trgm_index" on "tokens" using gin (lower("name") gin_trgm_ops);`,
    );
    this.addSql(
      `create index "tokens_ticker_trgm_index" on "tokens" using gin (lower("ticker") gin_trgm_ops);`,
    );
    this.addSql(
      `alter table "tokens" add constraint "tokens_chain_id_ticker_unique" unique ("chain_id", "ticker");`,
    );
    this.addSql(
      `alter table "tokens" add constraint "tokens_chain_id_instance_unique" unique ("chain_id", "instance");`,
    );
    this.addSql(
      `create table "ledger_entries" ("id" uuid not null, "user_id" int null, "token_id" uuid null, "delta" bigint not null, "balance_after" bigint not null, "reason" text check ("reason" in ('topup', 'call', 'grant', 'payout', 'refund', 'quest')) not null, "ref_type" varchar(32) not null, "ref_id" varchar(255) not null, "metadata" jsonb not null, "created_at" timestamptz(3) not null, constraint "ledger_entries_pkey" primary key ("id"), constraint ledger_entries_one_account check ((user_id is null) <> (token_id is null)));`,
    );
    this.addSql(
      `create index "ledger_entries_user_id_created_at_id_index" on "ledger_entries" ("user_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "ledger_entries_token_id_created_at_index" on "ledger_entries" ("token_id", "created_at");`,
    );
    this.addSql(
      `create unique index "ledger_entries_credit_ref_unique" on "ledger_entries" ("ref_id") where "ref_type" = 'credit';`,
    );
    this.addSql(
      `create table "flow_holds" ("id" uuid not null, "user_id" int not null, "amount" bigint not null, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, constraint "flow_holds_pkey" primary key ("id"), constraint flow_holds_amount_positive check (amount > 0));`,
    );
    this.addSql(`create index "flow_holds_user_id_index" on "flow_holds" ("user_id");`);
    this.addSql(`create index "flow_holds_expires_at_index" on "flow_holds" ("expires_at");`);
    this.addSql(
      `create table "flow_accounts" ("user_id" int not null, "balance" bigint not null default 0, "held" bigint not null default 0, "updated_at" timestamptz(3) not null, constraint "flow_accounts_pkey" primary key ("user_id"), constraint flow_accounts_balance_nonnegative check (balance >= 0), constraint flow_accounts_held_within_balance check (held >= 0 and held <= balance));`,
    );
    this.addSql(
      `create table "agents" ("id" uuid not null, "owner_id" int not null, "slug" varchar(80) not null, "name" varchar(64) not null, "description" text null, "tags" text[] not null default '{}', "image_url" varchar(2048) null, "endpoint_url" varchar(2048) not null, "endpoint_secret" varchar(64) not null, "monetization" text check ("monetization" in ('per_call', 'subscription', 'hybrid', 'freemium')) null, "per_call_price" bigint null, "subscription_price" bigint null, "freemium_daily_calls" int null, "token_id" uuid null, "is_published" boolean not null default false, "published_at" timestamptz(3) null, "unpublished_at" timestamptz(3) null, "listed_until" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "agents_pkey" primary key ("id"), constraint agents_prices_nonnegative check ((per_call_price is null or per_call_price >= 0) and (subscription_price is null or subscription_price >= 0)));`,
    );
    this.addSql(`alter table "agents" add constraint "agents_slug_unique" unique ("slug");`);
    this.addSql(
      `create index "agents_owner_id_created_at_id_index" on "agents" ("owner_id", "created_at", "id");`,
    );
    this.addSql(`create index "agents_published_at_id_index" on "agents" ("published_at", "id");`);
    this.addSql(
      `create index "agents_name_trgm_index" on "agents" using gin (lower("name") gin_trgm_ops);`,
    );
    this.addSql(`create index "agents_tags_index" on "agents" using gin ("tags");`);
    this.addSql(
      `create table "agent_tool_prices" ("agent_id" uuid not null, "tool" varchar(32) not null, "price" bigint not null, constraint "agent_tool_prices_pkey" primary key ("agent_id", "tool"), constraint agent_tool_prices_price_nonnegative check (price >= 0));`,
    );
    this.addSql(
      `create table "agent_subscriptions" ("id" uuid not null, "agent_id" uuid not null, "subscriber_id" int not null, "period_start" timestamptz(3) not null, "period_end" timestamptz(3) not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "agent_subscriptions_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "agent_subscriptions_subscriber_id_index" on "agent_subscriptions" ("subscriber_id");`,
    );
    this.addSql(
      `alter table "agent_subscriptions" add constraint "agent_subscriptions_agent_id_subscriber_id_unique" unique ("agent_id", "subscriber_id");`,
    );
    this.addSql(
      `create table "agent_ratings" ("agent_id" uuid not null, "rater_id" int not null, "rating" smallint not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "agent_ratings_pkey" primary key ("agent_id", "rater_id"), constraint agent_ratings_rating_range check (rating >= 1 and rating <= 5));`,
    );
    this.addSql(
      `create table "agent_free_calls" ("agent_id" uuid not null, "caller_id" int not null, "day" date not null, "used" int not null default 0, constraint "agent_free_calls_pkey" primary key ("agent_id", "caller_id", "day"), constraint agent_free_calls_used_nonnegative check (used >= 0));`,
    );
    this.addSql(
      `create table "agent_daily_stats" ("agent_id" uuid not null, "day" date not null, "calls" int not null default 0, "earnings" bigint not null default 0, constraint "agent_daily_stats_pkey" primary key ("agent_id", "day"));`,
    );
    this.addSql(
      `create index "agent_daily_stats_day_agent_id_index" on "agent_daily_stats" ("day", "agent_id");`,
    );
    this.addSql(
      `create table "agent_calls" ("id" uuid not null, "agent_id" uuid not null, "caller_id" int not null, "api_key_id" uuid null, "status" text check ("status" in ('succeeded', 'failed')) not null, "error" varchar(500) null, "latency_ms" int not null, "cost" bigint not null default 0, "tools_used" text[] not null default '{}', "free" boolean not null default false, "model" varchar(128) null, "input_tokens" int null, "output_tokens" int null, "created_at" timestamptz(3) not null, constraint "agent_calls_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "agent_calls_agent_id_created_at_index" on "agent_calls" ("agent_id", "created_at");`,
    );
    this.addSql(
      `create index "agent_calls_caller_id_agent_id_index" on "agent_calls" ("caller_id", "agent_id");`,
    );
    this.addSql(
      `alter table "tokens" add constraint "tokens_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "ledger_entries" add constraint "ledger_entries_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "ledger_entries" add constraint "ledger_entries_token_id_foreign" foreign key ("token_id") references "tokens" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "flow_holds" add constraint "flow_holds_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "flow_accounts" add constraint "flow_accounts_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "agents" add constraint "agents_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "agents" add constraint "agents_token_id_foreign" foreign key ("token_id") references "tokens" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "agent_tool_prices" add constraint "agent_tool_prices_agent_id_foreign" foreign key ("agent_id") references "agents" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "agent_subscriptions" add constraint "agent_subscriptions_agent_id_foreign" foreign key ("agent_id") references "agents" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "agent_subscriptions" add constraint "agent_subscriptions_subscriber_id_foreign" foreign key ("subscriber_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "agent_ratings" add constraint "agent_ratings_agent_id_foreign" foreign key ("agent_id") references "agents" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "agent_ratings" add constraint "agent_ratings_rater_id_foreign" foreign key ("rater_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "agent_free_calls" add constraint "agent_free_calls_agent_id_foreign" foreign key ("agent_id") references "agents" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "agent_free_calls" add constraint "agent_free_calls_caller_id_foreign" foreign key ("caller_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "agent_daily_stats" add constraint "agent_daily_stats_agent_id_foreign" foreign key ("agent_id") references "agents" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "agent_calls" add constraint "agent_calls_agent_id_foreign" foreign key ("agent_id") references "agents" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "agent_calls" add constraint "agent_calls_caller_id_foreign" foreign key ("caller_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }
}
