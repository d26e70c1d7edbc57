import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption of a stored string (AES-256-GCM, node:crypto), for data at rest
 * that must be readable again later, such as the response of a secret-bearing request kept
 * for idempotent replay (decisions, "Idempotency").
 *
 * Sealed form: `v1.` + base64url(IV ‖ ciphertext ‖ tag), with a random 96-bit IV per value
 * and a 128-bit tag. The `context` (for example the id and owner of the row holding the
 * value) is bound as additional authenticated data: it is not stored in the sealed value, and
 * a value opened under another context fails like an edited one. `open` never says why it
 * failed (another key, another context, an edited byte, not a sealed value at all).
 */

const FORMAT = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SealedBox {
  seal(plaintext: string, context: readonly string[]): string;
  /** The plaintext, or null when the value is not one this key sealed under this context. */
  open(sealed: string, context: readonly string[]): string | null;
}

/** `key`: 32 bytes, e.g. `deriveServerKey(secret, 'idempotencyResponse')`. */
export function createSealedBox(key: Buffer): SealedBox {
  if (key.length !== 32) throw new Error('a sealed box needs a 32-byte key');
  // JSON keeps the parts apart: ["a","bc"] and ["ab","c"] are different contexts.
  const aadOf = (context: readonly string[]) => Buffer.from(JSON.stringify(context), 'utf8');

  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(aadOf(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const sealed = Buffer.concat([iv, body, cipher.getAuthTag()]);
      return `${FORMAT}${sealed.toString('base64url')}`;
    },
    open(sealed, context) {
      if (!sealed.startsWith(FORMAT)) return null;
      const bytes = Buffer.from(sealed.slice(FORMAT.length), 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) return null;
      const iv = bytes.subarray(0, IV_BYTES);
      const tag = bytes.subarray(bytes.length - TAG_BYTES);
      const body = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(aadOf(context));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
