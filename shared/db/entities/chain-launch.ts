import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { TOKEN_TEMPLATES } from './token';
import { logPosition } from './chain-log-position';

/**
 * A `Launched` event of a configured factory (docs/chain.md "Indexer"). `tokenId` is the token
 * its `ref` linked, or null (no such token, another template, or already linked by an earlier
 * launch). A `dpnm` launch also records its protocol, tree and GWT addresses and its
 * parameters from the factory's `DpnmLaunched`. Addresses are lowercase.
 */
export const ChainLaunch = defineEntity({
  name: 'ChainLaunch',
  tableName: 'chain_launches',
  uniques: [
    {
      name: 'chain_launches_position_unique',
      properties: ['chainId', 'blockNumber', 'logIndex'],
    },
  ],
  indexes: [{ properties: ['tokenId'] }],
  properties: {
    chainId: p.integer().primary().autoincrement(false),
    instance: p.string().length(42).primary(),
    template: p.enum([...TOKEN_TEMPLATES]),
    factory: p.string().length(42),
    ref: p.uuid(),
    creator: p.string().length(42),
    tokenId: p.uuid().nullable(),
    protocol: p.string().length(42).nullable(),
    tree: p.string().length(42).nullable(),
    gwt: p.string().length(42).nullable(),
    params: p.json<Record<string, string>>().nullable(),
    ...logPosition(),
  },
});

export type ChainLaunch = InferEntity<typeof ChainLaunch>;
