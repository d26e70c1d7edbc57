import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Agent } from './agent';
import { User } from './user';

/**
 * A caller's paid month(s) of an agent. Paid up front; subscribing again extends the period.
 * There is no automatic renewal, so an unpublished agent bills nobody past the period end.
 */
export const AgentSubscription = defineEntity({
  name: 'AgentSubscription',
  tableName: 'agent_subscriptions',
  uniques: [{ properties: ['agent', 'subscriber'] }],
  properties: {
    id: p.uuid().primary(),
    agent: () => p.manyToOne(Agent).deleteRule('cascade'),
    subscriber: () => p.manyToOne(User).deleteRule('cascade').index(),
    periodStart: p.datetime(3),
    periodEnd: p.datetime(3),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export type AgentSubscription = InferEntity<typeof AgentSubscription>;
