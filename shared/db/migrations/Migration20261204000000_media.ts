import { Migration } from '@mikro-orm/migrations';

/** Uploaded images (docs/spec/contract.md §14): one row per stored WebP, keyed by its SHA-256. */
export class Migration20261204000000_media extends Migration {
  override up(): void {
    this.addSql(
      `create table "media" ("id" varchar(64) not null, "mime_type" text not null, "width" int not null, "height" int not null, "bytes" int not null, "created_by" int not null, "created_at" timestamptz(3) not null, constraint "media_pkey" primary key ("id"));`,
    );
  }

  override down(): void {
    this.addSql('drop table if exists "media";');
  }
}
