import { defaultPayloadConverter } from '@temporalio/client';
import type { App } from '../../api/app';
import { workflowIds } from '../../shared/temporal';
import type { SignedIn } from './auth';
import type { TestApp } from './context';
import { dpnmTokenBody } from './token-bodies';

/**
 * Projects over HTTP as the split projects-*.test.ts files drive them: the wire shapes, and
 * tokens, projects, runs and their workflows made through the API of `test` (the file's world
 * from `useTestApp`) or read from its database and Temporal.
 */

export type Reply = Awaited<ReturnType<App['inject']>>;

export interface RunBody {
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
export interface ProjectBody {
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

export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const BRIEF = 'A landing page with a waitlist form for the token community.';

/** The helpers of one test file, bound to its world. */
export function projectsFixtures(test: TestApp) {
  let tickers = 0;
  /** A fresh token of `owner`, through the real endpoint; returns its slug. */
  async function newToken(owner: SignedIn): Promise<string> {
    const response = await test.app.inject({
      method: 'POST',
      url: '/tokens',
      headers: { cookie: owner.cookie },
      payload: dpnmTokenBody(
        'Project Token',
        `P${(tickers++).toString(36).toUpperCase().padStart(3, '0')}`,
      ),
    });
    expect(response.statusCode).toBe(201);
    return response.json<{ slug: string }>().slug;
  }

  function call(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    session: SignedIn | null,
    payload?: Record<string, unknown>,
    api = test.app,
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

  async function projectRow(id: string) {
    const [row] = await test.ctx.sql<{
      status: string;
      current_run_id: string | null;
      updated_at: Date;
    }>('select status, current_run_id, updated_at from projects where id = $1', [id]);
    return row;
  }

  async function runIdsOf(projectId: string): Promise<string[]> {
    const rows = await test.ctx.sql<{ id: string }>(
      'select id from project_runs where project_id = $1 order by created_at',
      [projectId],
    );
    return rows.map((row) => row.id);
  }

  /** The build workflow of a run, as Temporal has it. */
  async function workflowOf(projectId: string, runId: string) {
    const handle = test.ctx.deps.temporal.workflow.getHandle(
      workflowIds.projectBuild(projectId, runId),
    );
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

  async function start(project: ProjectBody, session: SignedIn | null, api = test.app) {
    return call('POST', `/projects/${project.slug}/start`, session, undefined, api);
  }

  async function started(project: ProjectBody, session: SignedIn): Promise<string> {
    const response = await start(project, session);
    expect(response.statusCode).toBe(200);
    return response.json<{ runId: string }>().runId;
  }

  return {
    newToken,
    call,
    projectBody,
    newProject,
    projectRow,
    runIdsOf,
    workflowOf,
    start,
    started,
  };
}
