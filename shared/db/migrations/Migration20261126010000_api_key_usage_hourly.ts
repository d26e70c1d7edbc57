import { Migration } from '@mikro-orm/migrations';

/**
 * `api_key_usage_hourly`: `api_key_usage` summed per key, UTC hour, method, route and model
 * ('' for none), so the usage summary of a month or of a key's whole life reads hourly rows
 * plus at most the two partial hours at its edges (docs/decisions.md "Hot reads").
 *
 * Kept exact by statement-level triggers on `api_key_usage`, the same way as
 * `flow_ledger_totals`: an insert adds its rows' sums (the usage recorder writes a batch per
 * statement, so that is one aggregation per batch), a delete subtracts them and an update does
 * both. Rows are touched in primary-key order, so concurrent batches cannot deadlock on them;
 * subtraction only updates rows that exist, so a key's deletion (which cascades to both
 * tables) cannot recreate one.
 */

const KEY = `api_key_id, date_trunc('hour', created_at, 'UTC') as hour, method, route,
  coalesce(model, '') as model`;

const SUMS = `count(*) as requests, count(*) filter (where status >= 400) as errors,
  coalesce(sum(flow_cost), 0) as flow_cost, coalesce(sum(input_tokens), 0) as input_tokens,
  coalesce(sum(output_tokens), 0) as output_tokens`;

const FIGURES = ['requests', 'errors', 'flow_cost', 'input_tokens', 'output_tokens'] as const;
const PRIMARY = 'api_key_id, hour, method, route, model';

const APPLY = `create function api_key_usage_hourly_apply() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform 1 from api_key_usage_hourly h
      where (${PRIMARY}) in (select ${KEY} from old_rows)
      order by ${PRIMARY} for update;
    update api_key_usage_hourly h
       set ${FIGURES.map((c) => `${c} = h.${c} - d.${c}`).join(', ')}
      from (select ${KEY}, ${SUMS} from old_rows group by 1, 2, 3, 4, 5) d
     where (h.api_key_id, h.hour, h.method, h.route, h.model)
         = (d.api_key_id, d.hour, d.method, d.route, d.model);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into api_key_usage_hourly (${PRIMARY}, ${FIGURES.join(', ')})
    select ${KEY}, ${SUMS} from new_rows group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
    on conflict (${PRIMARY}) do update
       set ${FIGURES.map((c) => `${c} = api_key_usage_hourly.${c} + excluded.${c}`).join(', ')};
  end if;
  return null;
end $$;`;

export class Migration20261126010000_api_key_usage_hourly extends Migration {
  override up(): void {
    this.addSql(
      `create table "api_key_usage_hourly" ("api_key_id" uuid not null, "hour" timestamptz(3) not null, "method" varchar(8) not null, "route" varchar(512) not null, "model" varchar(128) not null, "requests" bigint not null default 0, "errors" bigint not null default 0, "flow_cost" bigint not null default 0, "input_tokens" bigint not null default 0, "output_tokens" bigint not null default 0, constraint "api_key_usage_hourly_pkey" primary key ("api_key_id", "hour", "method", "route", "model"));`,
    );
    this.addSql(
      `alter table "api_key_usage_hourly" add constraint "api_key_usage_hourly_api_key_id_foreign" foreign key ("api_key_id") references "api_keys" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(APPLY);
    this.addSql(
      `create trigger "api_key_usage_hourly_insert" after insert on "api_key_usage" referencing new table as new_rows for each statement execute function api_key_usage_hourly_apply();`,
    );
    this.addSql(
      `create trigger "api_key_usage_hourly_update" after update on "api_key_usage" referencing old table as old_rows new table as new_rows for each statement execute function api_key_usage_hourly_apply();`,
    );
    this.addSql(
      `create trigger "api_key_usage_hourly_delete" after delete on "api_key_usage" referencing old table as old_rows for each statement execute function api_key_usage_hourly_apply();`,
    );
    // The usage so far, summed once.
    this.addSql(
      `insert into api_key_usage_hourly (${PRIMARY}, ${FIGURES.join(', ')})
       select ${KEY}, ${SUMS} from api_key_usage group by 1, 2, 3, 4, 5;`,
    );
  }

  override down(): void {
    for (const op of ['insert', 'update', 'delete']) {
      this.addSql(`drop trigger if exists "api_key_usage_hourly_${op}" on "api_key_usage";`);
    }
    this.addSql('drop function if exists api_key_usage_hourly_apply();');
    this.addSql('drop table if exists "api_key_usage_hourly" cascade;');
  }
}
