import { Migration } from '@mikro-orm/migrations';

/**
 * What a token's creator may edit after the launch (docs/spec/contract.md §14): a description
 * and three links, all optional.
 */
export class Migration20261205000000_token_metadata extends Migration {
  override up(): void {
    this.addSql(
      `alter table "tokens" add column "description" text null, add column "link_website" varchar(2048) null, add column "link_twitter" varchar(2048) null, add column "link_telegram" varchar(2048) null;`,
    );
  }

  override down(): void {
    this.addSql(
      `alter table "tokens" drop column "description", drop column "link_website", drop column "link_twitter", drop column "link_telegram";`,
    );
  }
}
