import { Migration } from '@mikro-orm/migrations';

/**
 * Matrix (docs/bot-gateway.md): the account a user linked with `POST /auth/matrix`
 * (`users.matrix_user_id`, one platform user per Matrix account), the direct room the bot opened
 * with each account (`matrix_direct_rooms`), and the event each delivered notification became
 * (`notifications.event_id`, set together with `sent_at`).
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
    this.addSql(`alter table "notifications" add column "event_id" varchar(255) null;`);
  }

  override down(): void {
    this.addSql(`alter table "notifications" drop column "event_id";`);
    this.addSql(`drop table if exists "matrix_direct_rooms" cascade;`);
    this.addSql(`alter table "users" drop column "matrix_user_id";`);
  }
}
