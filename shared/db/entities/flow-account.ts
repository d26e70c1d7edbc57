import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/**
 * A user's FLOW in micro-FLOW. `held` is reserved by calls in flight (see `FlowHold`): what can
 * be spent is `balance - held`. The checks make a negative balance impossible.
 */
export const FlowAccount = defineEntity({
  name: 'FlowAccount',
  tableName: 'flow_accounts',
  checks: [
    { name: 'flow_accounts_balance_nonnegative', expression: 'balance >= 0' },
    { name: 'flow_accounts_held_within_balance', expression: 'held >= 0 and held <= balance' },
  ],
  properties: {
    user: () => p.oneToOne(User).primary().deleteRule('cascade'),
    balance: p.bigint().default(0),
    held: p.bigint().default(0),
    updatedAt: p.datetime(3),
  },
});

export type FlowAccount = InferEntity<typeof FlowAccount>;
