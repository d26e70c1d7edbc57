import { Migration } from '@mikro-orm/migrations';

/** Files bots uploaded through the gateway, one per bot token and content (docs/bot-gateway.md). */
export class Migration20261208000000_bot_media extends Migration {
  override up(): void {
    this.addSql(
      `create table "bot_media" ("id" text not null, "bot" text not null, "sha256" varchar(64) not null, "mxc" text null, "mimetype" text not null, "size" int not null, "width" int null, "height" int null, "filename" text not null, "claimed_at" timestamptz(3) not null, "created_at" timestamptz(3) not null, constraint "bot_media_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "bot_media" add constraint "bot_media_bot_sha256_unique" unique ("bot", "sha256");`,
    );
  }

  override down(): void {
    this.addSql('drop table if exists "bot_media";');
  }
}
