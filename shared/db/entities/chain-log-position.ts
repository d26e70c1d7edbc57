import { p } from '@mikro-orm/core';

/**
 * The columns every row derived from a log carries (docs/spec/contract.md §10): where on the chain it
 * comes from, so a reorg can delete exactly the rows above the common ancestor and a re-index
 * can recognise a row it already wrote.
 */
export function logPosition() {
  return {
    blockNumber: p.bigint('number'),
    logIndex: p.integer(),
    blockHash: p.string().length(66),
    txHash: p.string().length(66),
    blockTime: p.datetime(3),
  };
}

/** The same columns as the primary key of a journal table (one row per log). */
export function logKey() {
  return {
    chainId: p.integer().primary().autoincrement(false),
    blockNumber: p.bigint('number').primary(),
    logIndex: p.integer().primary(),
    blockHash: p.string().length(66),
    txHash: p.string().length(66),
    blockTime: p.datetime(3),
  };
}
