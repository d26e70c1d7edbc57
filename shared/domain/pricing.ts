/**
 * What an agent call or subscription costs and where the FLOW goes (docs/spec/contract.md §6). Pure
 * functions over micro-FLOW.
 */

export type Monetization = 'per_call' | 'subscription' | 'hybrid' | 'freemium';

/** Share of every agent earning that goes to the linked token's holders. */
export const HOLDER_SHARE_PERCENT = 5n;

export interface Split {
  owner: bigint;
  holders: bigint;
}

/**
 * 95 % to the agent's owner and 5 % to the linked token's holders (rounded down; the owner
 * gets the remainder), or everything to the owner when no token is linked.
 */
export function splitEarnings(amount: bigint, hasToken: boolean): Split {
  const holders = hasToken ? (amount * HOLDER_SHARE_PERCENT) / 100n : 0n;
  return { owner: amount - holders, holders };
}

/** The base part of a call's price, before tool prices. */
export type BasePrice =
  | { kind: 'charged'; amount: bigint }
  /** Covered: an active subscriber, or a call within the freemium quota. */
  | { kind: 'covered' }
  | { kind: 'needs_subscription' }
  | { kind: 'quota_exhausted' };

export interface BasePriceInput {
  monetization: Monetization;
  perCallPrice: bigint | null;
  isSubscriber: boolean;
  /** For freemium: whether this call got one of today's free calls. */
  freeCallGranted: boolean;
}

/**
 * per_call: the per-call price. subscription: free for subscribers, refused otherwise.
 * hybrid: free for subscribers, the per-call price otherwise. freemium: free within the daily
 * quota, then the per-call price if the owner set one, else refused until the next UTC day.
 */
export function basePrice(input: BasePriceInput): BasePrice {
  const perCall = input.perCallPrice ?? 0n;
  switch (input.monetization) {
    case 'per_call':
      return { kind: 'charged', amount: perCall };
    case 'subscription':
      return input.isSubscriber ? { kind: 'covered' } : { kind: 'needs_subscription' };
    case 'hybrid':
      return input.isSubscriber ? { kind: 'covered' } : { kind: 'charged', amount: perCall };
    case 'freemium':
      if (input.freeCallGranted) return { kind: 'covered' };
      return input.perCallPrice === null
        ? { kind: 'quota_exhausted' }
        : { kind: 'charged', amount: input.perCallPrice };
  }
}

/** Sum of the prices of `tools` (each counted once per call); unpriced tools are free. */
export function toolsPrice(tools: Iterable<string>, prices: ReadonlyMap<string, bigint>): bigint {
  let total = 0n;
  for (const tool of new Set(tools)) total += prices.get(tool) ?? 0n;
  return total;
}
