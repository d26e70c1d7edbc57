import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import { ISO, type ProjectBody, projectsFixtures } from '../helpers/projects-http-fixtures';

/**
 * Milestone subscriptions to projects and artifact downloads (spec "Projects",
 * docs/spec/contract.md §7).
 */

let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;

const test = useTestApp({ env: UNLIMITED_RATES });
const { call, newProject, started } = projectsFixtures(test);
beforeAll(async () => {
  [alice, bob, carol] = await Promise.all([signIn(test.app), signIn(test.app), signIn(test.app)]);
});

describe('/projects/:slug/subscribe', () => {
  const subscriptionsOf = (projectId: string) =>
    test.ctx.sql<{ user_id: number }>(
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
    const document = (await test.app.inject({ method: 'GET', url: '/openapi.json' })).json();
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
    await test.ctx.sql('update projects set private = true where id = $1', [project.id]);
    expectError(await call('POST', url, bob), 404, 'project_not_found');
    expectError(await call('DELETE', url, bob), 404, 'project_not_found');
    expect((await call('POST', url, alice)).statusCode).toBe(200);
    expect(await subscriptionsOf(project.id)).toEqual([{ user_id: alice.userId }]);

    expect((await call('POST', `/projects/${project.slug}/archive`, alice)).statusCode).toBe(200);
    expectError(await call('POST', url, carol), 404, 'project_not_found');
    await test.ctx.sql('update projects set private = false where id = $1', [project.id]);
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
    await test.ctx.sql(
      `insert into project_runs (id, project_id, status, planner, head_sha, artifact,
         artifact_bytes, created_at, started_at, finished_at)
       values ($1, $2, 'completed', 'deterministic', $3, $4, $5, now(), now(), now())`,
      [runId, project.id, SHA, tarball, tarball.length],
    );
    await test.ctx.sql(
      `update projects set status = 'completed', current_run_id = $2 where id = $1`,
      [project.id, runId],
    );
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
      artifactUrl: `${test.ctx.config.publicBaseUrl}${url}`,
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
    await test.ctx.sql('update projects set private = true where id = $1', [project.id]);
    const url = `/projects/${project.slug}/runs/${runId}/artifact`;
    expectError(await call('GET', url, null), 401, 'unauthenticated');
    expectError(await call('GET', url, bob), 404, 'project_not_found');
    expect((await call('GET', url, alice)).statusCode).toBe(200);
  });
});
