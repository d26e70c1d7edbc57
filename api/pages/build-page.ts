import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { runArtifactUrl } from '../../shared/projects/urls';
import type { Actor } from '../access/actor';
import type { ApiDeps } from '../deps';
import { errors } from '../openapi/errors';
import { projectNotFound } from '../routes/projects/access';
import { projectBySlug, type ProjectRow } from '../routes/projects/queries';
import { looksLikeSlug, slugParams } from '../wire';

/**
 * The live build page of a project, `GET /p/:slug`: plain HTML with a small script of its own
 * (`assets/build-page.js`, no framework) that follows the project's SSE stream with
 * `EventSource` and shows the build's plan, tool calls, messages, commits and final status as
 * they happen. The page carries only what a viewer of `GET /projects/:slug` may see, and a
 * private project's page exists for its owner's session only: anyone else (anonymous or not)
 * gets the same 404 `project_not_found` as a slug that does not exist.
 *
 * Its script and stylesheet are served under `/p/assets/` with their content hash in the
 * name (cached for a year). The page's CSP allows exactly those (`'self'`) and same-origin
 * connections (the stream); no inline script or style, and Trusted Types are required, so the
 * script can only ever write text into the page.
 */

const ASSET_DIR = join(__dirname, 'assets');

interface Asset {
  name: string;
  contentType: string;
  body: string;
}

/** `build-page.js` becomes `build-page.<hash>.js`: a changed file is a new URL. */
function loadAsset(file: string, contentType: string): Asset {
  const body = readFileSync(join(ASSET_DIR, file), 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const dot = file.lastIndexOf('.');
  return { name: `${file.slice(0, dot)}.${hash}${file.slice(dot)}`, contentType, body };
}

export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const html = String.raw;

function escape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}

/** Who may open the page: the API's own rule for metadata, but never a 401 that says "exists". */
function assertPageVisible(row: ProjectRow | undefined, slug: string, actor: Actor | null) {
  if (!row || (row.private && row.ownerId !== actor?.userId)) throw projectNotFound(slug);
  return row;
}

interface PageAssets {
  script: Asset;
  style: Asset;
}

/**
 * The page; `viewerOwns` adds the owner's Approve and Reject buttons to waiting requests (the
 * API decides who may press them: the buttons only save the owner a curl).
 */
export function renderBuildPage(
  row: ProjectRow,
  assets: PageAssets,
  publicBaseUrl: string,
  viewerOwns = false,
): string {
  const slug = escape(row.slug);
  const streamPath = `/projects/${slug}/stream`;
  const runLine = row.runId
    ? html`<div>
        <dt>Current run</dt>
        <dd>
          <code title="${escape(row.runId)}">${escape(row.runId.slice(0, 8))}</code>${
            row.runStartedAt
              ? html`, started
                  <time datetime="${escape(row.runStartedAt)}"
                    >${escape(row.runStartedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))}</time
                  >`
              : ''
          }${
            row.runHasArtifact
              ? html`;
                  <a href="${escape(runArtifactUrl(publicBaseUrl, row.slug, row.runId))}"
                    >download its last commit</a
                  >
                  (tar.gz)`
              : ''
          }
        </dd>
      </div>`
    : '';
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        ${row.private ? '<meta name="robots" content="noindex" />' : ''}
        <title>${escape(row.title)} · live build</title>
        <link rel="stylesheet" href="/p/assets/${assets.style.name}" />
        <script src="/p/assets/${assets.script.name}" defer></script>
      </head>
      <body>
        <header class="page-header">
          <p class="eyebrow">Live build${row.private ? ' · private' : ''}</p>
          <h1>${escape(row.title)}</h1>
          <p class="brief">${escape(row.brief)}</p>
          <dl class="facts">
            <div>
              <dt>Status</dt>
              <dd>
                <span id="project-status" class="status" data-status="${escape(row.status)}"
                  >${escape(row.status.replace(/_/g, ' '))}</span
                >
              </dd>
            </div>
            <div>
              <dt>Token</dt>
              <dd><code>${escape(row.tokenSlug)}</code></dd>
            </div>
            <div>
              <dt>Agent</dt>
              <dd>${escape(row.agentTemplate)}</dd>
            </div>
            ${runLine}
            <div>
              <dt>Live updates</dt>
              <dd><span id="connection" role="status">Starting…</span></dd>
            </div>
          </dl>
        </header>
        <main
          id="build"
          data-project-id="${escape(row.id)}"
          data-slug="${slug}"
          data-status="${escape(row.status)}"
          data-run-id="${escape(row.runId ?? '')}"
          data-last-event-id="${escape(row.lastEventSeq)}"
          data-stream-url="${streamPath}"
          data-owner="${viewerOwns ? 'true' : 'false'}"
        >
          <section class="final" aria-labelledby="final-heading">
            <h2 id="final-heading">Final status</h2>
            <p id="final-status" data-final-status="" aria-live="polite">Not finished yet.</p>
          </section>
          <section class="approvals" aria-labelledby="approvals-heading">
            <h2 id="approvals-heading">Approvals</h2>
            <p class="empty" data-empty-for="approvals">Nothing has waited for approval.</p>
            <ol id="approvals" class="approvals-list" aria-live="polite"></ol>
          </section>
          <div class="columns">
            <section aria-labelledby="plan-heading">
              <h2 id="plan-heading">Plan</h2>
              <p id="plan-revision" class="empty">No plan yet.</p>
              <ol id="plan" class="plan"></ol>
            </section>
            <section aria-labelledby="messages-heading">
              <h2 id="messages-heading">Messages</h2>
              <p class="empty" data-empty-for="messages">No messages yet.</p>
              <ol id="messages" class="messages"></ol>
            </section>
            <section aria-labelledby="tools-heading">
              <h2 id="tools-heading">Tool calls</h2>
              <p class="empty" data-empty-for="tool-calls">No tool calls yet.</p>
              <ol id="tool-calls" class="tool-calls"></ol>
            </section>
            <section aria-labelledby="commits-heading">
              <h2 id="commits-heading">Commits</h2>
              <p class="empty" data-empty-for="commits">No commits yet.</p>
              <ol id="commits" class="commits"></ol>
            </section>
          </div>
          <section aria-labelledby="events-heading">
            <h2 id="events-heading">Event log</h2>
            <p id="event-count" class="muted">No events yet.</p>
            <div
              class="event-log"
              role="log"
              aria-live="polite"
              aria-relevant="additions"
              aria-labelledby="events-heading"
              tabindex="0"
            >
              <ol id="events" class="events"></ol>
            </div>
          </section>
          <noscript>
            <p>
              This page shows the build live with JavaScript. Without it, read the event stream at
              <a href="${streamPath}">${streamPath}</a>.
            </p>
          </noscript>
        </main>
        <footer>
          <p>
            Data: <a href="/projects/${slug}">/projects/${slug}</a> (JSON) ·
            <a href="${streamPath}">${streamPath}</a> (Server-Sent Events) ·
            <a href="/docs">API docs</a>
          </p>
        </footer>
      </body>
    </html> `;
}

const pageDescription =
  'The project’s live build page (HTML, for browsers): title, status, and the build’s plan, ' +
  'tool calls, messages, commits and final status, live from `GET /projects/{slug}/stream` ' +
  '(its script resumes after a reload from the last event it showed, with `lastEventId`). ' +
  'A private project’s page is for its owner’s session only: anyone else gets 404 ' +
  '`project_not_found`, as for a slug that does not exist. The `pageUrl` of a project view ' +
  'links here.';

/** `GET /p/:slug` and its two static assets (registered from api/app.ts). */
export const buildPageRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const { db, config } = opts.deps;
  const assets: PageAssets = {
    script: loadAsset('build-page.js', 'text/javascript; charset=utf-8'),
    style: loadAsset('build-page.css', 'text/css; charset=utf-8'),
  };
  const byName = new Map([assets.script, assets.style].map((asset) => [asset.name, asset]));

  app.get(
    '/p/:slug',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'A project’s live build page (HTML)',
        description: pageDescription,
        tags: ['projects'],
        params: slugParams,
        errors: errors('project_not_found'),
        response: {
          200: {
            description: 'The page',
            content: { 'text/html': { schema: z.string().describe('An HTML document') } },
          },
        },
      },
      // After the API's own CSP (security-headers: `default-src 'none'`), on the page only.
      onSend: (request, reply, payload, done) => {
        if (reply.statusCode === 200) void reply.header('content-security-policy', PAGE_CSP);
        done(null, payload);
      },
    },
    async (request, reply) => {
      const { slug } = request.params;
      // Anything that cannot be a slug (a NUL byte, say) never reaches PostgreSQL.
      const found = looksLikeSlug(slug) ? await db.row(projectBySlug, [slug]) : undefined;
      const row = assertPageVisible(found, slug, request.actor);
      const viewerOwns = request.actor?.userId === row.ownerId;
      return (
        reply
          .header('content-type', 'text/html; charset=utf-8')
          // The owner's page has buttons nobody else's has: never from a shared cache.
          .header(
            'cache-control',
            row.private ? 'private, no-store' : viewerOwns ? 'private, no-cache' : 'no-cache',
          )
          .header('vary', 'cookie, authorization')
          .send(renderBuildPage(row, assets, config.publicBaseUrl, viewerOwns))
      );
    },
  );

  app.get(
    '/p/assets/:file',
    {
      config: { auth: 'none' },
      schema: {
        summary: 'The build page’s script or stylesheet',
        description:
          'Named with a hash of their content, as the page links them; cached for a year.',
        tags: ['projects'],
        params: z.object({ file: z.string().max(64).describe('The asset’s name') }),
        response: {
          200: {
            description: 'The asset',
            content: {
              'text/javascript': { schema: z.string() },
              'text/css': { schema: z.string() },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const asset = byName.get(request.params.file);
      if (!asset) throw new AppError('not_found', `asset ${request.params.file} does not exist`);
      return reply
        .header('content-type', asset.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(asset.body);
    },
  );
};
