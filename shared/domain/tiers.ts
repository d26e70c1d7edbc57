import type { Tier } from '../db/entities/subscription';

export interface TierFeatures {
  priorityQueue: boolean;
  premiumAgents: boolean;
  fasterSse: boolean;
  privateProjects: boolean;
  dedicatedRuntime: boolean;
}

const NONE: TierFeatures = {
  priorityQueue: false,
  premiumAgents: false,
  fasterSse: false,
  privateProjects: false,
  dedicatedRuntime: false,
};

/** The spec's tier table: each tier has everything of the one below it. */
const FEATURES: Record<Tier, TierFeatures> = {
  plus: { ...NONE, priorityQueue: true },
  pro: { ...NONE, priorityQueue: true, premiumAgents: true, fasterSse: true },
  max: {
    priorityQueue: true,
    premiumAgents: true,
    fasterSse: true,
    privateProjects: true,
    dedicatedRuntime: true,
  },
};

export function featuresOf(tier: Tier | null): TierFeatures {
  return tier === null ? NONE : FEATURES[tier];
}
