import { Migration } from '@mikro-orm/migrations';

/**
 * The market outbox's payloads compressed with lz4 instead of pglz where the server has it (a
 * busy token's `trades` event of one indexed range is about 300 KB of ticks, compressed in the
 * indexer's transaction: lz4 halves that statement's time; bench/README.md "chain-indexer").
 * Servers built without lz4 (the embedded database of `npm run dev`) keep pglz.
 */
export class Migration20261203000000_market_events_lz4 extends Migration {
  override up(): void {
    this.addSql(`do $$
begin
  if exists (select 1 from pg_settings
              where name = 'default_toast_compression' and 'lz4' = any(enumvals)) then
    alter table "market_events" alter column "payload" set compression lz4;
  end if;
end $$;`);
  }

  override down(): void {
    this.addSql(`alter table "market_events" alter column "payload" set compression default;`);
  }
}
