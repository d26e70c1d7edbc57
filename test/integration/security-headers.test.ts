import { createHash } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { createKey, signIn } from '../helpers/auth';
import { useTestApp } from '../helpers/context';

/**
 * What every response tells a browser: static security headers, the API reference under a CSP that
 * covers every inline script and style it ships, HSTS only over HTTPS, and CORS as an
 * allow-list whose preflights read no credential and count against no rate limit.
 */

const ALLOWED = 'https://app.example';
const test = useTestApp({
  env: {
    CORS_ORIGINS: `${ALLOWED},http://localhost:5173`,
    TRUST_PROXY: 'true',
    RATE_LIMIT_ANONYMOUS_RPM: '5',
  },
});

/** A fresh client address per request, so the low anonymous limit only bites where meant. */
let clients = 0;
function inject(request: InjectOptions) {
  return test.app.inject({
    ...request,
    headers: { 'x-forwarded-for': `198.51.100.${++clients % 250}`, ...request.headers },
  });
}

const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function expectSecurityHeaders(headers: Record<string, unknown>, csp = API_CSP) {
  expect(headers).toMatchObject({
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'content-security-policy': csp,
  });
}

describe('security headers', () => {
  it('are on every response: success, client errors, unknown routes, the error handler', async () => {
    const session = await signIn(test.app);
    const { key } = await createKey(test.app, session);
    const requests = [
      { method: 'GET', url: '/healthz' },
      { method: 'GET', url: '/me', headers: { 'x-api-key': key } },
      { method: 'GET', url: '/me' },
      { method: 'GET', url: '/no/such/route' },
      { method: 'DELETE', url: '/healthz' },
      { method: 'POST', url: '/me/api-keys', headers: { cookie: session.cookie }, payload: '{' },
    ] as const;
    const statuses = [];
    for (const request of requests) {
      const response = await inject({
        ...request,
        headers: {
          ...(request.method === 'POST' ? { 'content-type': 'application/json' } : {}),
          ...('headers' in request ? request.headers : {}),
        },
      });
      statuses.push(response.statusCode);
      expectSecurityHeaders(response.headers);
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
    expect(statuses).toEqual([200, 200, 401, 404, 405, 400]);
  });

  it('add HSTS only to requests that came over HTTPS', async () => {
    const response = await inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(response.headers['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
  });

  it('let the API reference run: its assets are its own (self), inline code only with a listed hash', async () => {
    const page = await inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).not.toBe(API_CSP);
    expect(csp).toMatch(/script-src 'self'/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const inline = [...page.body.matchAll(/<(script|style)(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/\1>/g)];
    expect(csp).not.toMatch(/upgrade-insecure-requests/);
    // Inline code runs only when its hash is listed (the page ships none today).
    for (const [, tag, body] of inline) {
      if (!body?.trim()) continue;
      const hash = `'sha256-${createHash('sha256').update(body).digest('base64')}'`;
      expect({ tag, listed: csp.includes(hash) }).toEqual({ tag, listed: true });
    }
    // Everything else it loads is its own ('self'), and is there.
    const assets = [...page.body.matchAll(/<(?:script|link)[^>]*\b(?:src|href)="([^"]+)"/g)].map(
      ([, url]) => url!,
    );
    // Scalar: one bundle, served by this server (api/openapi/reference.ts).
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      const url = new URL(asset, 'http://localhost/docs/').pathname;
      const response = await inject({ method: 'GET', url });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 200 });
      expect(response.headers['content-security-policy']).toBe(csp);
    }
  });
});

describe('CORS', () => {
  function preflight(origin: string, method = 'POST') {
    return inject({
      method: 'OPTIONS',
      url: '/me/api-keys',
      headers: {
        origin,
        'access-control-request-method': method,
        'access-control-request-headers': 'content-type, x-api-key, idempotency-key',
      },
    });
  }

  it('answers a preflight from a listed origin, with credentials and the allowed headers', async () => {
    const response = await preflight(ALLOWED);
    expect(response.statusCode).toBe(204);
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': ALLOWED,
      'access-control-allow-credentials': 'true',
      'access-control-allow-headers': 'content-type, x-api-key, idempotency-key',
      'access-control-max-age': '600',
    });
    expect(String(response.headers['access-control-allow-methods'])).toContain('PATCH');
  });

  it('does not allow an origin off the list', async () => {
    for (const origin of ['https://evil.example', 'https://app.example.evil.example', 'null']) {
      const response = await preflight(origin);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      const get = await inject({ method: 'GET', url: '/healthz', headers: { origin } });
      expect(get.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('lets a listed origin read the API headers of an actual response', async () => {
    const response = await inject({
      method: 'GET',
      url: '/marketplace/agents',
      headers: { origin: ALLOWED },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(response.headers.vary).toMatch(/origin/i);
    const exposed = String(response.headers['access-control-expose-headers'])
      .split(',')
      .map((name) => name.trim());
    expect(exposed).toEqual(expect.arrayContaining(['x-request-id', 'x-ratelimit-remaining']));
  });

  it('preflights read no credential and count against no rate limit', async () => {
    // The anonymous limit is 5 a minute: 20 preflights with a broken key are all answered.
    for (let i = 0; i < 20; i++) {
      const response = await inject({
        method: 'OPTIONS',
        url: '/ledger',
        headers: {
          origin: ALLOWED,
          'access-control-request-method': 'GET',
          'x-api-key': 'broken',
          'x-forwarded-for': '203.0.113.9',
        },
      });
      expect(response.statusCode).toBe(204);
    }
    const first = await inject({
      method: 'GET',
      url: '/marketplace/agents',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('4');
  });

  it('leaves unknown paths 404 and known ones 405 for other methods', async () => {
    const unknown = await inject({ method: 'GET', url: '/nowhere' });
    expect(unknown.statusCode).toBe(404);
    const wrongMethod = await inject({ method: 'PUT', url: '/healthz' });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
  });
});
