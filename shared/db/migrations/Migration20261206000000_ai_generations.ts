import { Migration } from '@mikro-orm/migrations';

/** The log of AI metadata fills (docs/spec/contract.md §15): never the brief, only its hash. */
export class Migration20261206000000_ai_generations extends Migration {
  override up(): void {
    this.addSql(
      `create table "ai_generations" ("id" uuid not null, "user_id" int not null, "kind" text check ("kind" in ('token', 'agent')) not null, "brief_sha256" varchar(64) not null, "model" text not null, "outcome" text check ("outcome" in ('ok', 'repaired', 'invalid_output', 'refused', 'unavailable')) not null, "requests" smallint not null, "latency_ms" int not null, "request_id" text not null, "created_at" timestamptz(3) not null, constraint "ai_generations_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "ai_generations_user_id_created_at_index" on "ai_generations" ("user_id", "created_at");`,
    );
  }

  override down(): void {
    this.addSql('drop table if exists "ai_generations";');
  }
}
