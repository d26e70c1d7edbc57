import { Migration } from '@mikro-orm/migrations';

/**
 * Matrix (docs/bot-gateway.md): the account a user linked with `POST /auth/matrix`
 * (`users.matrix_user_id`, one platform user per Matrix account), the direct room the bot opened
 * with each account (`matrix_direct_rooms`), and the event each delivered notification became
 * (`notifications.event_id`, set together with `sent_at`), with the delivery's retry state
 * (`attempts`, `next_attempt_at`, `last_error`) and an index for a user's list, newest first.
 */
export class Migration20261201000000_matrix extends Migration {
  override up(): void {
    this.addSql(`alter table "users" add column "matrix_user_id" varchar(255) null;`);
    this.addSql(
      `alter table "users" add constraint "users_matrix_user_id_unique" unique ("matrix_user_id");`,
    );
    this.addSql(
      `create table "matrix_direct_rooms" ("matrix_user_id" varchar(255) not null, "room_id" varchar(255) not null, "created_at" timestamptz(3) not null default now(), constraint "matrix_direct_rooms_pkey" primary key ("matrix_user_id"));`,
    );
    this.addSql(
      `alter table "notifications" add column "event_id" varchar(255) null, add column "attempts" int not null default 0, add column "next_attempt_at" timestamptz(3) null, add column "last_error" text null;`,
    );
    this.addSql(
      `create index "notifications_user_id_created_at_id_index" on "notifications" ("user_id", "created_at", "id");`,
    );
  }

  override down(): void {
    this.addSql(`drop index "notifications_user_id_created_at_id_index";`);
    this.addSql(
      `alter table "notifications" drop column "event_id", drop column "attempts", drop column "next_attempt_at", drop column "last_error";`,
    );
    this.addSql(`drop table if exists "matrix_direct_rooms" cascade;`);
    this.addSql(`alter table "users" drop column "matrix_user_id";`);
  }
}
