import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Agent } from './agent';
import { User } from './user';

/** One rating (1 to 5) per caller and agent; rating again replaces it. */
export const AgentRating = defineEntity({
  name: 'AgentRating',
  tableName: 'agent_ratings',
  checks: [{ name: 'agent_ratings_rating_range', expression: 'rating >= 1 and rating <= 5' }],
  properties: {
    agent: () => p.manyToOne(Agent).primary().deleteRule('cascade'),
    rater: () => p.manyToOne(User).primary().deleteRule('cascade'),
    rating: p.smallint(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export type AgentRating = InferEntity<typeof AgentRating>;
