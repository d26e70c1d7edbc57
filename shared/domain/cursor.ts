import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors';
import { deriveServerKey } from './server-keys';

/**
 * Opaque, tamper-evident pagination cursors: `base64url(json).base64url(hmac)`.
 * The payload carries the list's scope (route + filters + sort), so a cursor taken from one
 * listing is refused by another (`invalid_cursor`), and any edited byte breaks the MAC.
 */
export interface CursorCodec {
  encode(scope: string, position: unknown): string;
  decode(scope: string, cursor: string): unknown;
}

export function createCursorCodec(secret: string): CursorCodec {
  // A key of its own, derived from the server secret, so cursors cannot be confused with JWTs.
  const key = deriveServerKey(secret, 'paginationCursor');
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest();
  const invalid = () => new AppError('invalid_cursor', 'cursor: malformed, tampered or foreign');

  return {
    encode(scope, position) {
      const payload = Buffer.from(JSON.stringify({ s: scope, p: position })).toString('base64url');
      return `${payload}.${mac(payload).toString('base64url')}`;
    },
    decode(scope, cursor) {
      const [payload, signature, extra] = cursor.split('.');
      if (!payload || !signature || extra !== undefined) throw invalid();
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
        s?: unknown;
        p?: unknown;
      };
      if (decoded.s !== scope) throw invalid();
      return decoded.p;
    },
  };
}
