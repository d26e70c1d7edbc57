import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Where the chain indexer of one chain stands (docs/chain.md "Indexer"): every block below
 * `nextBlock` is indexed. Written in the same transaction as the rows of the blocks it covers,
 * so a crash resumes exactly where the last commit left off. `headTime` is the timestamp of
 * the last indexed block: the chain's own clock, which decides when a launch is overdue.
 */
export const ChainCursor = defineEntity({
  name: 'ChainCursor',
  tableName: 'chain_cursors',
  properties: {
    chainId: p.integer().primary().autoincrement(false),
    nextBlock: p.bigint('number'),
    headTime: p.datetime(3).nullable(),
    /**
     * The newest indexed block at or below the finality line, and its time: bars that end by
     * then can no longer change, and aggregators are shown nothing newer (docs/chain.md
     * "Market data"). Written at the end of every pass.
     */
    finalBlock: p.bigint('number').nullable(),
    finalTime: p.datetime(3).nullable(),
    updatedAt: p.datetime(3),
  },
});

export type ChainCursor = InferEntity<typeof ChainCursor>;

/**
 * Hashes of indexed blocks above the finality line, compared with the chain's on every pass:
 * the first that differs marks a reorganisation, and everything above the last that still
 * matches is rolled back. Final blocks are pruned.
 */
export const ChainBlock = defineEntity({
  name: 'ChainBlock',
  tableName: 'chain_blocks',
  properties: {
    chainId: p.integer().primary().autoincrement(false),
    number: p.bigint('number').primary(),
    hash: p.string().length(66),
  },
});

export type ChainBlock = InferEntity<typeof ChainBlock>;
