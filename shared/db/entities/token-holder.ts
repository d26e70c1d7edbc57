import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A holder's balance of a launched token, in base units: the sum of its indexed transfers,
 * kept by the triggers on `token_transfers`. Neither the zero address nor the launch's
 * factory (a `virtuals` curve's own reserve) is a holder. Rows that fall to 0 stay, at 0. There
 * is no `balance >= 0` check: PostgreSQL checks the row an upsert proposes (a holder's net
 * outflow in a batch) before it resolves the conflict into an addition.
 */
export const TokenHolder = defineEntity({
  name: 'TokenHolder',
  tableName: 'token_holders',
  indexes: [
    {
      name: 'token_holders_page_index',
      expression:
        'create index "token_holders_page_index" on "token_holders" ("chain_id", "instance", "balance" desc, "address" desc) where "balance" > 0',
    },
  ],
  properties: {
    chainId: p.integer().primary().autoincrement(false),
    instance: p.string().length(42).primary(),
    address: p.string().length(42).primary(),
    balance: p.decimal().columnType('numeric(78,0)'),
  },
});

export type TokenHolder = InferEntity<typeof TokenHolder>;

/**
 * Per token: how many addresses hold a positive balance and how much they hold together (the
 * supply outside the curve and pool, the denominator of a holder's `share`). Kept by
 * statement triggers on `token_holders`, so the detail read never counts holders.
 */
export const TokenHolderTotals = defineEntity({
  name: 'TokenHolderTotals',
  tableName: 'token_holder_totals',
  properties: {
    chainId: p.integer().primary().autoincrement(false),
    instance: p.string().length(42).primary(),
    holdersCount: p.integer().default(0),
    heldSupply: p.decimal().columnType('numeric(78,0)').default(0),
  },
});

export type TokenHolderTotals = InferEntity<typeof TokenHolderTotals>;
