import { buildApp } from '../../api/app';
import { createTemporalClient } from '../../shared/temporal';
import { buildTaskQueue } from '../../shared/temporal/task-queues';
import { signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import { ISO, UUID, type ProjectBody, projectsFixtures } from '../helpers/projects-http-fixtures';

/**
 * Starting, canceling and archiving project runs (spec "Projects", docs/spec/contract.md §7)
 * against a real Temporal server: no worker runs here, so a started workflow stays queued.
 */

let alice: SignedIn;
let bob: SignedIn;

const test = useTestApp({ env: UNLIMITED_RATES });
const { call, projectBody, newProject, projectRow, runIdsOf, workflowOf, start, started } =
  projectsFixtures(test);
beforeAll(async () => {
  [alice, bob] = await Promise.all([signIn(test.app), signIn(test.app)]);
});

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
      buildTaskQueue(test.ctx.config.temporal.taskQueue, 'standard'),
    );
    expect(workflow.description.status.name).toBe('RUNNING');
    expect(workflow.input).toEqual([
      { projectId: project.id, runId, paceMs: test.ctx.config.build.paceMs, lane: 'standard' },
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
    await test.ctx.sql(`update projects set status = 'running' where id = $1`, [project.id]);
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
      await test.ctx.sql('update projects set status = $2 where id = $1', [project.id, ended]);
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
    await test.ctx.sql('update projects set private = true where id = $1', [project.id]);
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
    await test.ctx.sql(`update projects set status = 'completed' where id = $1`, [project.id]);
    const before = await projectRow(project.id);

    const deadTemporal = createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });
    const broken = buildApp({ ...test.ctx.deps, temporal: deadTemporal });
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
    await test.ctx.sql(`update projects set status = 'canceled' where id = $1`, [project.id]);
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
    await test.ctx.sql('update projects set private = true where id = $1', [project.id]);
    expectError(
      await call('POST', `/projects/${project.slug}/archive`, bob),
      404,
      'project_not_found',
    );
    expect((await projectRow(project.id))?.status).toBe('idle');
  });
});
