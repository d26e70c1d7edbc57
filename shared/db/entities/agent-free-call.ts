import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Agent } from './agent';
import { User } from './user';

/** Freemium calls a caller used of an agent on one UTC day (the row is the atomic counter). */
export const AgentFreeCall = defineEntity({
  name: 'AgentFreeCall',
  tableName: 'agent_free_calls',
  checks: [{ name: 'agent_free_calls_used_nonnegative', expression: 'used >= 0' }],
  properties: {
    agent: () => p.manyToOne(Agent).primary().deleteRule('cascade'),
    caller: () => p.manyToOne(User).primary().deleteRule('cascade'),
    day: p.date().primary(),
    used: p.integer().default(0),
  },
});

export type AgentFreeCall = InferEntity<typeof AgentFreeCall>;
