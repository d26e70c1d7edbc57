import cors from '@fastify/cors';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/**
 * What every response tells a browser (docs/decisions.md "Wire"), and CORS.
 *
 * Security headers: the same static set on every response, added in one synchronous hook (a
 * JSON API needs no per-request policy): no MIME sniffing, no referrer, never framed, and a
 * CSP that lets a JSON or SSE response load nothing. `/docs` replaces the CSP with the API
 * reference's own (its scripts from this server, its inline script by hash:
 * api/openapi/reference.ts). HSTS goes
 * only on requests that arrived over HTTPS (directly or, with TRUST_PROXY, at the proxy).
 *
 * CORS: an allow-list of exact origins (`CORS_ORIGINS`), empty by default, so no origin is
 * allowed until configured. Preflights are answered in the CORS hook, registered before
 * authentication, so they read no credential and count against no rate limit; a preflight
 * from an origin not on the list gets its 204 without `Access-Control-Allow-Origin`, which
 * the browser reports as refused.
 */

export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'cross-origin-resource-policy': 'same-site',
};
const HSTS = 'max-age=31536000; includeSubDomains';

/** Response headers a browser script may read (the rest of the API's own headers). */
const EXPOSED = [
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'x-flow-cost',
  'x-flow-period-limit',
  'x-flow-period-used',
  'x-flow-period-reset',
  'x-spend-limit',
  'x-spend-remaining',
  'content-disposition',
  'idempotent-replayed',
  'deprecation',
  'link',
  'location',
  'etag',
];

async function securityHeadersPlugin(
  app: FastifyInstance,
  opts: { corsOrigins: string[] },
): Promise<void> {
  // onSend, so responses sent from an earlier hook (a refused method, a rate limit) get them too.
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.headers(SECURITY_HEADERS);
    if (request.protocol === 'https') void reply.header('strict-transport-security', HSTS);
    done(null, payload);
  });
  await app.register(cors, {
    origin: opts.corsOrigins,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: EXPOSED,
    maxAge: 600,
    // A bare OPTIONS (no Origin) is answered too, rather than as text/plain 400.
    strictPreflight: false,
  });
}

export default fp(securityHeadersPlugin, { name: 'security-headers', fastify: '5.x' });
