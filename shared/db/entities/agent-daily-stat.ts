import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Agent } from './agent';

/**
 * Per agent and UTC day: succeeded calls and gross FLOW billed (calls and subscriptions), so
 * the marketplace sorts sum at most 30 small rows per agent instead of scanning calls.
 */
export const AgentDailyStat = defineEntity({
  name: 'AgentDailyStat',
  tableName: 'agent_daily_stats',
  indexes: [{ properties: ['day', 'agent'] }],
  properties: {
    agent: () => p.manyToOne(Agent).primary().deleteRule('cascade'),
    day: p.date().primary(),
    calls: p.integer().default(0),
    earnings: p.bigint().default(0),
  },
});

export type AgentDailyStat = InferEntity<typeof AgentDailyStat>;
