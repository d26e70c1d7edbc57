import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Agent } from './agent';
import { User } from './user';

export const AGENT_CALL_STATUSES = ['succeeded', 'failed'] as const;

/**
 * One invocation of an agent. Succeeded calls feed the marketplace stats (calls, latency) and
 * entitle the caller to rate the agent; `cost` is what the caller paid, in micro-FLOW.
 */
export const AgentCall = defineEntity({
  name: 'AgentCall',
  tableName: 'agent_calls',
  indexes: [{ properties: ['agent', 'createdAt'] }, { properties: ['caller', 'agent'] }],
  properties: {
    id: p.uuid().primary(),
    agent: () => p.manyToOne(Agent).deleteRule('cascade'),
    caller: () => p.manyToOne(User).deleteRule('cascade'),
    apiKeyId: p.uuid().nullable(),
    status: p.enum([...AGENT_CALL_STATUSES]),
    error: p.string().length(500).nullable(),
    latencyMs: p.integer(),
    cost: p.bigint().default(0),
    toolsUsed: p.array().columnType('text[]').default('{}'),
    free: p.boolean().default(false),
    model: p.string().length(128).nullable(),
    inputTokens: p.integer().nullable(),
    outputTokens: p.integer().nullable(),
    createdAt: p.datetime(3),
  },
});

export type AgentCall = InferEntity<typeof AgentCall>;
