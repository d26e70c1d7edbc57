import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * One OHLCV bar of a launched token per stored resolution and bucket with trades
 * (docs/spec/contract.md §13, docs/chain.md "Market data"). Prices are the quote token's base
 * units per whole token (the spot price before and after each trade), volumes base units.
 * `openOrd` / `closeOrd` are the positions (`block_number × 2^20 + log_index`) of the trades
 * that set `open` and `close`, so statement triggers on `token_trades` merge rows in any order
 * to the same bar and recompute a bucket a rollback touched from the trades that remain.
 */
export const TokenCandle = defineEntity({
  name: 'TokenCandle',
  tableName: 'token_candles',
  properties: {
    chainId: p.integer().primary().autoincrement(false),
    instance: p.string().length(42).primary(),
    /** Seconds: 60, 300, 900, 3600, 14400, 86400 or 604800 (15 s bars are computed on read). */
    resolution: p.integer().primary().autoincrement(false),
    /** The bucket's start: a UTC boundary of block time (weeks start on Monday). */
    bucket: p.datetime(3).primary(),
    open: p.decimal().columnType('numeric(78,0)'),
    high: p.decimal().columnType('numeric(78,0)'),
    low: p.decimal().columnType('numeric(78,0)'),
    close: p.decimal().columnType('numeric(78,0)'),
    openOrd: p.bigint(),
    closeOrd: p.bigint(),
    volumeToken: p.decimal().columnType('numeric(78,0)'),
    volumePayment: p.decimal().columnType('numeric(78,0)'),
    trades: p.integer(),
  },
});

export type TokenCandle = InferEntity<typeof TokenCandle>;
