import { Migration } from '@mikro-orm/migrations';

/**
 * `usdt_bep20` payments seen on the chain (docs/payments.md "usdt_bep20").
 *
 * - `treasury_transfers`: every USDT `Transfer` to the treasury the chain indexer read, keyed
 *   by its log like every indexed row and rolled back with its block by a reorganisation.
 *   Settled once its block is final: `confirmed` (it paid `payment_id`) or `unmatched` (no
 *   invoice of that amount was open at its block time: kept for an operator). `signal_due`:
 *   the subscription lifecycle is still owed the `paymentConfirmed` signal.
 */
export class Migration20261130010000_usdt_payments extends Migration {
  override up(): void {
    this.addSql(
      `create table "treasury_transfers" ("chain_id" int not null, "block_number" bigint not null, "log_index" int not null, "block_hash" varchar(66) not null, "tx_hash" varchar(66) not null, "block_time" timestamptz(3) not null, "token" varchar(42) not null, "from_address" varchar(42) not null, "to_address" varchar(42) not null, "value" numeric(78,0) not null, "outcome" text check ("outcome" in ('confirmed', 'unmatched')) null, "payment_id" uuid null, "signal_due" boolean not null default false, "settled_at" timestamptz(3) null, constraint "treasury_transfers_pkey" primary key ("chain_id", "block_number", "log_index"));`,
    );
    this.addSql(
      `create index "treasury_transfers_unsettled_index" on "treasury_transfers" ("chain_id", "block_number", "log_index") where "outcome" is null;`,
    );
    this.addSql(
      `create index "treasury_transfers_signal_due_index" on "treasury_transfers" ("chain_id", "block_number", "log_index") where "signal_due";`,
    );
    this.addSql(
      `alter table "treasury_transfers" add constraint "treasury_transfers_payment_id_foreign" foreign key ("payment_id") references "payments" ("id") on update cascade on delete set null;`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "treasury_transfers" cascade;`);
  }
}
