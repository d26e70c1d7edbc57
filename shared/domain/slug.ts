import { randomBytes } from 'node:crypto';

/** Slugs are lowercase `[a-z0-9-]` (docs/spec/contract.md §1), at most this long. */
export const SLUG_MAX_LENGTH = 64;
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The slug a name asks for: accents dropped, lowercased, every run of other characters a single
 * hyphen. A name with nothing usable (say, only emoji) gets `fallback`.
 */
export function slugify(name: string, fallback: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/, '');
  return slug.length > 0 ? slug : fallback;
}

/** The same slug with a short random suffix, for when the plain one is taken. */
export function suffixedSlug(slug: string): string {
  const suffix = randomBytes(3).toString('hex');
  return `${slug.slice(0, SLUG_MAX_LENGTH - suffix.length - 1).replace(/-+$/, '')}-${suffix}`;
}
