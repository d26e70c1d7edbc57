import type { Actor } from '../../api/access/actor';
import type { Principal } from '../../api/access/principal';
import {
  isDocsPath,
  refusalOf,
  routeRequirement,
  SECURITY,
  unmarkedRequirement,
  type AuthRequirement,
} from '../../api/access/requirement';

const actor: Actor = {
  userId: 7,
  user: { address: null, matrixUserId: null, createdAt: new Date(0) },
  via: 'session',
  sessionId: '11111111-2222-3333-4444-555555555555',
  apiKey: null,
};
const PRINCIPALS: Record<Principal['kind'], Principal> = {
  anonymous: { kind: 'anonymous' },
  user: { kind: 'user', actor },
  internal: { kind: 'internal', label: 'abc' },
  bot: { kind: 'bot', label: 'def' },
};

const NEEDS_USER = 'This endpoint needs a session (cookie or Bearer token) or an API key';
const NEEDS_INTERNAL = 'This endpoint needs an internal service token';
const NEEDS_BOT = 'X-Service-Bot-Token: is missing or wrong';

/** requirement × principal → null (served) or [code, message]. */
const MATRIX: [AuthRequirement, Principal['kind'], [string, string] | null][] = [
  ['none', 'anonymous', null],
  ['none', 'user', null],
  ['public', 'anonymous', null],
  ['public', 'user', null],
  ['public', 'internal', null],
  ['user', 'user', null],
  ['user', 'anonymous', ['unauthenticated', NEEDS_USER]],
  ['user', 'internal', ['unauthenticated', NEEDS_USER]],
  ['user', 'bot', ['unauthenticated', NEEDS_USER]],
  ['internal', 'internal', null],
  ['internal', 'user', ['forbidden', 'This endpoint is for internal service tokens only']],
  ['internal', 'anonymous', ['unauthenticated', NEEDS_INTERNAL]],
  ['internal', 'bot', ['unauthenticated', NEEDS_INTERNAL]],
  ['bot', 'bot', null],
  ['bot', 'anonymous', ['unauthenticated', NEEDS_BOT]],
  ['bot', 'user', ['unauthenticated', NEEDS_BOT]],
  ['bot', 'internal', ['unauthenticated', NEEDS_BOT]],
];

describe('refusalOf', () => {
  it.each(MATRIX)('a %s route with a %s caller', (requirement, kind, expected) => {
    const refusal = refusalOf(requirement, PRINCIPALS[kind]);
    if (expected === null) {
      expect(refusal).toBeNull();
      return;
    }
    const [code, message] = expected;
    const status = code === 'forbidden' ? 403 : 401;
    expect(refusal).toMatchObject({ code, message, status, headers: {} });
  });
});

describe('the requirement of a route', () => {
  it('is what the route declares', () => {
    for (const declared of ['none', 'public', 'user', 'internal', 'bot'] as const) {
      expect(routeRequirement('/me', declared)).toBe(declared);
      expect(routeRequirement('/docs', declared)).toBe(declared);
    }
  });

  it('is user when the route declares nothing, none for the docs', () => {
    expect(routeRequirement('/me', undefined)).toBe('user');
    expect(routeRequirement('/healthz', undefined)).toBe('user');
    expect(routeRequirement('/docs', undefined)).toBe('none');
    expect(routeRequirement('/docs/*', undefined)).toBe('none');
    expect(routeRequirement('/openapi.json', undefined)).toBe('none');
  });

  it('is public for an unmarked request (404s, early routes), none under the docs', () => {
    expect(unmarkedRequirement('/no/such/path')).toBe('public');
    expect(unmarkedRequirement('/')).toBe('public');
    expect(unmarkedRequirement('')).toBe('public');
    expect(unmarkedRequirement('/docs/missing.js.map')).toBe('none');
    expect(unmarkedRequirement('/openapi.json')).toBe('none');
  });
});

describe('isDocsPath', () => {
  it.each(['/docs', '/docs/', '/docs/static/app.js', '/openapi.json'])('is open: %s', (path) =>
    expect(isDocsPath(path)).toBe(true),
  );

  it.each([
    '/doc',
    '/docsearch',
    '/docs.json',
    '/openapi.json/x',
    '/openapi.yaml',
    '/api/docs',
    '/',
    '/me',
    '/Docs',
  ])('is not: %s', (path) => expect(isDocsPath(path)).toBe(false));
});

describe('SECURITY', () => {
  it('documents each requirement with its schemes; none documents nothing', () => {
    expect(SECURITY.none).toBeUndefined();
    expect(SECURITY.public).toEqual([{}, { session: [] }, { bearer: [] }, { apiKey: [] }]);
    expect(SECURITY.user).toEqual([{ session: [] }, { bearer: [] }, { apiKey: [] }]);
    expect(SECURITY.internal).toEqual([{ internalToken: [] }]);
    expect(SECURITY.bot).toEqual([{ botToken: [] }]);
  });
});
