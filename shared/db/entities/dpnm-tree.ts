import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { logPosition } from './chain-log-position';

/**
 * A position in a `dpnm` token's referral tree, from its protocol's `Activated` event
 * (docs/chain.md "dpnm"). `activeUntil` (Unix seconds) follows `TreeExtended`; a reorg that
 * removes an extension recomputes it from the events that remain. `subtreeSize` counts the
 * members up to 10 levels below (the depth fees reach), kept by the triggers on
 * `dpnm_tree_paths`, so a tree read never counts a subtree.
 */
export const DpnmTreeNode = defineEntity({
  name: 'DpnmTreeNode',
  tableName: 'dpnm_tree_nodes',
  indexes: [
    { properties: ['chainId', 'instance', 'activeUntil'] },
    // A member's direct slots: GET /me/tree, /me/flow-onchain.
    { properties: ['chainId', 'instance', 'parent'] },
  ],
  properties: {
    chainId: p.integer().primary().autoincrement(false),
    instance: p.string().length(42).primary(),
    address: p.string().length(42).primary(),
    parent: p.string().length(42).nullable(),
    referrer: p.string().length(42).nullable(),
    slot: p.smallint(),
    activeUntil: p.bigint('number'),
    subtreeSize: p.integer().default(0),
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
  indexes: [
    { properties: ['chainId', 'instance', 'descendant'] },
    // A member's subtree down to a depth: GET /me/tree.
    { properties: ['chainId', 'instance', 'ancestor', 'level'] },
  ],
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

/**
 * How many members sit `level` (1..10) below a position: the per-level counts of its
 * `dpnm_tree_paths`, kept by the same triggers as `DpnmTreeNode.subtreeSize`.
 */
export const DpnmSubtreeLevel = defineEntity({
  name: 'DpnmSubtreeLevel',
  tableName: 'dpnm_subtree_levels',
  properties: {
    chainId: p.integer().primary().autoincrement(false),
    instance: p.string().length(42).primary(),
    address: p.string().length(42).primary(),
    level: p.smallint().primary(),
    members: p.integer(),
  },
});

export type DpnmSubtreeLevel = InferEntity<typeof DpnmSubtreeLevel>;

/**
 * What an upline was paid in USDT (base units) from the fees of members `level` (1..10) below
 * it: the sums of its `UplinePaid` events, kept by triggers on `chain_events`.
 */
export const DpnmEarning = defineEntity({
  name: 'DpnmEarning',
  tableName: 'dpnm_earnings',
  properties: {
    chainId: p.integer().primary().autoincrement(false),
    instance: p.string().length(42).primary(),
    address: p.string().length(42).primary(),
    level: p.smallint().primary(),
    amount: p.decimal().columnType('numeric(78,0)'),
  },
});

export type DpnmEarning = InferEntity<typeof DpnmEarning>;
