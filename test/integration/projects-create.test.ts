import { randomUUID } from 'node:crypto';
import { createKey, signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import {
  ISO,
  UUID,
  BRIEF,
  type ProjectBody,
  projectsFixtures,
} from '../helpers/projects-http-fixtures';
import { grantTier } from '../helpers/tiers';

/**
 * Creating and reading projects (spec "Projects", docs/spec/contract.md §7): creation and its
 * rules in order, private projects and their visibility, and the caller's own list.
 */

let alice: SignedIn;
let bob: SignedIn;

const test = useTestApp({ env: UNLIMITED_RATES });
const { newToken, call, projectBody, newProject } = projectsFixtures(test);
beforeAll(async () => {
  [alice, bob] = await Promise.all([signIn(test.app), signIn(test.app)]);
});

describe('POST /projects', () => {
  it('creates an idle project on the caller’s token and answers 201 with its view', async () => {
    const tokenSlug = await newToken(alice);
    const response = await call('POST', '/projects', alice, {
      tokenSlug,
      title: '  Crème Brûlée Shop!  ',
      brief: `  ${BRIEF}\nSecond line of the same paragraph.  `,
      agentTemplate: 'bot-builder',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json<ProjectBody>();
    expect(body).toEqual({
      id: expect.stringMatching(UUID),
      slug: 'creme-brulee-shop',
      tokenSlug,
      title: 'Crème Brûlée Shop!',
      brief: `${BRIEF}\nSecond line of the same paragraph.`,
      agentTemplate: 'bot-builder',
      private: false,
      status: 'idle',
      pendingApproval: null,
      createdAt: expect.stringMatching(ISO),
      updatedAt: body.createdAt,
      archivedAt: null,
      lastEventId: 0,
      streamUrl: `${test.ctx.config.publicBaseUrl}/projects/creme-brulee-shop/stream`,
      pageUrl: `${test.ctx.config.publicBaseUrl}/p/creme-brulee-shop`,
      run: null,
    });
    const [row] = await test.ctx.sql(
      'select owner_id, status, private from projects where id = $1',
      [body.id],
    );
    expect(row).toEqual({ owner_id: alice.userId, status: 'idle', private: false });
  });

  it('gives a taken title’s slug a random suffix', async () => {
    const first = await newProject(alice, { title: 'Twin Title' });
    const second = await newProject(alice, { title: 'Twin Title' });
    expect(first.slug).toBe('twin-title');
    expect(second.slug).toMatch(/^twin-title-[0-9a-f]{6}$/);
  });

  it('accepts an API key as well as a session', async () => {
    const { key } = await createKey(test.app, alice);
    const response = await test.app.inject({
      method: 'POST',
      url: '/projects',
      headers: { 'x-api-key': key },
      payload: projectBody(await newToken(alice), { title: 'Via Key' }),
    });
    expect(response.statusCode).toBe(201);
  });

  it('refuses an anonymous caller with 401 unauthenticated', async () => {
    const tokenSlug = await newToken(alice);
    expectError(
      await call('POST', '/projects', null, projectBody(tokenSlug)),
      401,
      'unauthenticated',
    );
  });

  it('refuses an unknown token (404), another user’s token (403) and writes nothing', async () => {
    expectError(
      await call('POST', '/projects', alice, projectBody('no-such-token')),
      404,
      'token_not_found',
      'tokenSlug: token "no-such-token" does not exist',
    );
    const bobsToken = await newToken(bob);
    expectError(
      await call('POST', '/projects', alice, projectBody(bobsToken)),
      403,
      'token_no_match',
      `tokenSlug: token ${bobsToken} is not owned by the caller`,
    );
    const rows = await test.ctx.sql(
      'select p.id from projects p join tokens t on t.id = p.token_id where t.slug = $1',
      [bobsToken],
    );
    expect(rows).toEqual([]);
  });

  it('refuses an agentTemplate outside the presets with 400 template_unknown', async () => {
    const tokenSlug = await newToken(alice);
    for (const agentTemplate of ['web-builder', 'Fullstack-Builder', '']) {
      expectError(
        await call('POST', '/projects', alice, projectBody(tokenSlug, { agentTemplate })),
        400,
        'template_unknown',
        /^agentTemplate: .* is not a preset \(fullstack-builder, bot-builder, content-machine, research-agent\)$/,
      );
    }
    const rows = await test.ctx.sql(
      'select p.id from projects p join tokens t on t.id = p.token_id where t.slug = $1',
      [tokenSlug],
    );
    expect(rows).toEqual([]);
  });

  it('validates title, brief and the other fields with 400 invalid_request naming the field', async () => {
    const tokenSlug = await newToken(alice);
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '' }, 'title: must be 1 to 120 characters'],
      [{ title: '   ' }, 'title: must be 1 to 120 characters'],
      [{ title: 'x'.repeat(121) }, 'title: must be 1 to 120 characters'],
      [{ title: 42 }, 'title: must be a string'],
      [{ brief: '' }, 'brief: must be 1 to 2000 characters'],
      [{ brief: 'b'.repeat(2001) }, 'brief: must be 1 to 2000 characters'],
      [
        { brief: 'First paragraph.\n\nSecond one.' },
        'brief: must be one paragraph (no blank line)',
      ],
      [{ brief: 'First.\r\n \r\nSecond.' }, 'brief: must be one paragraph (no blank line)'],
      [{ private: 'yes' }, 'private: must be a boolean'],
      [{ agentTemplate: 7 }, 'agentTemplate: must be a string'],
      [{ agentTemplate: undefined }, 'agentTemplate: is required'],
      [{ tokenSlug: undefined }, 'tokenSlug: is required'],
      [{ owner: 1 }, 'owner: is not a known field'],
    ];
    for (const [overrides, message] of cases) {
      const payload = projectBody(tokenSlug, overrides);
      expectError(await call('POST', '/projects', alice, payload), 400, 'invalid_request', message);
    }
    const rows = await test.ctx.sql(
      'select p.id from projects p join tokens t on t.id = p.token_id where t.slug = $1',
      [tokenSlug],
    );
    expect(rows).toEqual([]);
  });

  describe('private projects need the max tier', () => {
    const privateBody = async (owner: SignedIn) =>
      projectBody(await newToken(owner), { private: true, title: 'Secret Plan' });

    it('refuses a user without a subscription with 403 feature_not_in_tier', async () => {
      const dave = await signIn(test.app);
      expectError(
        await call('POST', '/projects', dave, await privateBody(dave)),
        403,
        'feature_not_in_tier',
        'private: private projects need the max tier (GET /me/subscription)',
      );
    });

    it('refuses pro, and a max canceled for an unpaid renewal', async () => {
      const erin = await signIn(test.app);
      await grantTier(test.ctx, erin.userId, 'pro', 'active', 86_400_000);
      expectError(
        await call('POST', '/projects', erin, await privateBody(erin)),
        403,
        'feature_not_in_tier',
      );
      await grantTier(test.ctx, erin.userId, 'max', 'canceled', 86_400_000);
      expectError(
        await call('POST', '/projects', erin, await privateBody(erin)),
        403,
        'feature_not_in_tier',
      );
    });

    it('accepts an active max, and a max in grace (its features stay)', async () => {
      const frank = await signIn(test.app);
      await grantTier(test.ctx, frank.userId, 'max', 'active', 86_400_000);
      const response = await call('POST', '/projects', frank, await privateBody(frank));
      expect(response.statusCode).toBe(201);
      expect(response.json<ProjectBody>().private).toBe(true);
      await grantTier(test.ctx, frank.userId, 'max', 'grace', -86_400_000);
      expect((await call('POST', '/projects', frank, await privateBody(frank))).statusCode).toBe(
        201,
      );
    });

    it('checks the token before the tier, and the tier before the one-project rule', async () => {
      const gina = await signIn(test.app);
      expectError(
        await call('POST', '/projects', gina, projectBody(await newToken(bob), { private: true })),
        403,
        'token_no_match',
      );
      const tokenSlug = await newToken(gina);
      expect((await call('POST', '/projects', gina, projectBody(tokenSlug))).statusCode).toBe(201);
      expectError(
        await call('POST', '/projects', gina, projectBody(tokenSlug, { private: true })),
        403,
        'feature_not_in_tier',
      );
    });
  });

  it('allows one project per token that is not archived: 409 project_locked', async () => {
    const tokenSlug = await newToken(alice);
    expect((await call('POST', '/projects', alice, projectBody(tokenSlug))).statusCode).toBe(201);
    expectError(
      await call('POST', '/projects', alice, projectBody(tokenSlug, { title: 'Another' })),
      409,
      'project_locked',
      `tokenSlug: token ${tokenSlug} already has an active project; archive it first`,
    );
  });

  it('lets exactly one of several concurrent creations on one token through', async () => {
    const tokenSlug = await newToken(alice);
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        call('POST', '/projects', alice, projectBody(tokenSlug, { title: `Race ${index}` })),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expectError(response, 409, 'project_locked');
    }
    const rows = await test.ctx.sql(
      'select p.id from projects p join tokens t on t.id = p.token_id where t.slug = $1',
      [tokenSlug],
    );
    expect(rows).toHaveLength(1);
  });

  it('replays a creation repeated with the same Idempotency-Key', async () => {
    const payload = projectBody(await newToken(alice), { title: 'Once Only' });
    const send = () =>
      test.app.inject({
        method: 'POST',
        url: '/projects',
        headers: { cookie: alice.cookie, 'idempotency-key': `create-${randomUUID()}` },
        payload,
      });
    const key = `create-${randomUUID()}`;
    const again = () =>
      test.app.inject({
        method: 'POST',
        url: '/projects',
        headers: { cookie: alice.cookie, 'idempotency-key': key },
        payload,
      });
    const first = await again();
    const second = await again();
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    // A new key is a new request: the token is taken now.
    expectError(await send(), 409, 'project_locked');
  });
});

describe('GET /projects/:slug', () => {
  it('shows a public project to anyone, with the same view as at creation', async () => {
    const created = await newProject(alice, { title: 'Open House' });
    await test.ctx.sql('update projects set last_event_seq = 7 where id = $1', [created.id]);
    const response = await call('GET', `/projects/${created.slug}`, null);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...created, lastEventId: 7 });
  });

  it('hides a private project: anonymous 401, another user 404, its owner 200', async () => {
    const hana = await signIn(test.app);
    await grantTier(test.ctx, hana.userId, 'max', 'active', 86_400_000);
    const created = await newProject(hana, { private: true, title: 'Hidden Garden' });
    const url = `/projects/${created.slug}`;
    expectError(
      await call('GET', url, null),
      401,
      'unauthenticated',
      'This private project needs a session or an API key',
    );
    expectError(
      await call('GET', url, bob),
      404,
      'project_not_found',
      `project ${created.slug} does not exist`,
    );
    const own = await call('GET', url, hana);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual(created);
  });

  it('answers 404 project_not_found for an unknown or impossible slug', async () => {
    expectError(await call('GET', '/projects/no-such-project', null), 404, 'project_not_found');
    expectError(await call('GET', '/projects/%00', null), 404, 'project_not_found');
    expectError(await call('GET', '/projects/UPPER', null), 404, 'project_not_found');
  });
});

describe('GET /me/projects', () => {
  it('pages through the caller’s projects, newest first, archived included', async () => {
    const ivan = await signIn(test.app);
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) mine.push((await newProject(ivan, { title: `Ivan ${i}` })).slug);
    await newProject(bob, { title: 'Not Ivan' });
    expect((await call('POST', `/projects/${mine[0]}/archive`, ivan)).statusCode).toBe(200);
    const seen: ProjectBody[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const response = await call('GET', `/me/projects?limit=2${query}`, ivan);
      expect(response.statusCode).toBe(200);
      const page = response.json<{ items: ProjectBody[]; nextCursor: string | null }>();
      seen.push(...page.items);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    // Newest first; projects created within one millisecond are ordered by id.
    const expected = (
      await test.ctx.sql<{ slug: string }>(
        'select slug from projects where owner_id = $1 order by created_at desc, id desc',
        [ivan.userId],
      )
    ).map((row) => row.slug);
    expect(seen.map((item) => item.slug)).toEqual(expected);
    expect([...expected].sort()).toEqual([...mine].sort());
    expect(seen.find((item) => item.slug === mine[0])?.status).toBe('archived');
    const single = (await call('GET', `/projects/${mine[1]}`, ivan)).json();
    expect(seen.find((item) => item.slug === mine[1])).toEqual(single);
  });

  it('needs a user and refuses a foreign cursor', async () => {
    expectError(await call('GET', '/me/projects', null), 401, 'unauthenticated');
    const tokens = (await call('GET', '/tokens?limit=1', null)).json<{ nextCursor: string }>();
    expectError(
      await call('GET', `/me/projects?cursor=${encodeURIComponent(tokens.nextCursor)}`, alice),
      400,
      'invalid_cursor',
    );
  });
});
