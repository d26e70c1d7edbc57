import { Migration } from '@mikro-orm/migrations';

/**
 * `flow_ledger_totals`: each user's lifetime ledger totals by source (docs/decisions.md "Hot
 * reads"), so the balance breakdown reads one row instead of summing the whole ledger.
 *
 * Kept exact by statement-level triggers on `ledger_entries`: an insert adds its rows' sums, a
 * delete subtracts them and an update does both. Every statement touches the totals rows in
 * user id order, so two statements over several users cannot deadlock on them. Subtraction
 * only updates rows that exist: a user's deletion cascades to both tables, and a delete must
 * not recreate the row it is removing.
 */

/** What each source counts: agent earnings are positive `call` rows; holder rewards and
 * freelance pay are told apart by their refType, so they never count twice. */
const SUMS = `
  coalesce(sum(delta) filter (where reason = 'topup' and delta > 0), 0) as top_up,
  coalesce(sum(delta) filter (where reason = 'grant'), 0) as subscription_grant,
  coalesce(sum(delta) filter (where reason = 'call' and delta > 0
    and ref_type not in ('holder_reward', 'freelance')), 0) as creator_share,
  coalesce(sum(delta) filter (where ref_type = 'holder_reward'), 0) as holder_rewards,
  coalesce(sum(delta) filter (where ref_type = 'freelance'), 0) as freelance,
  coalesce(sum(delta) filter (where reason = 'quest'), 0) as quests`;

const COLUMNS = [
  'top_up',
  'subscription_grant',
  'creator_share',
  'holder_rewards',
  'freelance',
  'quests',
] as const;

const APPLY = `create function flow_ledger_totals_apply() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform 1 from flow_ledger_totals
      where user_id in (select user_id from old_rows) order by user_id for update;
    update flow_ledger_totals t
       set ${COLUMNS.map((c) => `${c} = t.${c} - d.${c}`).join(', ')}
      from (select user_id, ${SUMS} from old_rows where user_id is not null
             group by user_id) d
     where t.user_id = d.user_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into flow_ledger_totals (user_id, ${COLUMNS.join(', ')})
    select user_id, ${SUMS} from new_rows where user_id is not null
     group by user_id order by user_id
    on conflict (user_id) do update
       set ${COLUMNS.map((c) => `${c} = flow_ledger_totals.${c} + excluded.${c}`).join(', ')};
  end if;
  return null;
end $$;`;

export class Migration20261126000000_flow_ledger_totals extends Migration {
  override up(): void {
    this.addSql(
      `create table "flow_ledger_totals" ("user_id" int not null, "top_up" bigint not null default 0, "subscription_grant" bigint not null default 0, "creator_share" bigint not null default 0, "holder_rewards" bigint not null default 0, "freelance" bigint not null default 0, "quests" bigint not null default 0, constraint "flow_ledger_totals_pkey" primary key ("user_id"));`,
    );
    this.addSql(
      `alter table "flow_ledger_totals" add constraint "flow_ledger_totals_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(APPLY);
    this.addSql(
      `create trigger "ledger_entries_totals_insert" after insert on "ledger_entries" referencing new table as new_rows for each statement execute function flow_ledger_totals_apply();`,
    );
    this.addSql(
      `create trigger "ledger_entries_totals_update" after update on "ledger_entries" referencing old table as old_rows new table as new_rows for each statement execute function flow_ledger_totals_apply();`,
    );
    this.addSql(
      `create trigger "ledger_entries_totals_delete" after delete on "ledger_entries" referencing old table as old_rows for each statement execute function flow_ledger_totals_apply();`,
    );
    // The ledger so far, summed once.
    this.addSql(
      `insert into flow_ledger_totals (user_id, ${COLUMNS.join(', ')})
       select user_id, ${SUMS} from ledger_entries where user_id is not null group by user_id;`,
    );
  }

  override down(): void {
    for (const op of ['insert', 'update', 'delete']) {
      this.addSql(`drop trigger if exists "ledger_entries_totals_${op}" on "ledger_entries";`);
    }
    this.addSql('drop function if exists flow_ledger_totals_apply();');
    this.addSql('drop table if exists "flow_ledger_totals" cascade;');
  }
}
