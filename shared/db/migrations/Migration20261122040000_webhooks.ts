import { Migration } from '@mikro-orm/migrations';

/** Webhooks: subscriptions, deliveries (one per event and subscription) and their attempts. */
export class Migration20261122040000_webhooks extends Migration {
  override up(): void {
    this.addSql(
      `create table "webhooks" ("id" uuid not null, "user_id" int not null, "url" varchar(2048) not null, "events" text[] not null default '{}', "secret" varchar(64) not null, "last_error" jsonb null, "created_at" timestamptz(3) not null, "deleted_at" timestamptz(3) null, constraint "webhooks_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "webhooks_user_id_created_at_id_index" on "webhooks" ("user_id", "created_at", "id");`,
    );
    this.addSql(
      `create table "webhook_deliveries" ("id" uuid not null, "webhook_id" uuid not null, "outbox_event_id" uuid null, "event" varchar(64) not null, "payload" jsonb not null, "status" text check ("status" in ('pending', 'succeeded', 'failed')) not null, "attempts" int not null default 0, "created_at" timestamptz(3) not null, "completed_at" timestamptz(3) null, constraint "webhook_deliveries_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "webhook_deliveries_webhook_id_created_at_id_index" on "webhook_deliveries" ("webhook_id", "created_at", "id");`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_outbox_unique" unique ("outbox_event_id", "webhook_id");`,
    );
    this.addSql(
      `create table "webhook_delivery_attempts" ("delivery_id" uuid not null, "attempt" int not null, "started_at" timestamptz(3) not null, "duration_ms" int not null, "status_code" int null, "error" text null, "response_body" varchar(1024) null, constraint "webhook_delivery_attempts_pkey" primary key ("delivery_id", "attempt"));`,
    );
    this.addSql(
      `alter table "webhooks" add constraint "webhooks_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_foreign" foreign key ("webhook_id") references "webhooks" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_delivery_attempts" add constraint "webhook_delivery_attempts_delivery_id_foreign" foreign key ("delivery_id") references "webhook_deliveries" ("id") on update cascade on delete cascade;`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "webhook_delivery_attempts" cascade;`);
    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
    this.addSql(`drop table if exists "webhooks" cascade;`);
  }
}
