import { TIERS, type Tier } from '../db/entities/subscription';

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

/** Monthly price in US cents (spec "Subscription": plus 20, pro 100, max 200 USD). */
export const TIER_PRICE_USD_CENTS: Record<Tier, number> = { plus: 2_000, pro: 10_000, max: 20_000 };

/** Analytics by tier (plus: basic, pro and max: advanced). */
export type AnalyticsLevel = 'none' | 'basic' | 'advanced';
export function analyticsLevelOf(tier: Tier | null): AnalyticsLevel {
  if (tier === null) return 'none';
  return tier === 'plus' ? 'basic' : 'advanced';
}

/** plus < pro < max: a change to a higher tier is an upgrade. */
export function tierRank(tier: Tier): number {
  return TIERS.indexOf(tier);
}
