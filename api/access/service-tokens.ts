import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Finds which configured service token (`INTERNAL_TOKENS`, `BOT_TOKENS`) was presented and
 * answers its label, or null. The label (the first 12 hex digits of the token's SHA-256) names
 * the caller in logs and rate-limit buckets without ever revealing the token.
 */
export type TokenMatcher = (presented: string) => string | null;

/** Digests of the configured tokens, compared in constant time. */
export function tokenMatcher(tokens: readonly string[]): TokenMatcher {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const known = tokens.map((token) => ({
    digest: digest(token),
    label: digest(token).toString('hex').slice(0, 12),
  }));
  return (presented) => {
    const candidate = digest(presented);
    let match: string | null = null;
    // No early exit: the time taken does not depend on which token matched.
    for (const token of known) {
      if (timingSafeEqual(candidate, token.digest)) match = token.label;
    }
    return match;
  };
}
