import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import type ScalarReference from '@scalar/fastify-api-reference';

/**
 * The interactive reference at GET /docs: Scalar, served entirely by this server, reading the
 * document from /openapi.json, under a CSP of its own.
 */

const DOCS_PREFIX = '/docs';

/** What the reference page is configured with (its JSON is the page's one inline script). */
const SCALAR_CONFIGURATION = {
  url: '/openapi.json',
  pageTitle: 'Agent platform API reference',
  // Everything from this server: no web fonts, no Scalar cloud features, no telemetry.
  withDefaultFonts: false,
  showDeveloperTools: 'never',
  hideClientButton: true,
  agent: { disabled: true },
  mcp: { disabled: true },
  telemetry: false,
  documentDownloadType: 'json',
  operationTitleSource: 'summary',
  defaultOpenAllTags: false,
};

type ScalarPlugin = typeof ScalarReference;
type ScalarOptions = Parameters<ScalarPlugin>[1];

function scalarOptions(): ScalarOptions {
  return {
    routePrefix: DOCS_PREFIX,
    configuration: SCALAR_CONFIGURATION as ScalarOptions['configuration'],
  };
}

/** `'sha256-…'` of every inline script and style of a page. */
function inlineHashes(html: string): string[] {
  const inline = html.matchAll(/<(script|style)(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/\1>/g);
  return [...inline]
    .map(([, , body]) => body ?? '')
    .filter((body) => body.trim() !== '')
    .map((body) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
}

/**
 * The page's CSP, which replaces the API's `default-src 'none'` on everything under /docs
 * (api/plugins/security-headers.ts sets that one first). Scripts: this server's only, plus
 * the page's one inline script by its hash; the bundle's styles are injected at run time, so
 * styles may be inline. Data (the document, "Try it" requests) only from this origin.
 */
function docsCsp(scriptHashes: string[]): string {
  return [
    "default-src 'none'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * The reference page is the same for every request (its configuration is static): it is
 * rendered once by the plugin itself, on a throwaway instance, to hash its inline script.
 */
async function renderedPageHashes(scalar: ScalarPlugin): Promise<string[]> {
  const probe = Fastify({ logger: false });
  // The plugin's routes share one schema object, which the app's own plugins annotate (an
  // error envelope in zod): the probe serializes nothing by schema.
  probe.setSerializerCompiler(() => (data) => JSON.stringify(data));
  try {
    await probe.register(scalar, scalarOptions());
    const page = await probe.inject({ method: 'GET', url: `${DOCS_PREFIX}/` });
    if (page.statusCode !== 200) throw new Error(`reference page: HTTP ${page.statusCode}`);
    return inlineHashes(page.body);
  } finally {
    await probe.close();
  }
}

export async function docsRoutes(app: FastifyInstance): Promise<void> {
  // ESM-only package: loaded with import(), which any Node 20 can do from CommonJS.
  const { default: scalar } = await import('@scalar/fastify-api-reference');
  const csp = docsCsp(await renderedPageHashes(scalar));
  const scriptPath = `${DOCS_PREFIX}/js/scalar.js`;
  let gzipped: Promise<Buffer> | undefined;

  // Encapsulated: the hook covers the reference's routes (the plugin is not encapsulated).
  await app.register(async (docs) => {
    docs.addHook('onSend', async (request, reply, payload) => {
      reply.header('content-security-policy', csp);
      // The bundle is 4.9 MB, 1.4 MB gzipped: compressed once, cached by the browser an hour.
      if (request.routeOptions.url !== scriptPath || reply.statusCode !== 200) return payload;
      reply.header('cache-control', 'public, max-age=3600');
      const vary = reply.getHeader('vary');
      reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
      if (
        typeof payload !== 'string' ||
        !/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')
      ) {
        return payload;
      }
      gzipped ??= promisify(gzip)(payload);
      reply.header('content-encoding', 'gzip');
      return gzipped;
    });
    await docs.register(scalar, scalarOptions());
  });
}
