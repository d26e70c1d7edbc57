import type { LightMyRequestResponse } from 'fastify';
import { useTestApp } from '../helpers/context';

/**
 * The interactive reference (`/docs`, its assets) and `/openapi.json` are open to everyone:
 * no credential is read and nothing counts against the anonymous rate limit, whichever
 * renderer serves them and in whatever order its plugin is registered (api/plugins/auth.ts).
 * The app runs with the default anonymous limit (RATE_LIMIT_ANONYMOUS_RPM, 30 per minute).
 */

const test = useTestApp();
const CLIENT_IP = '198.51.100.23';
const PAGE_LOADS = 40;

function get(url: string, headers: Record<string, string> = {}) {
  return test.app.inject({ method: 'GET', url, headers, remoteAddress: CLIENT_IP });
}

/** GET /docs the way a browser does: following redirects to the page itself. */
async function loadPage(headers: Record<string, string> = {}) {
  let url = '/docs';
  let response = await get(url, headers);
  for (let hops = 0; hops < 5 && response.statusCode >= 300 && response.statusCode < 400; hops++) {
    url = new URL(String(response.headers.location), `http://localhost${url}`).pathname;
    response = await get(url, headers);
  }
  return { url, response };
}

/** Every same-origin script, style and image the page names, as paths. */
function assetsOf(html: string, pageUrl: string): string[] {
  const named = [...html.matchAll(/\b(?:src|href)="([^"#]+)"/g)].map(([, ref]) => ref!);
  const paths = named
    .map((ref) => new URL(ref, `http://localhost${pageUrl}`))
    .filter((url) => url.host === 'localhost')
    .map((url) => url.pathname + url.search);
  return [...new Set(paths)];
}

function expectUncounted(response: LightMyRequestResponse, url: string) {
  expect({ url, status: response.statusCode }).not.toEqual({ url, status: 429 });
  expect({ url, limit: response.headers['x-ratelimit-limit'] }).toEqual({ url, limit: undefined });
}

describe('the documentation and the anonymous rate limit', () => {
  it('runs on the default anonymous limit', () => {
    expect(test.ctx.config.rateLimits.anonymous).toBe(30);
  });

  it(`serves /docs, its assets and /openapi.json ${PAGE_LOADS} times over from one IP without a 429`, async () => {
    const first = await loadPage();
    expect(first.response.statusCode).toBe(200);
    expect(first.response.headers['content-type']).toMatch(/text\/html/);
    const assets = assetsOf(first.response.body, first.url);
    expect(assets.length).toBeGreaterThan(0);
    const urls = ['/docs', first.url, ...assets, '/openapi.json'];

    let requests = 0;
    for (let load = 0; load < PAGE_LOADS; load++) {
      const responses = await Promise.all(urls.map((url) => get(url)));
      responses.forEach((response, i) => {
        expectUncounted(response, urls[i]!);
        // Redirects and the page, its assets and the document: all there.
        expect({ url: urls[i], status: response.statusCode < 400 }).toEqual({
          url: urls[i],
          status: true,
        });
      });
      requests += responses.length;
    }
    expect(requests).toBeGreaterThan(3 * 30);

    // None of it was counted: the IP's first counted request still has the whole minute.
    const counted = await test.app.inject({
      method: 'POST',
      url: '/auth/nonce',
      remoteAddress: CLIENT_IP,
    });
    expect(counted.statusCode).toBe(200);
    expect(counted.headers['x-ratelimit-limit']).toBe('30');
    expect(Number(counted.headers['x-ratelimit-remaining'])).toBeGreaterThanOrEqual(28);
  });

  it('reads no credential there: a bad key or token changes nothing', async () => {
    const credentials: Record<string, string>[] = [
      { 'x-api-key': 'svc_live_not-a-key' },
      { authorization: 'Bearer not-a-session' },
      { authorization: 'Basic Zm9vOmJhcg==' },
      { cookie: 'svc_session=stale' },
    ];
    for (const headers of credentials) {
      const { response } = await loadPage(headers);
      expect(response.statusCode).toBe(200);
      const document = await get('/openapi.json', headers);
      expect(document.statusCode).toBe(200);
      expectUncounted(document, '/openapi.json');
    }
  });

  it('does not count a missing file under /docs either (a browser asks for source maps)', async () => {
    for (let i = 0; i < 35; i++) {
      const url = `/docs/no-such-asset-${i}.js.map`;
      const response = await get(url);
      expect(response.statusCode).toBe(404);
      expectUncounted(response, url);
    }
  });

  it('still counts everything else that is anonymous', async () => {
    const response = await test.app.inject({
      method: 'GET',
      url: '/no-such-route',
      remoteAddress: '198.51.100.24',
    });
    expect(response.statusCode).toBe(404);
    expect(response.headers['x-ratelimit-limit']).toBe('30');
  });
});
