import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Config } from '../../../shared/config';
import { Project, ProjectRun } from '../../../shared/db/entities';
import type { ProjectStatus } from '../../../shared/db/entities/project';
import type { EntityManager } from '../../../shared/db/orm';
import { AppError } from '../../../shared/errors';
import {
  mainTaskQueue,
  projectBuildSignals,
  workflowIds,
  workflowTypes,
  type ProjectBuildInput,
} from '../../../shared/temporal';
import type { Actor } from '../../access/actor';
import { ownedProject } from './access';
import { AT_REST } from './service';

/**
 * Starting and canceling a project's build run (decisions §7). The API writes the run, starts
 * or signals its `project-build:<projectId>:<runId>` workflow and returns; it never waits for
 * the build.
 */

export interface RunServiceDeps {
  em: EntityManager;
  config: Pick<Config, 'temporal' | 'build'>;
  temporal: Client;
}

/** How long one call to Temporal may take (the client would otherwise retry for long). */
export const TEMPORAL_CALL_DEADLINE_MS = 5_000;

interface Previous {
  status: ProjectStatus;
  currentRunId: string | null;
  updatedAt: Date;
}

function unavailable(): AppError {
  return new AppError('service_unavailable', 'The build service is unreachable; try again later');
}

function notStartable(project: { slug: string }, status: ProjectStatus): AppError {
  if (status === 'archived') {
    return new AppError('project_archived', `project ${project.slug} is archived`);
  }
  return new AppError(
    'run_in_progress',
    `project ${project.slug} already has a run ${status}; cancel it or wait for it to end`,
  );
}

/**
 * Queues a run in one transaction: the project row is locked, moved to `queued` by a
 * conditional update (only from a status at rest) and the run row inserted. Concurrent starts
 * serialise on the lock, so exactly one wins; the others see `queued`.
 */
async function queueRun(em: EntityManager, project: Project, runId: string): Promise<Previous> {
  return em.transactional(async (tx) => {
    const [row] = await tx.execute<
      { status: ProjectStatus; current_run_id: string | null; updated_at: Date }[]
    >('select status, current_run_id, updated_at from projects where id = ? for update', [
      project.id,
    ]);
    if (!row) throw new AppError('project_not_found', `project ${project.slug} does not exist`);
    const now = new Date();
    const moved = await tx.nativeUpdate(
      Project,
      { id: project.id, status: { $in: AT_REST } },
      { status: 'queued', currentRunId: runId, updatedAt: now },
    );
    if (moved === 0) throw notStartable(project, row.status);
    await tx.insert(ProjectRun, {
      id: runId,
      project: project.id,
      status: 'queued',
      planner: 'pending',
      headSha: null,
      reason: null,
      artifact: null,
      artifactBytes: null,
      createdAt: now,
      startedAt: null,
      finishedAt: null,
    });
    return { status: row.status, currentRunId: row.current_run_id, updatedAt: row.updated_at };
  });
}

/** Undoes `queueRun` when its workflow could not be started; touches nothing newer. */
async function unqueueRun(em: EntityManager, projectId: string, runId: string, before: Previous) {
  await em.transactional(async (tx) => {
    await tx.nativeUpdate(
      Project,
      { id: projectId, currentRunId: runId, status: 'queued' },
      { status: before.status, currentRunId: before.currentRunId, updatedAt: before.updatedAt },
    );
    await tx.nativeDelete(ProjectRun, { id: runId });
  });
}

export async function startRun(
  deps: RunServiceDeps,
  actor: Actor,
  slug: string,
): Promise<{ runId: string }> {
  const project = await ownedProject(deps.em, slug, actor);
  if (!AT_REST.includes(project.status)) throw notStartable(project, project.status);
  const runId = randomUUID();
  const before = await queueRun(deps.em, project, runId);
  const input: ProjectBuildInput = {
    projectId: project.id,
    runId,
    paceMs: deps.config.build.paceMs,
  };
  try {
    await deps.temporal.connection.withDeadline(Date.now() + TEMPORAL_CALL_DEADLINE_MS, () =>
      deps.temporal.workflow.start(workflowTypes.projectBuild, {
        workflowId: workflowIds.projectBuild(project.id, runId),
        taskQueue: mainTaskQueue(deps.config.temporal.taskQueue),
        args: [input],
      }),
    );
  } catch (error) {
    await unqueueRun(deps.em, project.id, runId, before);
    throw Object.assign(unavailable(), { cause: error });
  }
  return { runId };
}

/**
 * Asks the current run's workflow to stop; the workflow finishes the run as `canceled`.
 * Repeating it while the run winds down is harmless (the signal is idempotent).
 */
export async function cancelRun(
  deps: RunServiceDeps,
  actor: Actor,
  slug: string,
): Promise<{ runId: string; cancelRequested: true }> {
  const project = await ownedProject(deps.em, slug, actor);
  const runId = project.currentRunId;
  const active = project.status === 'queued' || project.status === 'running';
  const noActiveRun = () =>
    new AppError('no_active_run', `project ${project.slug} has no queued or running run`);
  if (!active || !runId) throw noActiveRun();
  const handle = deps.temporal.workflow.getHandle(workflowIds.projectBuild(project.id, runId));
  try {
    await deps.temporal.connection.withDeadline(Date.now() + TEMPORAL_CALL_DEADLINE_MS, () =>
      handle.signal(projectBuildSignals.cancel),
    );
  } catch (error) {
    // The workflow ended between our read and the signal: nothing is left to cancel.
    if (error instanceof WorkflowNotFoundError) throw noActiveRun();
    throw Object.assign(unavailable(), { cause: error });
  }
  return { runId, cancelRequested: true };
}
