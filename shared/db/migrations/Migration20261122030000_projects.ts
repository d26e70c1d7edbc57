import { Migration } from '@mikro-orm/migrations';

/**
 * Projects and live builds: projects, their runs, the per-project event log, milestone
 * subscriptions and queued bot notifications, the webhook outbox, and users' platform tiers.
 */
export class Migration20261122030000_projects extends Migration {
  override up(): void {
    this.addSql(
      `create table "subscriptions" ("user_id" int not null, "tier" text check ("tier" in ('plus', 'pro', 'max')) not null, "status" text check ("status" in ('active', 'grace', 'canceled')) not null, "provider" varchar(32) not null, "renews_at" timestamptz(3) not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "subscriptions_pkey" primary key ("user_id"));`,
    );
    this.addSql(
      `create table "projects" ("id" uuid not null, "owner_id" int not null, "token_id" uuid not null, "slug" varchar(80) not null, "title" varchar(120) not null, "brief" text not null, "agent_template" text check ("agent_template" in ('fullstack-builder', 'bot-builder', 'content-machine', 'research-agent')) not null, "private" boolean not null default false, "status" text check ("status" in ('idle', 'queued', 'running', 'completed', 'failed', 'canceled', 'archived')) not null, "current_run_id" uuid null, "last_event_seq" bigint not null default 0, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "archived_at" timestamptz(3) null, constraint "projects_pkey" primary key ("id"), constraint projects_last_event_seq_nonnegative check (last_event_seq >= 0));`,
    );
    this.addSql(`create index "projects_token_id_index" on "projects" ("token_id");`);
    this.addSql(`alter table "projects" add constraint "projects_slug_unique" unique ("slug");`);
    this.addSql(
      `create unique index "projects_token_active_unique" on "projects" ("token_id") where "status" <> 'archived';`,
    );
    this.addSql(
      `create index "projects_owner_id_created_at_id_index" on "projects" ("owner_id", "created_at", "id");`,
    );
    this.addSql(
      `create table "project_subscriptions" ("project_id" uuid not null, "user_id" int not null, "created_at" timestamptz(3) not null, constraint "project_subscriptions_pkey" primary key ("project_id", "user_id"));`,
    );
    this.addSql(
      `create index "project_subscriptions_user_id_index" on "project_subscriptions" ("user_id");`,
    );
    this.addSql(
      `create table "project_runs" ("id" uuid not null, "project_id" uuid not null, "status" text check ("status" in ('queued', 'running', 'completed', 'failed', 'canceled')) not null, "planner" varchar(32) not null, "head_sha" varchar(40) null, "reason" text null, "artifact" bytea null, "artifact_bytes" int null, "created_at" timestamptz(3) not null, "started_at" timestamptz(3) null, "finished_at" timestamptz(3) null, constraint "project_runs_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "project_runs_project_id_created_at_index" on "project_runs" ("project_id", "created_at");`,
    );
    this.addSql(
      `create table "project_events" ("project_id" uuid not null, "seq" bigint not null, "run_id" uuid not null, "type" varchar(32) not null, "data" jsonb not null, "event_key" varchar(200) not null, "created_at" timestamptz(3) not null, constraint "project_events_pkey" primary key ("project_id", "seq"));`,
    );
    this.addSql(
      `alter table "project_events" add constraint "project_events_key_unique" unique ("project_id", "event_key");`,
    );
    this.addSql(
      `create table "outbox_events" ("id" uuid not null, "user_id" int not null, "event" varchar(64) not null, "data" jsonb not null, "dedupe_key" varchar(200) not null, "created_at" timestamptz(3) not null, "dispatched_at" timestamptz(3) null, constraint "outbox_events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "outbox_events_user_id_index" on "outbox_events" ("user_id");`);
    this.addSql(
      `alter table "outbox_events" add constraint "outbox_events_dedupe_key_unique" unique ("dedupe_key");`,
    );
    this.addSql(
      `create index "outbox_events_pending_index" on "outbox_events" ("created_at") where "dispatched_at" is null;`,
    );
    this.addSql(
      `create table "notifications" ("id" uuid not null, "user_id" int not null, "kind" varchar(64) not null, "text" text not null, "data" jsonb not null, "dedupe_key" varchar(200) not null, "created_at" timestamptz(3) not null, "sent_at" timestamptz(3) null, constraint "notifications_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "notifications_user_id_index" on "notifications" ("user_id");`);
    this.addSql(
      `alter table "notifications" add constraint "notifications_dedupe_key_unique" unique ("dedupe_key");`,
    );
    this.addSql(
      `create index "notifications_unsent_index" on "notifications" ("created_at") where "sent_at" is null;`,
    );
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "projects" add constraint "projects_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "projects" add constraint "projects_token_id_foreign" foreign key ("token_id") references "tokens" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "project_subscriptions" add constraint "project_subscriptions_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "project_subscriptions" add constraint "project_subscriptions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "project_runs" add constraint "project_runs_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "project_events" add constraint "project_events_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "outbox_events" add constraint "outbox_events_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "notifications" add constraint "notifications_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "notifications" cascade;`);
    this.addSql(`drop table if exists "outbox_events" cascade;`);
    this.addSql(`drop table if exists "project_events" cascade;`);
    this.addSql(`drop table if exists "project_runs" cascade;`);
    this.addSql(`drop table if exists "project_subscriptions" cascade;`);
    this.addSql(`drop table if exists "projects" cascade;`);
    this.addSql(`drop table if exists "subscriptions" cascade;`);
  }
}
