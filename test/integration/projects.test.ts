import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { defaultPayloadConverter } from '@temporalio/client';
import type { App } from '../../api/app';
import { buildApp } from '../../api/app';
import { createTemporalClient, workflowIds } from '../../shared/temporal';
import { buildTaskQueue } from '../../shared/temporal/task-queues';
import { createKey, signIn, type SignedIn } from '../helpers/auth';
import { createTestContext, UNLIMITED_RATES, type TestContext } from '../helpers/context';
import { grantTier } from '../helpers/tiers';

/**
 * Projects (spec "Projects", docs/spec/contract.md §7): creation and its rules in order, visibility of
 * private projects, starting, canceling and archiving runs against a real Temporal server (no
 * worker runs here, so a started workflow stays queued), milestone subscriptions, artifact
 * downloads and the caller's own list.
 */

type Reply = Awaited<ReturnType<App['inject']>>;

interface RunBody {
  runId: string;
  status: string;
  planner: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  headSha: string | null;
  reason: string | null;
  artifactUrl: string | null;
}
interface ProjectBody {
  id: string;
  slug: string;
  tokenSlug: string;
  title: string;
  brief: string;
  agentTemplate: string;
  private: boolean;
  status: string;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  lastEventId: number;
  streamUrl: string;
  pageUrl: string;
  run: RunBody | null;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const BRIEF = 'A landing page with a waitlist form for the token community.';

let ctx: TestContext;
let app: App;
let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;

beforeAll(async () => {
  ctx = await createTestContext(UNLIMITED_RATES);
  app = await ctx.newApi();
  await app.ready();
  [alice, bob, carol] = await Promise.all([signIn(app), signIn(app), signIn(app)]);
});
afterAll(async () => ctx.close());

let tickers = 0;
/** A fresh token of `owner`, through the real endpoint; returns its slug. */
async function newToken(owner: SignedIn): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/tokens',
    headers: { cookie: owner.cookie },
    payload: {
      template: 'dpnm',
      name: 'Project Token',
      ticker: `P${(tickers++).toString(36).toUpperCase().padStart(3, '0')}`,
      chainId: 31337,
      params: {
        initialPrice: '0.5',
        dailyLimitFloor: '10',
        incomeLimitMultiplier: 2,
        treeActivationCost: '25',
      },
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ slug: string }>().slug;
}

function call(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  session: SignedIn | null,
  payload?: Record<string, unknown>,
  api = app,
): Promise<Reply> {
  return api.inject({
    method,
    url,
    headers: session ? { cookie: session.cookie } : {},
    ...(payload ? { payload } : {}),
  });
}

const projectBody = (tokenSlug: string, overrides: Record<string, unknown> = {}) => ({
  tokenSlug,
  title: 'Landing Page',
  brief: BRIEF,
  agentTemplate: 'fullstack-builder',
  ...overrides,
});

/** A new project on a new token of `owner`. */
async function newProject(
  owner: SignedIn,
  overrides: Record<string, unknown> = {},
): Promise<ProjectBody> {
  const response = await call(
    'POST',
    '/projects',
    owner,
    projectBody(await newToken(owner), overrides),
  );
  expect(response.statusCode).toBe(201);
  return response.json<ProjectBody>();
}

function expectError(response: Reply, status: number, code: string, message?: RegExp | string) {
  expect({ status: response.statusCode, body: response.json() }).toEqual({
    status,
    body: { error: { code, message: expect.any(String) } },
  });
  const text = response.json<{ error: { message: string } }>().error.message;
  if (typeof message === 'string') expect(text).toBe(message);
  else if (message) expect(text).toMatch(message);
}

async function projectRow(id: string) {
  const [row] = await ctx.sql<{ status: string; current_run_id: string | null; updated_at: Date }>(
    'select status, current_run_id, updated_at from projects where id = $1',
    [id],
  );
  return row;
}

async function runIdsOf(projectId: string): Promise<string[]> {
  const rows = await ctx.sql<{ id: string }>(
    'select id from project_runs where project_id = $1 order by created_at',
    [projectId],
  );
  return rows.map((row) => row.id);
}

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
      createdAt: expect.stringMatching(ISO),
      updatedAt: body.createdAt,
      archivedAt: null,
      lastEventId: 0,
      streamUrl: `${ctx.config.publicBaseUrl}/projects/creme-brulee-shop/stream`,
      pageUrl: `${ctx.config.publicBaseUrl}/p/creme-brulee-shop`,
      run: null,
    });
    const [row] = await ctx.sql('select owner_id, status, private from projects where id = $1', [
      body.id,
    ]);
    expect(row).toEqual({ owner_id: alice.userId, status: 'idle', private: false });
  });

  it('gives a taken title’s slug a random suffix', async () => {
    const first = await newProject(alice, { title: 'Twin Title' });
    const second = await newProject(alice, { title: 'Twin Title' });
    expect(first.slug).toBe('twin-title');
    expect(second.slug).toMatch(/^twin-title-[0-9a-f]{6}$/);
  });

  it('accepts an API key as well as a session', async () => {
    const { key } = await createKey(app, alice);
    const response = await app.inject({
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
    const rows = await ctx.sql(
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
    const rows = await ctx.sql(
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
    const rows = await ctx.sql(
      'select p.id from projects p join tokens t on t.id = p.token_id where t.slug = $1',
      [tokenSlug],
    );
    expect(rows).toEqual([]);
  });

  describe('private projects need the max tier', () => {
    const privateBody = async (owner: SignedIn) =>
      projectBody(await newToken(owner), { private: true, title: 'Secret Plan' });

    it('refuses a user without a subscription with 403 feature_not_in_tier', async () => {
      const dave = await signIn(app);
      expectError(
        await call('POST', '/projects', dave, await privateBody(dave)),
        403,
        'feature_not_in_tier',
        'private: private projects need the max tier (GET /me/subscription)',
      );
    });

    it('refuses pro, and a max canceled for an unpaid renewal', async () => {
      const erin = await signIn(app);
      await grantTier(ctx, erin.userId, 'pro', 'active', 86_400_000);
      expectError(
        await call('POST', '/projects', erin, await privateBody(erin)),
        403,
        'feature_not_in_tier',
      );
      await grantTier(ctx, erin.userId, 'max', 'canceled', 86_400_000);
      expectError(
        await call('POST', '/projects', erin, await privateBody(erin)),
        403,
        'feature_not_in_tier',
      );
    });

    it('accepts an active max, and a max in grace (its features stay)', async () => {
      const frank = await signIn(app);
      await grantTier(ctx, frank.userId, 'max', 'active', 86_400_000);
      const response = await call('POST', '/projects', frank, await privateBody(frank));
      expect(response.statusCode).toBe(201);
      expect(response.json<ProjectBody>().private).toBe(true);
      await grantTier(ctx, frank.userId, 'max', 'grace', -86_400_000);
      expect((await call('POST', '/projects', frank, await privateBody(frank))).statusCode).toBe(
        201,
      );
    });

    it('checks the token before the tier, and the tier before the one-project rule', async () => {
      const gina = await signIn(app);
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
    const rows = await ctx.sql(
      'select p.id from projects p join tokens t on t.id = p.token_id where t.slug = $1',
      [tokenSlug],
    );
    expect(rows).toHaveLength(1);
  });

  it('replays a creation repeated with the same Idempotency-Key', async () => {
    const payload = projectBody(await newToken(alice), { title: 'Once Only' });
    const send = () =>
      app.inject({
        method: 'POST',
        url: '/projects',
        headers: { cookie: alice.cookie, 'idempotency-key': `create-${randomUUID()}` },
        payload,
      });
    const key = `create-${randomUUID()}`;
    const again = () =>
      app.inject({
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
    await ctx.sql('update projects set last_event_seq = 7 where id = $1', [created.id]);
    const response = await call('GET', `/projects/${created.slug}`, null);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...created, lastEventId: 7 });
  });

  it('hides a private project: anonymous 401, another user 404, its owner 200', async () => {
    const hana = await signIn(app);
    await grantTier(ctx, hana.userId, 'max', 'active', 86_400_000);
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

/** The build workflow of a run, as Temporal has it. */
async function workflowOf(projectId: string, runId: string) {
  const handle = ctx.deps.temporal.workflow.getHandle(workflowIds.projectBuild(projectId, runId));
  const description = await handle.describe();
  const history = await handle.fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  const input = started?.input?.payloads?.map((payload) =>
    defaultPayloadConverter.fromPayload(payload),
  );
  const signals = (history.events ?? []).flatMap((event) =>
    event.workflowExecutionSignaledEventAttributes?.signalName
      ? [event.workflowExecutionSignaledEventAttributes.signalName]
      : [],
  );
  return { description, input, signals };
}

async function start(project: ProjectBody, session: SignedIn | null, api = app) {
  return call('POST', `/projects/${project.slug}/start`, session, undefined, api);
}

async function started(project: ProjectBody, session: SignedIn): Promise<string> {
  const response = await start(project, session);
  expect(response.statusCode).toBe(200);
  return response.json<{ runId: string }>().runId;
}

describe('POST /projects/:slug/start', () => {
  it('queues a run and starts its workflow with the project, run and pace', async () => {
    const project = await newProject(alice, { title: 'Build Me' });
    const response = await start(project, alice);
    expect(response.statusCode).toBe(200);
    const { runId } = response.json<{ runId: string }>();
    expect(response.json()).toEqual({ runId: expect.stringMatching(UUID) });

    const workflow = await workflowOf(project.id, runId);
    expect(workflow.description.workflowId).toBe(`project-build:${project.id}:${runId}`);
    expect(workflow.description.type).toBe('projectBuildWorkflow');
    expect(workflow.description.taskQueue).toBe(
      buildTaskQueue(ctx.config.temporal.taskQueue, 'standard'),
    );
    expect(workflow.description.status.name).toBe('RUNNING');
    expect(workflow.input).toEqual([
      { projectId: project.id, runId, paceMs: ctx.config.build.paceMs, lane: 'standard' },
    ]);

    const view = (await call('GET', `/projects/${project.slug}`, null)).json<ProjectBody>();
    expect(view.status).toBe('queued');
    expect(view.run).toEqual({
      runId,
      status: 'queued',
      planner: 'pending',
      createdAt: expect.stringMatching(ISO),
      startedAt: null,
      finishedAt: null,
      headSha: null,
      reason: null,
      artifactUrl: null,
    });
    expect(await runIdsOf(project.id)).toEqual([runId]);
  });

  it('refuses a second start while the run is queued or running: 409 run_in_progress', async () => {
    const project = await newProject(alice, { title: 'Busy Builder' });
    const runId = await started(project, alice);
    expectError(
      await start(project, alice),
      409,
      'run_in_progress',
      `project ${project.slug} already has a run queued; cancel it or wait for it to end`,
    );
    await ctx.sql(`update projects set status = 'running' where id = $1`, [project.id]);
    expectError(await start(project, alice), 409, 'run_in_progress');
    expect(await runIdsOf(project.id)).toEqual([runId]);
  });

  it('starts exactly one run when several starts race', async () => {
    const project = await newProject(alice, { title: 'Race Start' });
    const responses = await Promise.all(Array.from({ length: 5 }, () => start(project, alice)));
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expectError(response, 409, 'run_in_progress');
    }
    const winner = responses.find((r) => r.statusCode === 200)!.json<{ runId: string }>().runId;
    expect(await runIdsOf(project.id)).toEqual([winner]);
    expect((await projectRow(project.id))?.current_run_id).toBe(winner);
  });

  it('starts a new run once the last one has ended', async () => {
    const project = await newProject(alice, { title: 'Again And Again' });
    const first = await started(project, alice);
    for (const ended of ['completed', 'failed', 'canceled']) {
      await ctx.sql('update projects set status = $2 where id = $1', [project.id, ended]);
      const next = await started(project, alice);
      expect(next).not.toBe(first);
      expect(await projectRow(project.id)).toMatchObject({
        status: 'queued',
        current_run_id: next,
      });
    }
    expect(await runIdsOf(project.id)).toHaveLength(4);
  });

  it('is for the owner: anonymous 401, another user 403 not_owner, 404 when private', async () => {
    const project = await newProject(alice, { title: 'Mine Alone' });
    expectError(await start(project, null), 401, 'unauthenticated');
    expectError(
      await start(project, bob),
      403,
      'not_owner',
      `project ${project.slug} belongs to another user`,
    );
    await ctx.sql('update projects set private = true where id = $1', [project.id]);
    expectError(await start(project, bob), 404, 'project_not_found');
    expect(await runIdsOf(project.id)).toEqual([]);
    expect((await projectRow(project.id))?.status).toBe('idle');
  });

  it('refuses an archived project with 409 project_archived', async () => {
    const project = await newProject(alice, { title: 'Shelved' });
    expect((await call('POST', `/projects/${project.slug}/archive`, alice)).statusCode).toBe(200);
    expectError(
      await start(project, alice),
      409,
      'project_archived',
      `project ${project.slug} is archived`,
    );
  });

  it('answers 503 and puts everything back when Temporal is unreachable', async () => {
    const project = await newProject(alice, { title: 'No Temporal' });
    // A previous run that has ended: the failed start must leave it as the current run.
    const previousRun = await started(project, alice);
    await ctx.sql(`update projects set status = 'completed' where id = $1`, [project.id]);
    const before = await projectRow(project.id);

    const deadTemporal = createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });
    const broken = buildApp({ ...ctx.deps, temporal: deadTemporal });
    try {
      expectError(
        await start(project, alice, broken),
        503,
        'service_unavailable',
        'The build service is unreachable; try again later',
      );
    } finally {
      await broken.close();
      await deadTemporal.connection.close().catch(() => undefined);
    }
    expect(await projectRow(project.id)).toEqual(before);
    expect(before).toMatchObject({ status: 'completed', current_run_id: previousRun });
    expect(await runIdsOf(project.id)).toEqual([previousRun]);
  });
});

describe('POST /projects/:slug/cancel', () => {
  it('signals cancel to the current run’s workflow', async () => {
    const project = await newProject(alice, { title: 'Stop Me' });
    const runId = await started(project, alice);
    const response = await call('POST', `/projects/${project.slug}/cancel`, alice);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ runId, cancelRequested: true });
    expect((await workflowOf(project.id, runId)).signals).toEqual(['cancel']);
  });

  it('answers 409 no_active_run when nothing is queued or running', async () => {
    const project = await newProject(alice, { title: 'Nothing To Stop' });
    const cancel = () => call('POST', `/projects/${project.slug}/cancel`, alice);
    expectError(
      await cancel(),
      409,
      'no_active_run',
      `project ${project.slug} has no queued or running run`,
    );
    await started(project, alice);
    await ctx.sql(`update projects set status = 'canceled' where id = $1`, [project.id]);
    expectError(await cancel(), 409, 'no_active_run');
  });

  it('is for the owner: another user 403 not_owner, anonymous 401', async () => {
    const project = await newProject(alice, { title: 'Not Yours To Stop' });
    const runId = await started(project, alice);
    expectError(await call('POST', `/projects/${project.slug}/cancel`, bob), 403, 'not_owner');
    expectError(
      await call('POST', `/projects/${project.slug}/cancel`, null),
      401,
      'unauthenticated',
    );
    expect((await workflowOf(project.id, runId)).signals).toEqual([]);
  });
});

describe('POST /projects/:slug/archive', () => {
  it('archives a project at rest, idempotently, and frees its token', async () => {
    const project = await newProject(alice, { title: 'Old News' });
    const response = await call('POST', `/projects/${project.slug}/archive`, alice);
    expect(response.statusCode).toBe(200);
    const archived = response.json<ProjectBody>();
    expect(archived).toEqual({
      ...project,
      status: 'archived',
      archivedAt: expect.stringMatching(ISO),
      updatedAt: archived.archivedAt,
    });
    const again = await call('POST', `/projects/${project.slug}/archive`, alice);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(archived);

    const next = await call('POST', '/projects', alice, projectBody(project.tokenSlug));
    expect(next.statusCode).toBe(201);
    expect(next.json<ProjectBody>().tokenSlug).toBe(project.tokenSlug);
  });

  it('refuses a queued or running project with 409 run_in_progress', async () => {
    const project = await newProject(alice, { title: 'Still Building' });
    await started(project, alice);
    expectError(
      await call('POST', `/projects/${project.slug}/archive`, alice),
      409,
      'run_in_progress',
      `project ${project.slug} has a run queued; cancel it first`,
    );
    expect((await projectRow(project.id))?.status).toBe('queued');
  });

  it('is for the owner: 403 not_owner, 404 on a private project', async () => {
    const project = await newProject(alice, { title: 'Keep Out' });
    expectError(await call('POST', `/projects/${project.slug}/archive`, bob), 403, 'not_owner');
    await ctx.sql('update projects set private = true where id = $1', [project.id]);
    expectError(
      await call('POST', `/projects/${project.slug}/archive`, bob),
      404,
      'project_not_found',
    );
    expect((await projectRow(project.id))?.status).toBe('idle');
  });
});

describe('/projects/:slug/subscribe', () => {
  const subscriptionsOf = (projectId: string) =>
    ctx.sql<{ user_id: number }>(
      'select user_id from project_subscriptions where project_id = $1',
      [projectId],
    );

  it('subscribes and unsubscribes, both idempotent', async () => {
    const project = await newProject(alice, { title: 'Follow Me' });
    const url = `/projects/${project.slug}/subscribe`;
    for (let i = 0; i < 2; i++) {
      const response = await call('POST', url, bob);
      expect({ status: response.statusCode, body: response.json() }).toEqual({
        status: 200,
        body: { subscribed: true },
      });
    }
    expect(await subscriptionsOf(project.id)).toEqual([{ user_id: bob.userId }]);
    // Deleting is 204 with no body (docs/spec/contract.md §1), again when nothing is left to delete.
    for (let i = 0; i < 2; i++) {
      const response = await call('DELETE', url, bob);
      expect({ status: response.statusCode, body: response.body }).toEqual({
        status: 204,
        body: '',
      });
      expect(response.headers['content-type']).toBeUndefined();
    }
    expect(await subscriptionsOf(project.id)).toEqual([]);
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const responses = document.paths['/projects/{slug}/subscribe'].delete.responses;
    // The one success the document names is 204 (no body); the rest are error statuses.
    const successes = Object.keys(responses).filter((status) => /^2/.test(status));
    expect(successes).toEqual(['204']);
    expect(responses['404'].description).toMatch(/project_not_found/);
  });

  it('needs a user, hides private projects of others and refuses archived ones', async () => {
    const project = await newProject(alice, { title: 'Watch List' });
    const url = `/projects/${project.slug}/subscribe`;
    expectError(await call('POST', url, null), 401, 'unauthenticated');
    expectError(await call('DELETE', url, null), 401, 'unauthenticated');
    await ctx.sql('update projects set private = true where id = $1', [project.id]);
    expectError(await call('POST', url, bob), 404, 'project_not_found');
    expectError(await call('DELETE', url, bob), 404, 'project_not_found');
    expect((await call('POST', url, alice)).statusCode).toBe(200);
    expect(await subscriptionsOf(project.id)).toEqual([{ user_id: alice.userId }]);

    expect((await call('POST', `/projects/${project.slug}/archive`, alice)).statusCode).toBe(200);
    expectError(await call('POST', url, carol), 404, 'project_not_found');
    await ctx.sql('update projects set private = false where id = $1', [project.id]);
    expectError(await call('POST', url, carol), 409, 'project_archived');
    expect((await call('DELETE', url, alice)).statusCode).toBe(204);
    expect(await subscriptionsOf(project.id)).toEqual([]);
    expectError(await call('POST', '/projects/nope-nope/subscribe', bob), 404, 'project_not_found');
  });
});

describe('GET /projects/:slug/runs/:runId/artifact', () => {
  const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
  const tarball = gzipSync(Buffer.from('index.html\0<h1>hello</h1>'));

  async function withArtifact(project: ProjectBody): Promise<string> {
    const runId = randomUUID();
    await ctx.sql(
      `insert into project_runs (id, project_id, status, planner, head_sha, artifact,
         artifact_bytes, created_at, started_at, finished_at)
       values ($1, $2, 'completed', 'deterministic', $3, $4, $5, now(), now(), now())`,
      [runId, project.id, SHA, tarball, tarball.length],
    );
    await ctx.sql(`update projects set status = 'completed', current_run_id = $2 where id = $1`, [
      project.id,
      runId,
    ]);
    return runId;
  }

  it('downloads the gzipped tarball as <slug>-<sha7>.tar.gz and links it from the view', async () => {
    const project = await newProject(alice, { title: 'Shipped' });
    const runId = await withArtifact(project);
    const url = `/projects/${project.slug}/runs/${runId}/artifact`;
    const response = await call('GET', url, null);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/gzip');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${project.slug}-a1b2c3d.tar.gz"`,
    );
    expect(response.rawPayload.equals(tarball)).toBe(true);
    expect(gunzipSync(response.rawPayload).toString()).toBe('index.html\0<h1>hello</h1>');

    const view = (await call('GET', `/projects/${project.slug}`, null)).json<ProjectBody>();
    expect(view.status).toBe('completed');
    expect(view.run).toEqual({
      runId,
      status: 'completed',
      planner: 'deterministic',
      createdAt: expect.stringMatching(ISO),
      startedAt: expect.stringMatching(ISO),
      finishedAt: expect.stringMatching(ISO),
      headSha: SHA,
      reason: null,
      artifactUrl: `${ctx.config.publicBaseUrl}${url}`,
    });
  });

  it('answers 404 artifact_not_found for a run without one, of another project, or malformed', async () => {
    const project = await newProject(alice, { title: 'Not Yet Built' });
    const other = await newProject(alice, { title: 'Other Build' });
    const othersRun = await withArtifact(other);
    const queuedRun = await started(project, alice);
    for (const runId of [queuedRun, othersRun, randomUUID(), 'not-a-uuid', '%00']) {
      expectError(
        await call('GET', `/projects/${project.slug}/runs/${runId}/artifact`, null),
        404,
        'artifact_not_found',
      );
    }
    expectError(
      await call('GET', `/projects/no-such-project/runs/${othersRun}/artifact`, null),
      404,
      'project_not_found',
    );
  });

  it('follows the project’s visibility: private is 401 anonymous, 404 for others', async () => {
    const project = await newProject(alice, { title: 'Private Build' });
    const runId = await withArtifact(project);
    await ctx.sql('update projects set private = true where id = $1', [project.id]);
    const url = `/projects/${project.slug}/runs/${runId}/artifact`;
    expectError(await call('GET', url, null), 401, 'unauthenticated');
    expectError(await call('GET', url, bob), 404, 'project_not_found');
    expect((await call('GET', url, alice)).statusCode).toBe(200);
  });
});

describe('GET /me/projects', () => {
  it('pages through the caller’s projects, newest first, archived included', async () => {
    const ivan = await signIn(app);
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
      await ctx.sql<{ slug: string }>(
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
