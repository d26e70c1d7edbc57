import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { Project, ProjectRun } from '../../../shared/db/entities';
import type { ProjectStatus } from '../../../shared/db/entities/project';
import type { RunStatus } from '../../../shared/db/entities/project-run';
import type { Tier } from '../../../shared/db/entities/subscription';
import type { EntityManager } from '../../../shared/db/orm';
import { sqlOf, statement } from '../../../shared/db/sql';
import { featuresOf } from '../../../shared/domain/tiers';
import {
  AppError,
  DependencyUnavailableError,
  TEMPORAL_RETRY_AFTER_SECONDS,
} from '../../../shared/errors';
import { entitledTierSql } from '../../../shared/subscriptions/entitlements';
import {
  projectBuildSignals,
  workflowIds,
  workflowTypes,
  type ProjectBuildInput,
} from '../../../shared/temporal';
import { buildTaskQueue, type BuildLane } from '../../../shared/temporal/task-queues';
import { searchAttributes } from '../../../shared/temporal/search-attributes';
import {
  startWithDeadline,
  withTemporalDeadline,
} from '../../../shared/temporal/start-with-deadline';
import { cancelPendingOfRun } from '../../../shared/projects/approval-store';
import type { Actor } from '../../access/actor';
import { ownedProject } from './access';
import type { ProjectSlugInput } from './schemas';
import { AT_REST, type ProjectDeps } from './service';

/**
 * Starting and canceling a project's build run (docs/spec/contract.md §7). The API writes the run, starts
 * or signals its `project-build:<projectId>:<runId>` workflow and returns; it never waits for
 * the build.
 */

type RunServiceDeps = Pick<ProjectDeps, 'em' | 'config' | 'temporal'>;

interface Previous {
  status: ProjectStatus;
  currentRunId: string | null;
  updatedAt: Date;
}

function unavailable(): AppError {
  return new DependencyUnavailableError(
    'temporal',
    'The build service is unreachable; try again later',
    TEMPORAL_RETRY_AFTER_SECONDS,
  );
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
 * The build lane of a run (docs/decisions.md "Build lanes"): `dedicated` with
 * `dedicatedRuntime` (max), `priority` with `priorityQueue` (plus, pro), else `standard`. It is
 * the project owner's tier that counts: only the owner can start a run, and the lane is a
 * feature of the subscription the project's owner pays for.
 */
export function buildLaneOf(tier: Tier | null): BuildLane {
  const features = featuresOf(tier);
  if (features.dedicatedRuntime) return 'dedicated';
  if (features.priorityQueue) return 'priority';
  return 'standard';
}

/** The project as a start finds it, locked, with its owner's entitled tier. */
interface StartingProjectRow {
  status: ProjectStatus;
  currentRunId: string | null;
  updatedAt: Date;
  tier: Tier | null;
}
const lockProjectToStart = statement<StartingProjectRow, [ownerId: number, projectId: string]>(
  'projects.lock_to_start',
  `select status, current_run_id as "currentRunId", updated_at as "updatedAt",
          ${entitledTierSql('$1::int')} as tier
     from projects where id = $2 for update`,
);

/** A run's status, its row locked (runs are locked before their project). */
interface RunStatusRow {
  status: RunStatus;
}
const lockRunStatus = statement<RunStatusRow, [runId: string]>(
  'projects.lock_run_status',
  'select status from project_runs where id = $1 for update',
);

/** Locks a run row, in the order every writer locks (the run before its project). */
const lockRun = statement<{ id: string }, [runId: string]>(
  'projects.lock_run',
  'select id from project_runs where id = $1 for update',
);

/** An active run canceled without its workflow, with the reason for the status it had. */
const cancelRunRow = statement<
  Record<string, never>,
  [finishedAt: Date, queuedReason: string, runningReason: string, runId: string]
>(
  'projects.cancel_orphaned_run',
  `update project_runs set status = 'canceled', finished_at = $1,
          reason = case status when 'queued' then $2::text else $3::text end
    where id = $4 and status in ('queued', 'running')`,
);

/**
 * Queues a run in one transaction: the project row is locked, moved to `queued` by a
 * conditional update (only from a status at rest) and the run row inserted. Concurrent starts
 * serialise on the lock, so exactly one wins; the others see `queued`. The owner's entitled
 * tier is read by the locking statement itself (no extra round trip), so the lane is decided
 * by the subscription as it is at the start.
 */
async function queueRun(
  em: EntityManager,
  project: Project,
  runId: string,
): Promise<{ before: Previous; lane: BuildLane }> {
  return em.transactional(async (tx) => {
    const row = await sqlOf(tx).row(lockProjectToStart, [project.owner.id, project.id]);
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
    return {
      before: { status: row.status, currentRunId: row.currentRunId, updatedAt: row.updatedAt },
      lane: buildLaneOf(row.tier),
    };
  });
}

/**
 * Undoes `queueRun` after a start whose answer never came. The start may have reached Temporal
 * all the same, and its workflow may already have begun the run: then the run is kept ('began')
 * and nothing is undone. A run still queued is deleted and the project put back ('undone'); if
 * its workflow exists after all, its begin finds no row and it ends without a trace. The run
 * row is locked before the project, in the order the worker's begin and finish lock them, so
 * the two never deadlock.
 */
async function unqueueRun(
  em: EntityManager,
  projectId: string,
  runId: string,
  before: Previous,
): Promise<'undone' | 'began'> {
  return em.transactional(async (tx) => {
    const run = await sqlOf(tx).row(lockRunStatus, [runId]);
    if (run && run.status !== 'queued') return 'began';
    await tx.nativeDelete(ProjectRun, { id: runId, status: 'queued' });
    await tx.nativeUpdate(
      Project,
      { id: projectId, currentRunId: runId, status: 'queued' },
      { status: before.status, currentRunId: before.currentRunId, updatedAt: before.updatedAt },
    );
    return 'undone';
  });
}

export async function startRun(
  deps: RunServiceDeps,
  actor: Actor,
  { slug }: ProjectSlugInput,
): Promise<{ runId: string }> {
  const project = await ownedProject(deps.em, actor, slug);
  if (!AT_REST.includes(project.status)) throw notStartable(project, project.status);
  const runId = randomUUID();
  const { before, lane } = await queueRun(deps.em, project, runId);
  const input: ProjectBuildInput = {
    projectId: project.id,
    runId,
    paceMs: deps.config.build.paceMs,
    lane,
  };
  const outcome = await startWithDeadline(deps.temporal, workflowTypes.projectBuild, {
    workflowId: workflowIds.projectBuild(project.id, runId),
    // The run stays on its lane's queue for life: a later change of tier moves later runs.
    taskQueue: buildTaskQueue(deps.config.temporal.taskQueue, lane),
    args: [input],
    typedSearchAttributes: searchAttributes({ userId: actor.userId, projectId: project.id }),
  });
  if (!('error' in outcome)) return { runId };
  // Refused or unanswered, the undo is the same: a refused start left the run queued, so it is
  // undone; a lost answer is not a failed start: if the workflow already began the run, it stands.
  if ((await unqueueRun(deps.em, project.id, runId, before)) === 'began') return { runId };
  throw Object.assign(unavailable(), { cause: outcome.error });
}

/** Why a run whose workflow was gone (or never started) was canceled, by its status then. */
const ORPHANED_RUN_REASONS = {
  queued: 'the build never started',
  running: 'the build stopped responding',
} as const;

/**
 * Cancels a run that has no workflow although its project says it is queued or running: the
 * API died between queueing the run and starting its workflow, or the workflow was terminated.
 * Without this the project could never be started, canceled or archived again. One
 * transaction, conditional on the project still pointing at this active run; the run row is
 * locked first, in the worker's order. Returns false when there was nothing to cancel (the
 * workflow had finished the run meanwhile). No event is appended: the run never logged any.
 */
async function cancelOrphanedRun(
  em: EntityManager,
  projectId: string,
  runId: string,
): Promise<boolean> {
  return em.transactional(async (tx) => {
    const sql = sqlOf(tx);
    await sql.run(lockRun, [runId]);
    const now = new Date();
    const canceled = await tx.nativeUpdate(
      Project,
      { id: projectId, currentRunId: runId, status: { $in: ['queued', 'running'] } },
      { status: 'canceled', updatedAt: now },
    );
    if (canceled === 0) return false;
    await sql.run(cancelRunRow, [
      now,
      ORPHANED_RUN_REASONS.queued,
      ORPHANED_RUN_REASONS.running,
      runId,
    ]);
    return true;
  });
}

/**
 * Asks the current run's workflow to stop; the workflow finishes the run as `canceled`.
 * Repeating it while the run winds down is harmless (the signal is idempotent). A run without
 * a workflow is canceled here at once, so the owner can always get the project back.
 */
export async function cancelRun(
  deps: RunServiceDeps,
  actor: Actor,
  input: ProjectSlugInput,
): Promise<{ runId: string; cancelRequested: true }> {
  const project = await ownedProject(deps.em, actor, input.slug);
  const runId = project.currentRunId;
  const active = project.status === 'queued' || project.status === 'running';
  const noActiveRun = () =>
    new AppError('no_active_run', `project ${project.slug} has no queued or running run`);
  if (!active || !runId) throw noActiveRun();
  const handle = deps.temporal.workflow.getHandle(workflowIds.projectBuild(project.id, runId));
  try {
    await withTemporalDeadline(deps.temporal, () => handle.signal(projectBuildSignals.cancel));
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) {
      throw Object.assign(unavailable(), { cause: error });
    }
    // Either the workflow ended between our read and the signal (its finish already put the
    // project at rest: nothing to cancel), or it never existed.
    if (!(await cancelOrphanedRun(deps.em, project.id, runId))) throw noActiveRun();
    // No workflow will end its wait: what the run had pending is canceled here.
    await cancelPendingOfRun(deps.em, runId, deps.config.publicBaseUrl);
  }
  return { runId, cancelRequested: true };
}
