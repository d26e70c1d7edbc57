/**
 * Text PostgreSQL can store as sent (docs/decisions.md "Bad input"). Two kinds of JavaScript
 * string cannot be: one holding NUL (`\u0000`), which neither `text` nor `jsonb` accepts (the
 * driver's message is refused outright), and one with an unpaired UTF-16 surrogate, which has
 * no UTF-8 form and would be stored silently changed (as U+FFFD). Every value that enters
 * from outside, a request or an agent's answer, is checked here before anything is written.
 */

export const UNSTORABLE_TEXT = 'must not contain NUL (\\u0000) or an unpaired surrogate';

/** A high surrogate without its low half, or a low one without its high half. */
const UNPAIRED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function storable(text: string): boolean {
  return !text.includes('\u0000') && !UNPAIRED.test(text);
}

/**
 * The path to the first string (or object key) in `value` that cannot be stored, or null
 * when every one can. Walks plain JSON values: objects, arrays, strings; others pass.
 */
export function unstorableTextPath(value: unknown): (string | number)[] | null {
  if (typeof value === 'string') return storable(value) ? null : [];
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const inner = unstorableTextPath(value[index]);
      if (inner) return [index, ...inner];
    }
    return null;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (!storable(key)) return [key];
    const path = unstorableTextPath(inner);
    if (path) return [key, ...path];
  }
  return null;
}

/** `a.b.0.c`, as error messages name fields; `fallback` for the value itself. */
export function fieldPath(path: (string | number)[], fallback: string): string {
  return path.length > 0 ? path.join('.') : fallback;
}
