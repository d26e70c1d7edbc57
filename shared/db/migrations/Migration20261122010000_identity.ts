import { Migration } from '@mikro-orm/migrations';

/** Sessions, API keys and their usage log (identity and access). */
export class Migration20261122010000_identity extends Migration {
  override up(): void {
    this.addSql(`
      create table "sessions" (
        "id" uuid primary key,
        "user_id" int not null,
        "created_at" timestamptz(3) not null,
        "expires_at" timestamptz(3) not null,
        "revoked_at" timestamptz(3) null,
        constraint "sessions_user_id_foreign" foreign key ("user_id")
          references "users" ("id") on update cascade on delete cascade
      );`);
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);
    this.addSql(`
      create table "api_keys" (
        "id" uuid primary key,
        "user_id" int not null,
        "prefix" varchar(12) not null,
        "key_hash" varchar(64) not null,
        "name" varchar(64) not null,
        "rate_limit_rpm" int not null,
        "spend_limit" bigint null,
        "spend_period" text check ("spend_period" in ('day', 'week', 'month', 'forever')) not null,
        "spend_used" bigint not null default 0,
        "spend_period_start" timestamptz(3) not null,
        "last_used_at" timestamptz(3) null,
        "created_at" timestamptz(3) not null,
        "revoked_at" timestamptz(3) null,
        "expires_at" timestamptz(3) null,
        "rolled_to_id" uuid null,
        constraint "api_keys_key_hash_unique" unique ("key_hash"),
        constraint "api_keys_spend_used_nonnegative" check ("spend_used" >= 0),
        constraint "api_keys_user_id_foreign" foreign key ("user_id")
          references "users" ("id") on update cascade on delete cascade
      );`);
    this.addSql(
      `create index "api_keys_user_id_created_at_index" on "api_keys" ("user_id", "created_at");`,
    );
    this.addSql(`
      create table "api_key_usage" (
        "id" uuid primary key,
        "api_key_id" uuid not null,
        "method" varchar(8) not null,
        "route" varchar(512) not null,
        "status" smallint not null,
        "latency_ms" int not null,
        "flow_cost" bigint not null default 0,
        "model" varchar(128) null,
        "input_tokens" int not null default 0,
        "output_tokens" int not null default 0,
        "created_at" timestamptz(3) not null,
        constraint "api_key_usage_api_key_id_foreign" foreign key ("api_key_id")
          references "api_keys" ("id") on update cascade on delete cascade
      );`);
    this.addSql(`
      create index "api_key_usage_api_key_id_created_at_id_index"
        on "api_key_usage" ("api_key_id", "created_at", "id");`);
  }

  override down(): void {
    this.addSql('drop table if exists "api_key_usage";');
    this.addSql('drop table if exists "api_keys";');
    this.addSql('drop table if exists "sessions";');
  }
}
