import { Migration } from '@mikro-orm/migrations';

/**
 * A NOTIFY on every insert into the webhook outbox and the notification queue, and when a user
 * links a Matrix account (their queued notifications become deliverable), delivered at commit:
 * the worker's waker (workers/waker.ts) LISTENs and nudges the loop that handles them, so the
 * loops need not poll while there is nothing to do (docs/decisions.md "Idle").
 */
export class Migration20261209000000_wake_on_insert extends Migration {
  override up(): void {
    this.addSql(`create or replace function notify_channel() returns trigger language plpgsql as $$
begin
  perform pg_notify(tg_argv[0], '');
  return null;
end
$$;`);
    this.addSql(
      `create trigger outbox_events_notify after insert on outbox_events for each statement execute function notify_channel('outbox_events_added');`,
    );
    this.addSql(
      `create trigger notifications_notify after insert on notifications for each statement execute function notify_channel('notifications_added');`,
    );
    this.addSql(
      `create trigger users_matrix_linked_notify after update of matrix_user_id on users for each row when (new.matrix_user_id is not null and new.matrix_user_id is distinct from old.matrix_user_id) execute function notify_channel('notifications_added');`,
    );
  }

  override down(): void {
    this.addSql('drop trigger if exists outbox_events_notify on outbox_events;');
    this.addSql('drop trigger if exists notifications_notify on notifications;');
    this.addSql('drop trigger if exists users_matrix_linked_notify on users;');
    this.addSql('drop function if exists notify_channel();');
  }
}
