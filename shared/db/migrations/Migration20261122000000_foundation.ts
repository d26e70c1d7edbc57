import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000000_foundation extends Migration {
  override up(): void {
    this.addSql(`
      create table "users" (
        "id" serial primary key,
        "address" varchar(42) not null,
        "created_at" timestamptz(3) not null default now(),
        constraint "users_address_unique" unique ("address"),
        constraint "users_address_lowercase" check ("address" = lower("address"))
      );`);
    this.addSql(`
      create table "idempotency_keys" (
        "id" uuid primary key,
        "principal" varchar(128) not null,
        "method" varchar(8) not null,
        "path" varchar(2048) not null,
        "key" varchar(255) not null,
        "fingerprint" varchar(64) not null,
        "status" text check ("status" in ('in_progress', 'completed')) not null,
        "response_status" int null,
        "response_headers" jsonb null,
        "response_body" text null,
        "locked_at" timestamptz(3) null,
        "created_at" timestamptz(3) not null,
        "expires_at" timestamptz(3) not null,
        constraint "idempotency_keys_principal_method_path_key_unique"
          unique ("principal", "method", "path", "key")
      );`);
    this.addSql(
      `create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");`,
    );
  }

  override down(): void {
    this.addSql('drop table if exists "idempotency_keys";');
    this.addSql('drop table if exists "users";');
  }
}
