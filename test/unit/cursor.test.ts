import { createCursorCodec } from '../../shared/domain/cursor';
import { AppError } from '../../shared/errors';

describe('cursor codec', () => {
  const codec = createCursorCodec('a-server-secret-of-at-least-32-characters');

  it('round-trips a position within its scope', () => {
    const cursor = codec.encode('tokens:{}', ['2026-11-22T10:00:00.000Z', 'id-1']);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(codec.decode('tokens:{}', cursor)).toEqual(['2026-11-22T10:00:00.000Z', 'id-1']);
  });

  it.each([
    ['another scope', (c: string) => c, 'agents:{}'],
    ['a flipped payload byte', (c: string) => `B${c.slice(1)}`, 'tokens:{}'],
    ['a dropped signature', (c: string) => c.split('.')[0]!, 'tokens:{}'],
    ['an extra segment', (c: string) => `${c}.x`, 'tokens:{}'],
    [
      'a signature from another secret',
      () => createCursorCodec('another-secret-of-at-least-32-characters').encode('tokens:{}', 1),
      'tokens:{}',
    ],
  ])('refuses %s with invalid_cursor', (_name, tamper, scope) => {
    const cursor = tamper(codec.encode('tokens:{}', ['x']));
    expect(() => codec.decode(scope, cursor)).toThrow(AppError);
    try {
      codec.decode(scope, cursor);
    } catch (err) {
      expect((err as AppError).code).toBe('invalid_cursor');
      expect((err as AppError).status).toBe(400);
    }
  });
});
