import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { logKey } from './chain-log-position';

export const TRADE_KINDS = ['buy', 'sell', 'graduation'] as const;
export type TradeKind = (typeof TRADE_KINDS)[number];

/**
 * Buys and sells of a launched token (a `virtuals` curve's `Trade`, a `dpnm` protocol's
 * `Bought` / `Sold`) and a curve's graduation. Amounts in base units; `price` is payment per
 * whole token in base units (amountPayment × 10^18 / amountToken, the protocol's own price
 * for `dpnm`). A `virtuals` row also keeps the curve's reserves after it: the curve state is
 * the latest row. A graduation's trader and price are its graduating buy's; its amounts are the curve's
 * locked payment and token reserve at graduation.
 */
export const TokenTrade = defineEntity({
  name: 'TokenTrade',
  tableName: 'token_trades',
  indexes: [
    {
      name: 'token_trades_page_index',
      expression:
        'create index "token_trades_page_index" on "token_trades" ("chain_id", "instance", "block_number" desc, "log_index" desc)',
    },
    {
      // The recent rate of locked payment (estimatedTimeToGraduation): the last trade before
      // a point in time.
      name: 'token_trades_time_index',
      expression:
        'create index "token_trades_time_index" on "token_trades" ("chain_id", "instance", "block_time" desc) where "kind" <> \'graduation\'',
    },
    {
      name: 'token_trades_graduation_index',
      expression:
        'create index "token_trades_graduation_index" on "token_trades" ("chain_id", "instance") where "kind" = \'graduation\'',
    },
  ],
  properties: {
    ...logKey(),
    instance: p.string().length(42),
    kind: p.enum([...TRADE_KINDS]),
    trader: p.string().length(42).nullable(),
    amountToken: p.decimal().columnType('numeric(78,0)'),
    amountPayment: p.decimal().columnType('numeric(78,0)'),
    price: p.decimal().columnType('numeric(78,0)'),
    reserveToken: p.decimal().columnType('numeric(78,0)').nullable(),
    lockedPayment: p.decimal().columnType('numeric(78,0)').nullable(),
    /**
     * Spot prices around a buy or sell (quote base units per whole token; null on a
     * graduation): virtuals from the curve's reserves, dpnm the protocol's `price()` before
     * and its `PoolUpdated` price after. `supplyAfter` is the circulating supply after it.
     * The candles and the board are built from these (docs/chain.md "Market data").
     */
    priceBefore: p.decimal().columnType('numeric(78,0)').nullable(),
    priceAfter: p.decimal().columnType('numeric(78,0)').nullable(),
    supplyAfter: p.decimal().columnType('numeric(78,0)').nullable(),
  },
});

export type TokenTrade = InferEntity<typeof TokenTrade>;
