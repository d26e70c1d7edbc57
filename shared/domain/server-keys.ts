import { createHmac } from 'node:crypto';

/**
 * Keys derived from the server secret (`JWT_SECRET`), one per purpose, so a value made for one
 * purpose (a pagination cursor, a sealed idempotent response) is useless for another and the
 * session JWTs never share their key with anything.
 *
 * The key is HMAC-SHA256(secret, label): the construction the cursors have used from the
 * start, kept so every derived key is made the same way and issued cursors stay valid. With a
 * high-entropy secret (at least 32 characters, enforced by the config) HMAC is a sound PRF for
 * this, as in HKDF-Expand. Changing `JWT_SECRET` changes every derived key (decisions,
 * "Pagination" and "Idempotency", say what that invalidates).
 */
export const KEY_LABELS = {
  paginationCursor: 'pagination-cursor-v1',
  idempotencyResponse: 'idempotency-response-v1',
} as const;

export type KeyPurpose = keyof typeof KEY_LABELS;

/** A 32-byte key for one purpose. */
export function deriveServerKey(secret: string, purpose: KeyPurpose): Buffer {
  return createHmac('sha256', secret).update(KEY_LABELS[purpose]).digest();
}
