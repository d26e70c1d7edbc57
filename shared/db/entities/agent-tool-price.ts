import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Agent } from './agent';

/** What a call pays, in micro-FLOW, for each use of a platform tool (docs/spec/contract.md §8). */
export const AgentToolPrice = defineEntity({
  name: 'AgentToolPrice',
  tableName: 'agent_tool_prices',
  checks: [{ name: 'agent_tool_prices_price_nonnegative', expression: 'price >= 0' }],
  properties: {
    agent: () => p.manyToOne(Agent).primary().deleteRule('cascade'),
    tool: p.string().length(32).primary(),
    price: p.bigint(),
  },
});

export type AgentToolPrice = InferEntity<typeof AgentToolPrice>;
