import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { logPosition } from './chain-log-position';

/**
 * A position in a `dpnm` token's referral tree, from its protocol's `Activated` event
 * (docs/chain.md "dpnm"). `activeUntil` (Unix seconds) follows `TreeExtended`; a reorg that
 * removes an extension recomputes it from the events that remain.
 */
export const DpnmTreeNode = defineEntity({
  name: 'DpnmTreeNode',
  tableName: 'dpnm_tree_nodes',
  indexes: [{ properties: ['chainId', 'instance', 'activeUntil'] }],
  properties: {
    chainId: p.integer().primary().autoincrement(false),
    instance: p.string().length(42).primary(),
    address: p.string().length(42).primary(),
    parent: p.string().length(42).nullable(),
    referrer: p.string().length(42).nullable(),
    slot: p.smallint(),
    activeUntil: p.bigint('number'),
    ...logPosition(),
  },
});

export type DpnmTreeNode = InferEntity<typeof DpnmTreeNode>;

/**
 * The tree's ancestor links up to 10 levels (`level` 1 = the parent), written with each
 * position: a member's subtree by level is one grouped count, and an upline walk one lookup.
 */
export const DpnmTreePath = defineEntity({
  name: 'DpnmTreePath',
  tableName: 'dpnm_tree_paths',
  indexes: [{ properties: ['chainId', 'instance', 'descendant'] }],
  properties: {
    chainId: p.integer().primary().autoincrement(false),
    instance: p.string().length(42).primary(),
    ancestor: p.string().length(42).primary(),
    descendant: p.string().length(42).primary(),
    level: p.smallint(),
    blockNumber: p.bigint('number'),
  },
});

export type DpnmTreePath = InferEntity<typeof DpnmTreePath>;
