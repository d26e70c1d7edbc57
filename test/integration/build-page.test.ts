import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { PAGE_CSP } from '../../api/pages/build-page';
import { launchChromium } from '../../scripts/chromium';
import { signIn, type SignedIn } from '../helpers/auth';
import {
  insertBuildFixture,
  projectEvents,
  startBuild,
  type BuildFixture,
} from '../helpers/build-fixtures';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { SseClient } from '../helpers/sse-client';

/**
 * The live build page, GET /p/:slug, in a real headless Chromium (playwright-core, the
 * system's browser: scripts/chromium.ts) against the API listening on a real port, with real
 * builds run by the worker. What the page shows must be exactly the project's stream: the same
 * ids and types in the same order, across a reload in the middle of the build (resumed with
 * `lastEventId`, nothing twice, nothing lost). A private project's page works with its owner's
 * session cookie in the browser and is 404 for anyone else. No Chromium is a failure, not a
 * skip (CI installs it).
 */

/** Slow enough to watch (and reload) a build in the middle, fast enough for a test. */
const PACE_MS = 200;
const BUILD_TIMEOUT_MS = 60_000;

let browser: Browser;
let owner: SignedIn;
let stranger: SignedIn;
const contexts: BrowserContext[] = [];

// First: without a browser nothing here can pass, and it should say why straight away.
beforeAll(async () => {
  browser = await launchChromium();
}, 120_000);
const test = useTestApp({
  env: { ...UNLIMITED_RATES, SSE_RETRY_MS: '200' },
  listen: true,
  worker: true,
});
beforeAll(async () => {
  owner = await signIn(test.app);
  stranger = await signIn(test.app);
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => browser?.close());

interface ShownEvent {
  id: number;
  type: string;
}

/** A fresh browser profile (no cookies, no storage), with the session of `who` if given. */
async function browserContext(who?: SignedIn): Promise<BrowserContext> {
  const context = await browser.newContext();
  contexts.push(context);
  if (who) {
    // The cookie as POST /auth/verify sets it (api/access/session-tokens.ts).
    await context.addCookies([
      {
        name: 'svc_session',
        value: who.token,
        url: test.url,
        httpOnly: true,
        secure: true,
        sameSite: 'Lax',
      },
    ]);
  }
  return context;
}

interface Watched {
  page: Page;
  /** Page errors, console errors and CSP violations. */
  problems: string[];
  /** URLs of the page's stream connections, in order. */
  streams: string[];
}

async function watch(context: BrowserContext): Promise<Watched> {
  const page = await context.newPage();
  const problems: string[] = [];
  const streams: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('request', (request: Request) => {
    if (new URL(request.url()).pathname.endsWith('/stream')) streams.push(request.url());
  });
  return { page, problems, streams };
}

function pageUrl(slug: string): string {
  return `${test.url}/p/${slug}`;
}

/** The event log as the page shows it (evaluated in the page: this file has no DOM types). */
function shownEvents(page: Page): Promise<ShownEvent[]> {
  return page.evaluate<ShownEvent[]>(
    `[...document.querySelectorAll('#events li')].map((item) => ({
      id: Number(item.dataset.eventId),
      type: item.dataset.eventType,
    }))`,
  );
}

async function waitForConnection(page: Page, text: string): Promise<void> {
  await page.waitForSelector(`#connection:text-is("${text}")`, { timeout: BUILD_TIMEOUT_MS });
}

async function waitForFinalStatus(page: Page, status = 'completed'): Promise<void> {
  await page.waitForSelector(`#final-status[data-final-status="${status}"]`, {
    timeout: BUILD_TIMEOUT_MS,
  });
}

/** What the API streams for the project, read from the SSE endpoint from the start. */
async function streamedEvents(slug: string, cookie?: string): Promise<ShownEvent[]> {
  const client = await SseClient.connect(
    `${test.url}/projects/${slug}/stream`,
    cookie ? { cookie } : {},
  );
  expect(client.status).toBe(200);
  await client.done;
  return client.events.map((event) => ({ id: Number(event.id), type: event.event }));
}

async function storedEvents(fixture: BuildFixture): Promise<ShownEvent[]> {
  return (await projectEvents(test.ctx, fixture.projectId)).map((event) => ({
    id: event.seq,
    type: event.type,
  }));
}

const lastEventIdOf = (url: string) => new URL(url).searchParams.get('lastEventId');

describe('the build page', () => {
  it('shows a real build live, as streamed, and resumes after a reload without a gap or a duplicate', async () => {
    const fixture = await insertBuildFixture(test.ctx, { title: 'Holder dashboard <live>' });
    const { page, problems, streams } = await watch(await browserContext());

    const response = await page.goto(pageUrl(fixture.slug));
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(response?.headers()['content-security-policy']).toBe(PAGE_CSP);
    expect(response?.headers()['cache-control']).toBe('no-cache');
    // The title as text (escaped by the server), the status before the run starts.
    await expect(page.title()).resolves.toBe('Holder dashboard <live> · live build');
    expect(await page.textContent('h1')).toBe('Holder dashboard <live>');
    expect(await page.textContent('#project-status')).toBe('queued');
    expect(await page.textContent('#final-status')).toBe('Not finished yet.');
    // Accessible structure: landmarks, headings and a live event log.
    expect(await page.locator('main').count()).toBe(1);
    expect(await page.locator('[role="log"][aria-live="polite"] #events').count()).toBe(1);
    await waitForConnection(page, 'Live');

    await startBuild(test.ctx, fixture, PACE_MS);
    await page.waitForSelector('#events li:nth-child(4)', { timeout: BUILD_TIMEOUT_MS });
    const beforeReload = await shownEvents(page);
    expect(await page.textContent('#project-status')).toBe('running');

    // A full reload in the middle of the build: the page shows what it had, then only newer.
    await page.reload();
    const restored = await shownEvents(page);
    expect(restored.slice(0, beforeReload.length)).toEqual(beforeReload);
    await waitForFinalStatus(page);

    const shown = await shownEvents(page);
    const stored = await storedEvents(fixture);
    expect(stored.at(-1)?.type).toBe('done');
    expect(shown).toEqual(stored);
    expect(shown).toEqual(await streamedEvents(fixture.slug));
    // The first connection replayed from the start; the one after the reload resumed from the
    // last event the page had shown, by the query parameter (EventSource cannot set a header).
    expect(streams.length).toBe(2);
    expect(lastEventIdOf(streams[0]!)).toBeNull();
    const resumedFrom = Number(lastEventIdOf(streams[1]!));
    expect(resumedFrom).toBeGreaterThanOrEqual(beforeReload.at(-1)!.id);
    // Mid-build: the run went on after the reload.
    expect(resumedFrom).toBeLessThan(shown.at(-1)!.id);

    // The sections follow the events.
    expect(await page.textContent('#project-status')).toBe('completed');
    expect(await page.textContent('#final-status')).toBe(
      `Completed: run ${fixture.runId.slice(0, 8)} is over.`,
    );
    expect(await page.textContent('#connection')).toBe('Finished: the run is over.');
    const count = (type: string) => stored.filter((event) => event.type === type).length;
    expect(await page.locator('#plan li').count()).toBeGreaterThan(0);
    expect(await page.locator('#tool-calls > li').count()).toBe(count('tool_call'));
    expect(await page.locator('#commits > li').count()).toBe(count('commit'));
    expect(await page.locator('#messages > li').count()).toBe(
      count('message') + count('error') + count('screenshot'),
    );
    expect(count('commit')).toBeGreaterThan(0);
    const firstCommit = (await projectEvents(test.ctx, fixture.projectId)).find(
      (event) => event.type === 'commit',
    );
    expect(await page.textContent('#commits > li:first-child code.sha')).toBe(
      firstCommit!.data.sha!.slice(0, 7),
    );
    expect(await page.locator('.result', { hasText: 'waiting' }).count()).toBe(0);

    // Reloaded after the end: everything from the tab's storage, no stream needed.
    await page.reload();
    await waitForFinalStatus(page);
    expect(await shownEvents(page)).toEqual(stored);
    expect(streams.length).toBe(2);
    expect(problems).toEqual([]);
  });

  it('replays a finished build to a new visitor, who sees the same events', async () => {
    const fixture = await insertBuildFixture(test.ctx);
    await startBuild(test.ctx, fixture, 0);
    const { page, problems } = await watch(await browserContext());
    await page.goto(pageUrl(fixture.slug));
    await waitForFinalStatus(page);
    // (Finished or not when the page was rendered: the end of the stream is the same.)
    expect(await shownEvents(page)).toEqual(await storedEvents(fixture));
    expect(problems).toEqual([]);
  });
});

describe('a private project’s page', () => {
  async function privateFixture(): Promise<BuildFixture> {
    const fixture = await insertBuildFixture(test.ctx, { title: 'Members only' });
    await test.ctx.sql('update tokens set owner_id = $1 where id = $2', [
      owner.userId,
      fixture.tokenId,
    ]);
    await test.ctx.sql('update projects set owner_id = $1, private = true where id = $2', [
      owner.userId,
      fixture.projectId,
    ]);
    return { ...fixture, ownerId: owner.userId };
  }

  it('is 404 without the owner’s session, like a slug that does not exist', async () => {
    const fixture = await privateFixture();
    const missing = await (
      await watch(await browserContext())
    ).page.goto(pageUrl('no-such-project'));
    expect(missing?.status()).toBe(404);
    expect(await missing!.json()).toEqual({
      error: { code: 'project_not_found', message: 'project no-such-project does not exist' },
    });
    for (const who of [undefined, stranger]) {
      const { page } = await watch(await browserContext(who));
      const response = await page.goto(pageUrl(fixture.slug));
      expect(response?.status()).toBe(404);
      const body = await response!.json();
      expect(body).toEqual({
        error: { code: 'project_not_found', message: `project ${fixture.slug} does not exist` },
      });
      expect(await response!.text()).not.toContain(fixture.title);
    }
    // The API's metadata read says 401 to an anonymous caller; the page never does.
    const anonymous = await test.app.inject({ method: 'GET', url: `/p/${fixture.slug}` });
    expect(anonymous.statusCode).toBe(404);
  });

  it('works in the browser with the owner’s session cookie', async () => {
    const fixture = await privateFixture();
    const { page, problems } = await watch(await browserContext(owner));
    const response = await page.goto(pageUrl(fixture.slug));
    expect(response?.status()).toBe(200);
    expect(response?.headers()['cache-control']).toBe('private, no-store');
    expect(await page.textContent('h1')).toBe('Members only');
    await waitForConnection(page, 'Live');
    await startBuild(test.ctx, fixture, PACE_MS);
    await waitForFinalStatus(page);
    const stored = await storedEvents(fixture);
    expect(await shownEvents(page)).toEqual(stored);
    expect(await streamedEvents(fixture.slug, owner.cookie)).toEqual(stored);
    expect(problems).toEqual([]);
  });
});

describe('approvals on the page', () => {
  it('shows a waiting step; its owner approves it from the page and the build resumes', async () => {
    const fixture = await insertBuildFixture(test.ctx, { template: 'fullstack-builder' });
    await test.ctx.sql('update projects set owner_id = $1 where id = $2', [
      owner.userId,
      fixture.projectId,
    ]);
    // The sandboxed command asks, so a deterministic build waits once.
    await test.ctx.sql(
      `insert into project_approval_policies (project_id, mode, rules, plan_approval,
         timeout_seconds, on_timeout, updated_by, updated_at)
       values ($1, 'ask_risky', '[{"tool": "run_command", "action": "ask"}]', false, 3600,
               'reject', $2, now())`,
      [fixture.projectId, owner.userId],
    );
    const mine = await watch(await browserContext(owner));
    const theirs = await watch(await browserContext(stranger));
    await mine.page.goto(pageUrl(fixture.slug));
    await theirs.page.goto(pageUrl(fixture.slug));
    const handle = await startBuild(test.ctx, fixture);

    const pending = '#approvals li[data-approval-status="pending"]';
    await mine.page.waitForSelector(`${pending} button.approve`, { timeout: BUILD_TIMEOUT_MS });
    await theirs.page.waitForSelector(pending, { timeout: BUILD_TIMEOUT_MS });
    expect(await mine.page.getAttribute('#project-status', 'data-status')).toBe(
      'awaiting_approval',
    );
    expect(await mine.page.textContent('#project-status')).toBe('awaiting approval');
    expect(await mine.page.textContent(`${pending} strong`)).toContain('run_command');
    // Everyone sees the request; only the owner gets the buttons.
    expect(await theirs.page.locator(`${pending} button`).count()).toBe(0);

    await mine.page.click(`${pending} button.approve`);
    await waitForFinalStatus(mine.page);
    expect(await handle.result()).toEqual({ finalStatus: 'completed', reason: null });
    await theirs.page.waitForSelector('#approvals li[data-approval-status="approved"]');
    expect(await mine.page.textContent('#approvals li .approval-state')).toBe(
      'Approved by the owner',
    );
    const [request] = await test.ctx.sql<{ status: string; decided_by: number }>(
      'select status, decided_by from approval_requests where project_id = $1',
      [fixture.projectId],
    );
    expect(request).toEqual({ status: 'approved', decided_by: owner.userId });
    expect([...mine.problems, ...theirs.problems]).toEqual([]);
  });
});

describe('links to the page', () => {
  it('GET /projects/:slug has pageUrl, documented with an example', async () => {
    const fixture = await insertBuildFixture(test.ctx);
    const view = await test.app.inject({ method: 'GET', url: `/projects/${fixture.slug}` });
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({
      streamUrl: `${test.ctx.config.publicBaseUrl}/projects/${fixture.slug}/stream`,
      pageUrl: `${test.ctx.config.publicBaseUrl}/p/${fixture.slug}`,
    });
    const document = (await test.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const pageUrlSchema = document.components.schemas.Project.properties.pageUrl;
    expect(pageUrlSchema).toMatchObject({
      type: 'string',
      examples: ['https://api.example.com/p/creme-brulee-shop'],
    });
    expect(document.paths['/p/{slug}'].get.responses['200'].content).toHaveProperty('text/html');
  });

  it('serves the page’s assets by their hashed names only, cached for a year', async () => {
    const fixture = await insertBuildFixture(test.ctx);
    const page = await test.app.inject({ method: 'GET', url: `/p/${fixture.slug}` });
    const assets = [...page.body.matchAll(/"\/p\/assets\/([^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toEqual([
      expect.stringMatching(/^build-page\.[0-9a-f]{12}\.css$/),
      expect.stringMatching(/^build-page\.[0-9a-f]{12}\.js$/),
    ]);
    for (const name of assets) {
      const asset = await test.app.inject({ method: 'GET', url: `/p/assets/${name}` });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['content-type']).toBe(
        name.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
      );
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
    }
    const unknown = await test.app.inject({ method: 'GET', url: '/p/assets/build-page.js' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
  });
});
