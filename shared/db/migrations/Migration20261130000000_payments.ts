import { Migration } from '@mikro-orm/migrations';

/**
 * Payments and subscriptions (docs/payments.md).
 *
 * - `payments`: every invoice the service asks a provider for (a subscription checkout, a
 *   renewal, an upgrade's pro-rated difference, a FLOW top-up) and what confirmed it. A provider
 *   payment id confirms at most one payment (`payments_provider_payment_unique`), which is what
 *   makes callbacks idempotent across API instances. A `usdt_bep20` invoice is identified by its
 *   exact token amount, unique among the pending ones of a chain.
 * - `subscriptions` gains the lifecycle's fields: `none` (ended at the end of a canceled
 *   period), the cancel flag, a pending downgrade, the end of grace, and the payment that
 *   already paid the next period.
 * - `agents.premium`: only pro and max callers may invoke an agent its owner marked premium.
 */
export class Migration20261130000000_payments extends Migration {
  override up(): void {
    this.addSql(
      `create table "payments" ("id" uuid not null, "user_id" int not null, "purpose" text check ("purpose" in ('subscription', 'renewal', 'upgrade', 'topup')) not null, "tier" text check ("tier" in ('plus', 'pro', 'max')) null, "provider" varchar(32) not null, "amount_usd_cents" bigint not null, "amount_flow" bigint null, "status" text check ("status" in ('pending', 'paid', 'expired')) not null, "provider_invoice_id" varchar(128) null, "provider_payment_id" varchar(200) null, "checkout_url" varchar(2048) null, "chain_id" int null, "amount_units" numeric(78,0) null, "expires_at" timestamptz(3) not null, "paid_at" timestamptz(3) null, "applied_at" timestamptz(3) null, "outcome" varchar(32) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "payments_pkey" primary key ("id"), constraint payments_amounts_positive check (amount_usd_cents > 0 and (amount_flow is null or amount_flow > 0)));`,
    );
    this.addSql(
      `create index "payments_user_id_created_at_index" on "payments" ("user_id", "created_at");`,
    );
    this.addSql(
      `create unique index "payments_provider_invoice_unique" on "payments" ("provider", "provider_invoice_id");`,
    );
    this.addSql(
      `create unique index "payments_provider_payment_unique" on "payments" ("provider", "provider_payment_id");`,
    );
    this.addSql(
      `create unique index "payments_usdt_pending_amount_unique" on "payments" ("chain_id", "amount_units") where "status" = 'pending' and "provider" = 'usdt_bep20';`,
    );
    this.addSql(
      `alter table "payments" add constraint "payments_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "subscriptions" drop constraint if exists "subscriptions_status_check";`,
    );
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_status_check" check ("status" in ('active', 'grace', 'canceled', 'none'));`,
    );
    this.addSql(
      `alter table "subscriptions" add column "cancel_at_period_end" boolean not null default false, add column "pending_tier" text check ("pending_tier" in ('plus', 'pro', 'max')) null, add column "grace_until" timestamptz(3) null, add column "next_period_payment_id" uuid null;`,
    );
    this.addSql(`alter table "agents" add column "premium" boolean not null default false;`);
  }

  override down(): void {
    this.addSql(`alter table "agents" drop column "premium";`);
    this.addSql(
      `alter table "subscriptions" drop column "cancel_at_period_end", drop column "pending_tier", drop column "grace_until", drop column "next_period_payment_id";`,
    );
    this.addSql(`delete from "subscriptions" where "status" = 'none';`);
    this.addSql(
      `alter table "subscriptions" drop constraint if exists "subscriptions_status_check";`,
    );
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_status_check" check ("status" in ('active', 'grace', 'canceled'));`,
    );
    this.addSql(`drop table if exists "payments" cascade;`);
  }
}
