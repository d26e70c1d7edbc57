import { formatUnits, getAddress } from 'viem';
import { z } from 'zod';
import { AMOUNT_DECIMALS } from '../shared/chain/launchpad';
import { MAX_FLOW, parseFlow } from '../shared/domain/flow';
import { SLUG_PATTERN } from '../shared/domain/slug';

/** Wire building blocks shared by the route schemas (docs/spec/contract.md §1). */

/** ISO 8601 UTC with milliseconds, as every timestamp leaves the API. */
export const isoTime = z.iso.datetime({ offset: false });

/** A FLOW price as the marketplace sends it: a number, at most 6 decimals kept (rounded down). */
export const flowPrice = z
  .number({ error: 'must be a number' })
  .min(0, { error: 'must be 0 or more' })
  .max(MAX_FLOW, { error: `must be at most ${MAX_FLOW}` })
  .transform((value) => parseFlow(value) ?? 0n);

/** A positive FLOW amount given as a decimal string or a number, to micro-FLOW. */
export const flowAmount = z.union([z.string().max(32), z.number()]).transform((value, ctx) => {
  const micro = parseFlow(value);
  if (micro === null || micro === 0n) {
    ctx.addIssue({ code: 'custom', message: 'must be a positive FLOW amount' });
    return z.NEVER;
  }
  return micro;
});

/**
 * An id in a path (an API key, a webhook, a delivery, a run): any string of up to 64
 * characters passes the schema, and one that is not a UUID is answered like an unknown id (a
 * plain 404, never a 400 or a database error; see `isUuid`).
 */
export const idParam = z.string().max(64);

/** `/:id` paths. */
export const idParams = z.object({ id: idParam });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string could be a UUID id at all (lookups of anything else are a plain 404). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export const slugParams = z.object({
  slug: z
    .string()
    .max(128, { error: 'must be at most 128 characters' })
    .describe('The resource’s slug'),
});

/** Whether a string could be a slug at all (lookups of anything else are a plain 404). */
export function looksLikeSlug(value: string): boolean {
  return value.length <= 128 && SLUG_PATTERN.test(value);
}

/**
 * Base units (an integer string, as the chain index stores amounts) in whole units, every one
 * of the 18 decimals kept: "1500000000000000000" → "1.5".
 */
export function units(base: string): string;
export function units(base: string | null): string | null;
export function units(base: string | null): string | null {
  return base === null ? null : formatUnits(BigInt(base), AMOUNT_DECIMALS);
}

/** An indexed (lowercase) address in its EIP-55 form. */
export function checksummed(address: string | null): string | null {
  return address === null ? null : getAddress(address);
}
