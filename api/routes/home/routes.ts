import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';
import { homeSchema, type Home } from './schemas';

/** The guides in the repository, for a developer who lands on `GET /`. */
export const GUIDES = [
  { path: 'README.md', about: 'Running the service, configuration, architecture' },
  { path: 'docs/payments.md', about: 'Subscriptions and FLOW top-ups, paying in development' },
  { path: 'docs/chain.md', about: 'Tokens on chain: launch contracts, the indexer, user state' },
  { path: 'docs/launch-walkthrough.md', about: 'Launching and trading a token from a wallet' },
  { path: 'docs/bot-gateway.md', about: 'The Matrix bot gateway, Matrix login, notifications' },
  { path: 'docs/decisions.md', about: 'What this service chose where the spec is silent' },
] as const;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function homePage(home: Home): string {
  const link = (href: string) => `<a href="${escape(href)}">${escape(href)}</a>`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escape(home.name)}</title></head><body>`,
    `<h1>${escape(home.name)} ${escape(home.version)}</h1>`,
    '<ul>',
    `<li>API reference: ${link(home.docs)}</li>`,
    `<li>OpenAPI document: ${link(home.openapi)}</li>`,
    `<li>Health: ${link(home.health)}, readiness: ${link(home.readiness)}</li>`,
    ...(home.faucet ? [`<li>Test FLOW: <code>${escape(home.faucet)}</code></li>`] : []),
    '</ul>',
    '<h2>Guides (in the repository)</h2>',
    '<ul>',
    ...home.guides.map(
      (guide) => `<li><code>${escape(guide.path)}</code>: ${escape(guide.about)}</li>`,
    ),
    '</ul>',
    '</body></html>',
    '',
  ].join('\n');
}

/** True when the client would rather have HTML than JSON (a browser's `Accept`). */
function wantsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = accept.indexOf('text/html');
  if (html === -1) return false;
  const json = accept.indexOf('application/json');
  return json === -1 || html < json;
}

/**
 * `GET /`: where to go from here, for a developer who opens the service's address. JSON by
 * default; a small HTML page when the client prefers `text/html` (a browser). No credentials,
 * no rate limit, like the documentation it points to.
 */
export const homeRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps; version: string }> = async (
  app,
  opts,
) => {
  const base = opts.deps.config.publicBaseUrl;
  const home: Home = {
    name: 'Agent platform API',
    version: opts.version,
    docs: `${base}/docs`,
    openapi: `${base}/openapi.json`,
    health: `${base}/healthz`,
    readiness: `${base}/readyz`,
    guides: GUIDES.map((guide) => ({ ...guide })),
    ...(opts.deps.config.env === 'production'
      ? {}
      : { faucet: `POST ${base}/dev/faucet {"amountFlow": 1000}` }),
  };
  const page = homePage(home);

  app.get(
    '/',
    {
      config: { auth: 'none' },
      schema: {
        summary: 'Where to start: links to the API reference, the OpenAPI document and guides',
        description:
          'JSON, or a small HTML page when `Accept` prefers `text/html`. No credentials read, ' +
          'no rate limit.',
        tags: ['health'],
        response: { 200: homeSchema },
      },
    },
    async (request, reply) => {
      reply.header('vary', 'accept');
      if (wantsHtml(request.headers.accept)) {
        // A string with its own content type is sent as is, not through the JSON schema.
        return reply.type('text/html; charset=utf-8').send(page as unknown as Home);
      }
      return home;
    },
  );
};
