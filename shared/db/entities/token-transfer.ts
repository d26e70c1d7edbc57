import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { logKey } from './chain-log-position';

/**
 * ERC-20 `Transfer`s of launched tokens (and of a `dpnm` launch's GWT). Statement triggers
 * (migration `Migration20261128000000_chain_index`) add each insert to `token_holders` and
 * subtract each delete, so rolling back a reorg's transfers corrects the balances with them.
 */
export const TokenTransfer = defineEntity({
  name: 'TokenTransfer',
  tableName: 'token_transfers',
  properties: {
    ...logKey(),
    /** The token contract (lowercase). */
    instance: p.string().length(42),
    fromAddress: p.string().length(42),
    toAddress: p.string().length(42),
    value: p.decimal().columnType('numeric(78,0)'),
  },
});

export type TokenTransfer = InferEntity<typeof TokenTransfer>;
