import { basePrice, splitEarnings, toolsPrice } from '../../shared/domain/pricing';
import { SLUG_MAX_LENGTH, SLUG_PATTERN, slugify, suffixedSlug } from '../../shared/domain/slug';

describe('splitEarnings', () => {
  it('gives 5 % to holders (rounded down) and the rest to the owner', () => {
    expect(splitEarnings(2_500_000n, true)).toEqual({ owner: 2_375_000n, holders: 125_000n });
    expect(splitEarnings(19n, true)).toEqual({ owner: 19n, holders: 0n });
    expect(splitEarnings(21n, true)).toEqual({ owner: 20n, holders: 1n });
  });

  it('gives everything to the owner without a token', () => {
    expect(splitEarnings(2_500_000n, false)).toEqual({ owner: 2_500_000n, holders: 0n });
  });

  it('never creates or loses micro-FLOW', () => {
    for (const amount of [0n, 1n, 99n, 100n, 12_345_678n, 10n ** 18n]) {
      const split = splitEarnings(amount, true);
      expect(split.owner + split.holders).toBe(amount);
      expect(split.holders * 20n).toBeLessThanOrEqual(amount);
    }
  });
});

describe('basePrice', () => {
  const base = { perCallPrice: 2n, isSubscriber: false, freeCallGranted: false };

  it('per_call always charges the per-call price', () => {
    expect(basePrice({ ...base, monetization: 'per_call', isSubscriber: true })).toEqual({
      kind: 'charged',
      amount: 2n,
    });
  });

  it('subscription: covered for subscribers, refused otherwise', () => {
    expect(basePrice({ ...base, monetization: 'subscription', isSubscriber: true }).kind).toBe(
      'covered',
    );
    expect(basePrice({ ...base, monetization: 'subscription' }).kind).toBe('needs_subscription');
  });

  it('hybrid: covered for subscribers, the per-call price otherwise', () => {
    expect(basePrice({ ...base, monetization: 'hybrid', isSubscriber: true }).kind).toBe('covered');
    expect(basePrice({ ...base, monetization: 'hybrid' })).toEqual({ kind: 'charged', amount: 2n });
  });

  it('freemium: free within the quota, then the price, or refused without one', () => {
    expect(basePrice({ ...base, monetization: 'freemium', freeCallGranted: true }).kind).toBe(
      'covered',
    );
    expect(basePrice({ ...base, monetization: 'freemium' })).toEqual({
      kind: 'charged',
      amount: 2n,
    });
    expect(basePrice({ ...base, monetization: 'freemium', perCallPrice: null }).kind).toBe(
      'quota_exhausted',
    );
  });
});

describe('toolsPrice', () => {
  it('adds each used tool once; unpriced tools are free', () => {
    const prices = new Map([
      ['web_search', 500_000n],
      ['browser', 300_000n],
    ]);
    expect(toolsPrice(['web_search', 'browser', 'git', 'web_search'], prices)).toBe(800_000n);
    expect(toolsPrice([], prices)).toBe(0n);
  });
});

describe('slugs', () => {
  it('lowercases, drops accents and joins words with single hyphens', () => {
    expect(slugify('  Héllo, Wörld!! 2.0 ', 'x')).toBe('hello-world-2-0');
    expect(slugify('🚀🚀', 'agent')).toBe('agent');
  });

  it('stays within the length limit and the pattern, also when suffixed', () => {
    const long = slugify('a'.repeat(40) + ' ' + 'b'.repeat(40), 'x');
    expect(long.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
    expect(long).toMatch(SLUG_PATTERN);
    const suffixed = suffixedSlug(long);
    expect(suffixed.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
    expect(suffixed).toMatch(SLUG_PATTERN);
    expect(suffixed).not.toBe(suffixedSlug(long));
  });
});
