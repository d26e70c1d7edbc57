/**
 * Events are stored as PostgreSQL jsonb and streamed to every viewer of a public project, so
 * what a brain or a build's program produced must be made small and storable first: jsonb
 * refuses the NUL character and unpaired UTF-16 surrogates (an insert with one would fail the
 * step on every retry).
 */

const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

/** A string's longest kept part in a summary, how much text one summary keeps in all, and so on. */
const SUMMARY = { stringChars: 1024, entries: 20, depth: 4, budgetChars: 8 * 1024 } as const;
const KEY_CHARS = 64;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** The text with every NUL and unpaired surrogate replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE_ALL, '\uFFFD');
}

/** At most `max` characters of the text, then a marker with its full length; storable. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return storableText(text);
  return `${storableText(text.slice(0, max))}…[cut: ${text.length} characters in all]`;
}

/** The path (e.g. `args.3`) of the first string in `value` the log cannot store, or null. */
export function unstorablePath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path || 'arguments';
  if (value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = unstorablePath(inner, path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return null;
}

/**
 * A bounded, storable stand-in for a value a brain sent (the arguments of a refused call):
 * strings are cut at 1 KB with their original length, lists and objects keep 20 entries and
 * count the rest, nesting stops at 4 levels, and once about 8 KB of text is kept (a string
 * started is kept up to its 1 KB) every further value becomes "…[cut]".
 */
export function summarizeValue(value: unknown): unknown {
  let budget: number = SUMMARY.budgetChars;
  const walk = (inner: unknown, depth: number): unknown => {
    if (typeof inner === 'number' || typeof inner === 'boolean' || inner === null) return inner;
    if (budget <= 0) return '…[cut]';
    if (typeof inner === 'string') {
      budget -= Math.min(inner.length, SUMMARY.stringChars);
      return cutText(inner, SUMMARY.stringChars);
    }
    if (typeof inner !== 'object') return null;
    if (depth >= SUMMARY.depth) return '…[nested too deep]';
    if (Array.isArray(inner)) {
      const items = inner.slice(0, SUMMARY.entries).map((item) => walk(item, depth + 1));
      if (inner.length > SUMMARY.entries) items.push(`…[${inner.length} items in all]`);
      return items;
    }
    const entries = Object.entries(inner);
    const summary: Record<string, unknown> = {};
    for (const [key, item] of entries.slice(0, SUMMARY.entries)) {
      const shortKey = cutText(key, KEY_CHARS);
      budget -= shortKey.length;
      summary[shortKey] = walk(item, depth + 1);
    }
    if (entries.length > SUMMARY.entries) summary['…'] = `[${entries.length} keys in all]`;
    return summary;
  };
  return walk(value, 0);
}
