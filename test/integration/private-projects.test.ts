import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { projectEventsChannel } from '../../shared/projects/events';
import { createKey, signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import { emit, message } from '../helpers/project-fixtures';
import { SseClient } from '../helpers/sse-client';
import { grantTier, type SubscriptionStatus, type Tier } from '../helpers/tiers';
import { dpnmTokenBody } from '../helpers/token-bodies';

/**
 * Private projects (docs/spec/contract.md §7, §11 `privateProjects`): only the max tier, active or in
 * grace, may create one; once created it exists for its owner only, through every route:
 * metadata, the live stream, owner actions, milestone subscriptions and the owner's list.
 * Driven end to end over HTTP (the stream over a real socket); tiers are rows in
 * `subscriptions`, as the subscription lifecycle writes them.
 */

const test = useTestApp({
  env: { ...UNLIMITED_RATES, SSE_HEARTBEAT_MS: '200', SSE_RETRY_MS: '50' },
});

type Status = SubscriptionStatus;

interface ProjectView {
  id: string;
  slug: string;
  tokenSlug: string;
  private: boolean;
  status: string;
  streamUrl: string;
}

const BRIEF = 'A members-only dashboard for the token community.';
const FORBIDDEN_STREAM = 'The stream of a private project is for its owner only';
const NEEDS_MAX = 'private: private projects need the max tier (GET /me/subscription)';

let base: string;
let other: SignedIn;
const clients: SseClient[] = [];

beforeAll(async () => {
  await test.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(test.app.server.address() as { port: number }).port}`;
  other = await signIn(test.app);
});
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

async function userWith(tier?: Tier, status: Status = 'active'): Promise<SignedIn> {
  const user = await signIn(test.app);
  if (tier) await grantTier(test.ctx, user.userId, tier, status);
  return user;
}

function call(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  who: { cookie?: string; key?: string } | null,
  payload?: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (who?.key) headers['x-api-key'] = who.key;
  else if (who?.cookie) headers.cookie = who.cookie;
  return test.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

let tickers = 0;
/** A fresh token of `owner`, through the real endpoint. */
async function newToken(owner: SignedIn): Promise<string> {
  const response = await call(
    'POST',
    '/tokens',
    owner,
    dpnmTokenBody('Private Token', `Q${(tickers++).toString(36).toUpperCase().padStart(3, '0')}`),
  );
  expect(response.statusCode).toBe(201);
  return response.json<{ slug: string }>().slug;
}

async function createPrivate(owner: SignedIn): Promise<LightMyRequestResponse> {
  return call('POST', '/projects', owner, {
    tokenSlug: await newToken(owner),
    title: `Secret ${randomUUID().slice(0, 8)}`,
    brief: BRIEF,
    agentTemplate: 'fullstack-builder',
    private: true,
  });
}

async function openStream(slug: string, headers: Record<string, string> = {}) {
  const client = await SseClient.connect(`${base}/projects/${slug}/stream`, headers);
  clients.push(client);
  return client;
}

describe('a max user’s private project, end to end', () => {
  let owner: SignedIn;
  let project: ProjectView;

  beforeAll(async () => {
    owner = await userWith('max');
    const created = await createPrivate(owner);
    expect(created.statusCode).toBe(201);
    project = created.json<ProjectView>();
  });

  it('is created private, and is stored so', async () => {
    expect(project).toMatchObject({ private: true, status: 'idle' });
    const [row] = await test.ctx.sql<{ private: boolean; owner_id: number }>(
      'select private, owner_id from projects where id = $1',
      [project.id],
    );
    expect(row).toEqual({ private: true, owner_id: owner.userId });
  });

  it('is read by its owner with a session or an API key, and listed in the owner’s projects', async () => {
    const own = await call('GET', `/projects/${project.slug}`, owner);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual(project);
    const key = await createKey(test.app, owner);
    const viaKey = await call('GET', `/projects/${project.slug}`, { key: key.key });
    expect(viaKey.statusCode).toBe(200);
    expect(viaKey.json<ProjectView>().id).toBe(project.id);
    const mine = await call('GET', '/me/projects', owner);
    expect(mine.json<{ items: ProjectView[] }>().items.map((p) => p.slug)).toContain(project.slug);
  });

  it('does not exist for another user (404) and needs credentials anonymously (401)', async () => {
    expectError(
      await call('GET', `/projects/${project.slug}`, other),
      404,
      'project_not_found',
      `project ${project.slug} does not exist`,
    );
    expectError(
      await call('GET', `/projects/${project.slug}`, null),
      401,
      'unauthenticated',
      'This private project needs a session or an API key',
    );
    const mine = await call('GET', '/me/projects', other);
    expect(mine.json<{ items: ProjectView[] }>().items.map((p) => p.slug)).not.toContain(
      project.slug,
    );
  });

  it('refuses its stream to anyone else with 403 private_forbidden', async () => {
    const url = `/projects/${project.slug}/stream`;
    expectError(await call('GET', url, null), 403, 'private_forbidden', FORBIDDEN_STREAM);
    expectError(await call('GET', url, other), 403, 'private_forbidden', FORBIDDEN_STREAM);
    const otherMax = await userWith('max');
    expectError(await call('GET', url, otherMax), 403, 'private_forbidden', FORBIDDEN_STREAM);
  });

  it('streams to its owner, live', async () => {
    const client = await openStream(project.slug, { cookie: owner.cookie });
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await client.waitFor((c) => c.retry !== null);
    await emit({ world: test.ctx, ...projectRef(project) }, [message(1)], { runId: randomUUID() });
    await client.waitForEvents(1);
    expect(client.events.map((event) => [event.event, JSON.parse(event.data) as unknown])).toEqual([
      ['message', { role: 'assistant', text: 'step 1' }],
    ]);
  });

  it('hides the owner actions from others as if it did not exist', async () => {
    for (const action of ['start', 'cancel', 'archive', 'subscribe']) {
      expectError(
        await call('POST', `/projects/${project.slug}/${action}`, other),
        404,
        'project_not_found',
      );
    }
  });
});

/** What `emit` needs of a project created through the API. */
function projectRef(project: ProjectView) {
  return {
    id: project.id,
    slug: project.slug,
    runId: '',
    channel: projectEventsChannel(test.ctx.config.redisKeyPrefix, project.id),
  };
}

describe('who may create one', () => {
  const refused: [string, Tier | undefined, Status][] = [
    ['no subscription', undefined, 'active'],
    ['plus', 'plus', 'active'],
    ['pro', 'pro', 'active'],
    ['pro in grace', 'pro', 'grace'],
    ['canceled max', 'max', 'canceled'],
  ];

  it.each(refused)(
    'refuses %s with 403 feature_not_in_tier, writing nothing',
    async (_, tier, status) => {
      const user = await userWith(tier, status);
      expectError(await createPrivate(user), 403, 'feature_not_in_tier', NEEDS_MAX);
      const rows = await test.ctx.sql('select 1 from projects where owner_id = $1', [user.userId]);
      expect(rows).toEqual([]);
    },
  );

  it('lets a max user in grace create one (features stay during grace)', async () => {
    const user = await userWith('max', 'grace');
    const created = await createPrivate(user);
    expect(created.statusCode).toBe(201);
    expect(created.json<ProjectView>().private).toBe(true);
  });

  it('lets anyone create a public project, whatever the tier', async () => {
    const user = await userWith();
    const created = await call('POST', '/projects', user, {
      tokenSlug: await newToken(user),
      title: 'Open Plan',
      brief: BRIEF,
      agentTemplate: 'fullstack-builder',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json<ProjectView>().private).toBe(false);
  });

  it('keeps a project private after its owner’s max tier lapses, but allows no new one', async () => {
    const user = await userWith('max');
    const created = await createPrivate(user);
    expect(created.statusCode).toBe(201);
    const { slug } = created.json<ProjectView>();
    await grantTier(test.ctx, user.userId, 'max', 'canceled');
    // Never exposed because a payment failed: still the owner's only.
    expect((await call('GET', `/projects/${slug}`, user)).statusCode).toBe(200);
    expectError(await call('GET', `/projects/${slug}`, other), 404, 'project_not_found');
    expectError(await call('GET', `/projects/${slug}/stream`, other), 403, 'private_forbidden');
    expectError(await createPrivate(user), 403, 'feature_not_in_tier');
  });
});
