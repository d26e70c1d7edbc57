import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Token } from './token';
import { User } from './user';

/**
 * One distribution of a token's holder-reward pool (docs/decisions.md "Holder rewards"): at
 * most one per token and UTC day (`period`). Planning it reserves `distributed` micro-FLOW out
 * of the pool and writes one payout per platform user holding the token at `blockNumber`, in
 * one transaction; `completedAt` is set once every payout is credited.
 */
export const HolderRewardDistribution = defineEntity({
  name: 'HolderRewardDistribution',
  tableName: 'holder_reward_distributions',
  uniques: [
    { name: 'holder_reward_distributions_token_period_unique', properties: ['token', 'period'] },
  ],
  properties: {
    id: p.uuid().primary(),
    token: () => p.manyToOne(Token).deleteRule('cascade'),
    period: p.string().columnType('date'),
    chainId: p.integer(),
    instance: p.string().length(42),
    /** The block whose indexed balances the shares follow (the chain's finalized head). */
    blockNumber: p.bigint('number'),
    /** micro-FLOW in the pool when the distribution was planned. */
    poolBefore: p.bigint(),
    /** Base units held outside the token's own contracts at `blockNumber`: the denominator. */
    eligibleSupply: p.decimal().columnType('numeric(78,0)'),
    /** micro-FLOW reserved for the payouts (their sum). */
    distributed: p.bigint(),
    recipients: p.integer(),
    createdAt: p.datetime(3),
    completedAt: p.datetime(3).nullable(),
  },
});

export type HolderRewardDistribution = InferEntity<typeof HolderRewardDistribution>;

/** One user's share of a distribution; `paidAt` is set in the transaction that credits it. */
export const HolderRewardPayout = defineEntity({
  name: 'HolderRewardPayout',
  tableName: 'holder_reward_payouts',
  indexes: [{ properties: ['user'] }],
  properties: {
    distribution: () => p.manyToOne(HolderRewardDistribution).primary().deleteRule('cascade'),
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
    address: p.string().length(42),
    balance: p.decimal().columnType('numeric(78,0)'),
    amount: p.bigint(),
    paidAt: p.datetime(3).nullable(),
  },
});

export type HolderRewardPayout = InferEntity<typeof HolderRewardPayout>;
