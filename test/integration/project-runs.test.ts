import { randomUUID } from 'node:crypto';
import type { Client, WorkflowClient, WorkflowHandle } from '@temporalio/client';
import type { App } from '../../api/app';
import { buildApp } from '../../api/app';
import { workflowIds } from '../../shared/temporal';
import { signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import { insertProject } from '../helpers/project-fixtures';

/**
 * Starting and canceling runs when Temporal's answer and the database disagree (docs/spec/contract.md §7
 * "Start", "Cancel"): a start whose answer is lost although it reached Temporal, and a run
 * whose workflow was never started. A real Temporal server; no worker runs here, so the
 * worker's begin is done by SQL exactly as `beginRun` writes it.
 */

type Reply = Awaited<ReturnType<App['inject']>>;

let alice: SignedIn;

const test = useTestApp({ env: UNLIMITED_RATES });
beforeAll(async () => {
  alice = await signIn(test.app);
});

interface ProjectRow {
  status: string;
  current_run_id: string | null;
}

/** A project of alice's in `status` whose current run (if any) is `runId`. */
function createProject(status = 'idle', runId: string | null = null) {
  return insertProject(test.ctx, { ownerId: alice.userId, status, runId });
}

async function insertRun(projectId: string, status: 'queued' | 'running'): Promise<string> {
  const runId = randomUUID();
  await test.ctx.sql(
    `insert into project_runs (id, project_id, status, planner, created_at, started_at)
     values ($1, $2, $3, $4, now(), $5)`,
    [
      runId,
      projectId,
      status,
      status === 'queued' ? 'pending' : 'deterministic',
      status === 'queued' ? null : new Date(),
    ],
  );
  return runId;
}

async function projectRow(id: string): Promise<ProjectRow | undefined> {
  const [row] = await test.ctx.sql<{ status: string; current_run_id: string | null }>(
    'select status, current_run_id from projects where id = $1',
    [id],
  );
  return row;
}

async function runRows(projectId: string) {
  return test.ctx.sql<{ id: string; status: string; reason: string | null; finished: boolean }>(
    `select id, status, reason, finished_at is not null as finished from project_runs
     where project_id = $1 order by created_at`,
    [projectId],
  );
}

/** What the worker's begin activity writes (workers/build/lifecycle.ts beginRun). */
async function beginLikeTheWorker(projectId: string, runId: string): Promise<void> {
  await test.ctx.sql(
    `update project_runs set status = 'running', started_at = now(), planner = 'deterministic'
     where id = $1 and status = 'queued'`,
    [runId],
  );
  await test.ctx.sql(
    `update projects set status = 'running', updated_at = now()
     where id = $1 and current_run_id = $2 and status = 'queued'`,
    [projectId, runId],
  );
}

/**
 * The real client, except that `workflow.start` loses its answer: the workflow is started,
 * `meanwhile` runs (what happens while the answer is under way), then the call fails.
 */
function losingStartAnswers(real: Client, meanwhile: (workflowId: string) => Promise<void>) {
  const start = async (...args: Parameters<WorkflowClient['start']>): Promise<never> => {
    const handle: WorkflowHandle = await real.workflow.start(...args);
    await meanwhile(handle.workflowId);
    throw new Error('Deadline exceeded');
  };
  const workflow = new Proxy(real.workflow, {
    get: (target, property) => {
      if (property === 'start') return start;
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
  return new Proxy(real, {
    get: (target, property): unknown =>
      property === 'workflow' ? workflow : (Reflect.get(target, property) as unknown),
  });
}

/** `project-build:<projectId>:<runId>` → runId (a UUID has no colon). */
const runIdOf = (workflowId: string) => workflowId.split(':').at(-1)!;

async function withTemporal<T>(temporal: Client, use: (api: App) => Promise<T>): Promise<T> {
  const api = buildApp({ ...test.ctx.deps, temporal });
  try {
    return await use(api);
  } finally {
    await api.close();
  }
}

function post(url: string, api = test.app): Promise<Reply> {
  return api.inject({ method: 'POST', url, headers: { cookie: alice.cookie } });
}

describe('a start whose answer is lost', () => {
  it('keeps the run and answers 200 when its workflow already began it', async () => {
    const project = await createProject();
    const temporal = losingStartAnswers(test.ctx.deps.temporal, (workflowId) =>
      beginLikeTheWorker(project.id, runIdOf(workflowId)),
    );
    const response = await withTemporal(temporal, (api) =>
      post(`/projects/${project.slug}/start`, api),
    );
    expect(response.statusCode).toBe(200);
    const { runId } = response.json<{ runId: string }>();
    expect(response.json()).toEqual({ runId: expect.any(String) });
    expect(await projectRow(project.id)).toEqual({ status: 'running', current_run_id: runId });
    expect(await runRows(project.id)).toEqual([
      { id: runId, status: 'running', reason: null, finished: false },
    ]);
    const handle = test.ctx.deps.temporal.workflow.getHandle(
      workflowIds.projectBuild(project.id, runId),
    );
    expect((await handle.describe()).status.name).toBe('RUNNING');
    // The project is not wedged: the run can be canceled through its workflow.
    const cancel = await post(`/projects/${project.slug}/cancel`);
    expect({ status: cancel.statusCode, body: cancel.json() }).toEqual({
      status: 200,
      body: { runId, cancelRequested: true },
    });
  });

  it('undoes a start whose run is still queued: 503, run deleted, project restored', async () => {
    const project = await createProject();
    let startedRun = '';
    const temporal = losingStartAnswers(test.ctx.deps.temporal, async (workflowId) => {
      startedRun = runIdOf(workflowId);
    });
    const response = await withTemporal(temporal, (api) =>
      post(`/projects/${project.slug}/start`, api),
    );
    expectError(
      response,
      503,
      'service_unavailable',
      'The build service is unreachable; try again later',
    );
    expect(startedRun).not.toBe('');
    expect(await projectRow(project.id)).toEqual({ status: 'idle', current_run_id: null });
    expect(await runRows(project.id)).toEqual([]);
    // Starting again works; the undone run's workflow would find no row and end untouched.
    expect((await post(`/projects/${project.slug}/start`)).statusCode).toBe(200);
  });
});

describe('canceling a run whose workflow does not exist', () => {
  it('cancels a queued run that never got its workflow, and the project can start again', async () => {
    const project = await createProject('queued');
    const runId = await insertRun(project.id, 'queued');
    await test.ctx.sql('update projects set current_run_id = $2 where id = $1', [
      project.id,
      runId,
    ]);
    // Stuck before the fix: start and archive refuse a queued project.
    expectError(await post(`/projects/${project.slug}/start`), 409, 'run_in_progress');

    const response = await post(`/projects/${project.slug}/cancel`);
    expect({ status: response.statusCode, body: response.json() }).toEqual({
      status: 200,
      body: { runId, cancelRequested: true },
    });
    expect(await projectRow(project.id)).toEqual({ status: 'canceled', current_run_id: runId });
    expect(await runRows(project.id)).toEqual([
      { id: runId, status: 'canceled', reason: 'the build never started', finished: true },
    ]);
    const events = await test.ctx.sql('select seq from project_events where project_id = $1', [
      project.id,
    ]);
    expect(events).toEqual([]);

    expectError(
      await post(`/projects/${project.slug}/cancel`),
      409,
      'no_active_run',
      `project ${project.slug} has no queued or running run`,
    );
    const restart = await post(`/projects/${project.slug}/start`);
    expect(restart.statusCode).toBe(200);
    expect((await projectRow(project.id))?.status).toBe('queued');
  });

  it('cancels a running run whose workflow is gone, and the project can be archived', async () => {
    const project = await createProject('running');
    const runId = await insertRun(project.id, 'running');
    await test.ctx.sql('update projects set current_run_id = $2 where id = $1', [
      project.id,
      runId,
    ]);
    const response = await post(`/projects/${project.slug}/cancel`);
    expect(response.statusCode).toBe(200);
    expect(await runRows(project.id)).toEqual([
      { id: runId, status: 'canceled', reason: 'the build stopped responding', finished: true },
    ]);
    const archived = await post(`/projects/${project.slug}/archive`);
    expect(archived.statusCode).toBe(200);
    expect(archived.json<{ status: string }>().status).toBe('archived');
  });

  it('frees a project left pointing at a run row that no longer exists', async () => {
    const runId = randomUUID();
    const project = await createProject('running', runId);
    const response = await post(`/projects/${project.slug}/cancel`);
    expect({ status: response.statusCode, body: response.json() }).toEqual({
      status: 200,
      body: { runId, cancelRequested: true },
    });
    expect(await projectRow(project.id)).toEqual({ status: 'canceled', current_run_id: runId });
    expect((await post(`/projects/${project.slug}/start`)).statusCode).toBe(200);
  });
});
