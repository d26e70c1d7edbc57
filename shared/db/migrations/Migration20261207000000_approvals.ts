import { Migration } from '@mikro-orm/migrations';

/**
 * Owner approvals in builds (docs/spec/contract.md §16): each project's policy, the requests a
 * run waits on, and their audit trail.
 */
export class Migration20261207000000_approvals extends Migration {
  override up(): void {
    this.addSql(
      `create table "approval_requests" ("id" uuid not null, "project_id" uuid not null, "run_id" uuid not null, "step_key" varchar(200) not null, "kind" text check ("kind" in ('plan', 'tool_call')) not null, "tool" varchar(64) null, "args_preview" jsonb not null, "args_digest" varchar(64) not null, "status" text check ("status" in ('pending', 'approved', 'rejected', 'expired', 'canceled')) not null, "requested_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, "decided_by" int null, "decided_at" timestamptz(3) null, "comment" text null, "remember" text check ("remember" in ('run', 'project')) null, constraint "approval_requests_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "approval_requests" add constraint "approval_requests_step_key_unique" unique ("step_key");`,
    );
    this.addSql(
      `create index "approval_requests_project_id_requested_at_id_index" on "approval_requests" ("project_id", "requested_at", "id");`,
    );
    this.addSql(
      `create index "approval_requests_pending_index" on "approval_requests" ("project_id") where "status" = 'pending';`,
    );
    this.addSql(
      `create table "project_approval_policies" ("project_id" uuid not null, "mode" text check ("mode" in ('ask_risky', 'ask_all', 'autonomous')) not null, "rules" jsonb not null, "plan_approval" boolean not null, "timeout_seconds" int not null, "on_timeout" text check ("on_timeout" in ('reject', 'fail')) not null, "updated_by" int not null, "updated_at" timestamptz(3) not null, constraint "project_approval_policies_pkey" primary key ("project_id"));`,
    );
    this.addSql(
      `create table "approval_audit" ("id" bigserial primary key, "project_id" uuid not null, "approval_id" uuid null, "action" text check ("action" in ('requested', 'notified', 'approved', 'rejected', 'expired', 'canceled', 'policy_changed')) not null, "actor" varchar(64) not null, "detail" jsonb not null, "at" timestamptz(3) not null);`,
    );
    this.addSql(
      `create index "approval_audit_project_id_id_index" on "approval_audit" ("project_id", "id");`,
    );
    this.addSql(
      `alter table "approval_requests" add constraint "approval_requests_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "project_approval_policies" add constraint "project_approval_policies_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "approval_audit" add constraint "approval_audit_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
  }

  override down(): void {
    this.addSql('drop table if exists "approval_audit";');
    this.addSql('drop table if exists "approval_requests";');
    this.addSql('drop table if exists "project_approval_policies";');
  }
}
