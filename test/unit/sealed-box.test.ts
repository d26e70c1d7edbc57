import { createHmac } from 'node:crypto';
import { createSealedBox } from '../../shared/domain/sealed-box';
import { deriveServerKey } from '../../shared/domain/server-keys';

const SECRET = 'a-server-secret-of-at-least-32-characters';
const CONTEXT = ['record-1', 'user:7', 'POST', '/me/api-keys', 'key-1'];
const PLAINTEXT = '{"key":"svc_live_' + '0123456789abcdef'.repeat(4) + '"}';

describe('server keys', () => {
  it('keeps the pagination cursor key it always had (issued cursors stay valid)', () => {
    const before = createHmac('sha256', SECRET).update('pagination-cursor-v1').digest();
    expect(deriveServerKey(SECRET, 'paginationCursor').equals(before)).toBe(true);
  });

  it('gives each purpose and each secret its own 32-byte key', () => {
    const response = deriveServerKey(SECRET, 'idempotencyResponse');
    expect(response).toHaveLength(32);
    expect(response.equals(deriveServerKey(SECRET, 'paginationCursor'))).toBe(false);
    expect(response.equals(deriveServerKey(`${SECRET}!`, 'idempotencyResponse'))).toBe(false);
  });
});

describe('sealed box', () => {
  const box = createSealedBox(deriveServerKey(SECRET, 'idempotencyResponse'));

  it('opens what it sealed under the same context', () => {
    const sealed = box.seal(PLAINTEXT, CONTEXT);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('svc_live_');
    expect(box.open(sealed, CONTEXT)).toBe(PLAINTEXT);
    expect(box.open(box.seal('', CONTEXT), CONTEXT)).toBe('');
  });

  it('uses a fresh IV for every value', () => {
    const sealed = new Set(Array.from({ length: 50 }, () => box.seal(PLAINTEXT, CONTEXT)));
    expect(sealed.size).toBe(50);
    const ivs = new Set(
      [...sealed].map((s) => Buffer.from(s.slice(3), 'base64url').toString('hex', 0, 12)),
    );
    expect(ivs.size).toBe(50);
  });

  it('refuses every edited byte', () => {
    const bytes = Buffer.from(box.seal(PLAINTEXT, CONTEXT).slice(3), 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const edited = Buffer.from(bytes);
      edited[i] = edited[i]! ^ 0x80;
      expect(box.open(`v1.${edited.toString('base64url')}`, CONTEXT)).toBeNull();
    }
  });

  it.each([
    ['another record', ['record-2', ...CONTEXT.slice(1)]],
    ['another principal', ['record-1', 'user:8', ...CONTEXT.slice(2)]],
    ['another method', ['record-1', 'user:7', 'PATCH', ...CONTEXT.slice(3)]],
    ['another path', ['record-1', 'user:7', 'POST', '/agents', 'key-1']],
    ['another Idempotency-Key', [...CONTEXT.slice(0, 4), 'key-2']],
    ['parts split differently', ['record-1user:7', 'POST', '/me/api-keys', 'key-1']],
  ])('refuses a value opened for %s', (_name, context) => {
    expect(box.open(box.seal(PLAINTEXT, CONTEXT), context)).toBeNull();
  });

  it('refuses a value sealed under another server secret', () => {
    const other = createSealedBox(deriveServerKey(`${SECRET}-rotated`, 'idempotencyResponse'));
    expect(box.open(other.seal(PLAINTEXT, CONTEXT), CONTEXT)).toBeNull();
  });

  it.each([
    ['plaintext', PLAINTEXT],
    ['an empty string', ''],
    ['the prefix alone', 'v1.'],
    ['too short to hold an IV and a tag', `v1.${Buffer.alloc(27).toString('base64url')}`],
    ['another format version', `v2.${box.seal(PLAINTEXT, CONTEXT).slice(3)}`],
  ])('refuses %s', (_name, value) => {
    expect(box.open(value, CONTEXT)).toBeNull();
  });

  it('needs a 32-byte key', () => {
    expect(() => createSealedBox(Buffer.alloc(16))).toThrow('32-byte key');
  });
});
