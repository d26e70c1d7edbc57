import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../shared/config';
import { sqlOf, statement } from '../../shared/db/sql';
import { enqueueNotification } from '../../shared/notifications/queue';
import { enqueueOutboxEvent } from '../../shared/outbox/outbox';
import { appendProjectEvents } from '../../shared/projects/event-log';
import type { NewProjectEvent } from '../../shared/projects/events';
import { runArtifactUrl } from '../../shared/projects/urls';
import type { EmitterDeps } from './emitter';
import { publishEvents } from './emitter';
import { buildFailure } from './errors';
import { eventKeys } from './journal';
import { plannerFor, type RunRef } from './run-context';
import { Workspace } from './workspace';

export type FinalStatus = 'completed' | 'failed' | 'canceled';

export type LifecycleDeps = EmitterDeps;

/** A run about to begin, locked (the run row before anything else, as every writer locks). */
interface BeginningRunRow {
  status: string;
  slug: string;
  title: string;
}
const lockRunToBegin = statement<BeginningRunRow, [runId: string, projectId: string]>(
  'build.lock_run_to_begin',
  `select r.status, p.slug, p.title from project_runs r join projects p on p.id = r.project_id
    where r.id = $1 and r.project_id = $2 for update of r`,
);

const markRunRunning = statement<Record<string, never>, [planner: string, runId: string]>(
  'build.mark_run_running',
  `update project_runs set status = 'running', started_at = now(), planner = $1 where id = $2`,
);

/** The project follows its run only while the run is still its current one. */
const markProjectRunning = statement<Record<string, never>, [projectId: string, runId: string]>(
  'build.mark_project_running',
  `update projects set status = 'running', updated_at = now()
    where id = $1 and current_run_id = $2 and status = 'queued'`,
);

/** A run about to finish, locked, with what the announcements need of its project. */
interface FinishingRunRow {
  status: string;
  reason: string | null;
  slug: string;
  title: string;
  ownerId: number;
}
const lockRunToFinish = statement<FinishingRunRow, [runId: string, projectId: string]>(
  'build.lock_run_to_finish',
  `select r.status, r.reason, p.slug, p.title, p.owner_id as "ownerId"
     from project_runs r join projects p on p.id = r.project_id
    where r.id = $1 and r.project_id = $2 for update of r`,
);

const finishRunRow = statement<
  Record<string, never>,
  [
    status: FinalStatus,
    reason: string | null,
    headSha: string | null,
    artifact: Buffer | null,
    artifactBytes: number | null,
    runId: string,
  ]
>(
  'build.finish_run',
  `update project_runs set status = $1, reason = $2, finished_at = now(), head_sha = $3,
          artifact = $4, artifact_bytes = $5
    where id = $6`,
);

/** The project at rest again, if this is still its current, active run. */
const finishProject = statement<
  Record<string, never>,
  [status: FinalStatus, projectId: string, runId: string]
>(
  'build.finish_project',
  `update projects set status = $1, updated_at = now()
    where id = $2 and current_run_id = $3 and status in ('queued', 'running')`,
);

interface SubscriberRow {
  userId: number;
}
const projectSubscribers = statement<SubscriberRow, [projectId: string]>(
  'build.project_subscribers',
  `select user_id as "userId" from project_subscriptions where project_id = $1 order by user_id`,
);

/**
 * queued → running: the run gets its planner and start time, the project turns `running` if
 * this is still its current run, subscribers are told, and the git workspace is created.
 * A retry finds the run running and only makes sure the workspace exists. A run whose row
 * is gone (the API undid a start that timed out but reached Temporal) fails without a trace.
 */
export async function beginRun(
  deps: LifecycleDeps,
  { projectId, runId }: RunRef,
): Promise<{ maxTurns: number }> {
  await deps.orm.em.fork().transactional(async (tx) => {
    const sql = sqlOf(tx);
    const run = await sql.row(lockRunToBegin, [runId, projectId]);
    if (!run) throw buildFailure('the run or its project no longer exists', { retryable: false });
    if (run.status === 'running') return;
    if (run.status !== 'queued')
      throw buildFailure(`the run is already ${run.status}`, { retryable: false });
    await sql.run(markRunRunning, [plannerFor(deps.config), runId]);
    await sql.run(markProjectRunning, [projectId, runId]);
    await notifySubscribers(
      tx,
      projectId,
      runId,
      'project.started',
      `Build of "${run.title}" started.`,
      {
        slug: run.slug,
        runId,
      },
    );
  });
  // After the checks: a run whose start the API undid (its row is gone) gets no workspace.
  await new Workspace(deps.config.build.workspaceRoot, projectId, runId).init();
  return { maxTurns: deps.config.build.maxTurns };
}

export interface FinishInput extends RunRef {
  finalStatus: FinalStatus;
  reason: string | null;
}

/**
 * Ends a run in one transaction: the run's final state with its head commit and artifact, the
 * project's status (if this is still its current, active run), the webhook outbox event,
 * subscriber notifications and the final events. Published after commit. A retry after the
 * commit finds the run final and only republishes.
 */
export async function finishRun(
  deps: LifecycleDeps,
  input: FinishInput,
): Promise<{ finalStatus: FinalStatus }> {
  const { projectId, runId } = input;
  const { head, artifact } = await snapshot(deps, projectId, runId);
  const outcome = await deps.orm.em.fork().transactional(async (tx) => {
    const sql = sqlOf(tx);
    const run = await sql.row(lockRunToFinish, [runId, projectId]);
    if (!run) return null;
    let { finalStatus, reason } = input;
    if (run.status === 'queued' || run.status === 'running') {
      await sql.run(finishRunRow, [
        finalStatus,
        reason,
        head?.sha ?? null,
        artifact,
        artifact?.length ?? null,
        runId,
      ]);
      await sql.run(finishProject, [finalStatus, projectId, runId]);
      await announce(tx, deps.config, { ...input, reason }, run, artifact !== null);
    } else {
      // Finished before (a retry after commit): report what was recorded.
      finalStatus = run.status as FinalStatus;
      reason = run.reason;
    }
    const omitted = head && !artifact ? deps.config.build.artifactMaxBytes : null;
    const events = finalEvents(runId, finalStatus, reason, omitted);
    return { finalStatus, stored: await appendProjectEvents(tx, projectId, runId, events) };
  });
  if (!outcome) return { finalStatus: input.finalStatus };
  await publishEvents(deps, projectId, outcome.stored);
  return { finalStatus: outcome.finalStatus };
}

/**
 * The run's last commit and a gzipped tarball of it (`git archive`), read before the
 * transaction so no lock waits on git. Failed and canceled runs keep their partial work too.
 */
async function snapshot(deps: LifecycleDeps, projectId: string, runId: string) {
  const workspace = new Workspace(deps.config.build.workspaceRoot, projectId, runId);
  const head = (await workspace.exists()) ? await workspace.head() : null;
  const artifact = head ? await workspace.archiveHead(deps.config.build.artifactMaxBytes) : null;
  if (head && !artifact) {
    deps.logger.warn(
      { projectId, runId, limit: deps.config.build.artifactMaxBytes },
      'artifact over the size limit, not stored',
    );
  }
  return { head, artifact };
}

/**
 * Before `done`: a note when the artifact was too large to keep, and for a failed run the
 * reason (`error`, not recoverable).
 */
function finalEvents(
  runId: string,
  finalStatus: FinalStatus,
  reason: string | null,
  artifactOmittedAbove: number | null,
): NewProjectEvent[] {
  const events: NewProjectEvent[] = [];
  if (artifactOmittedAbove !== null) {
    events.push({
      key: eventKeys.artifactOmitted(runId),
      type: 'error',
      data: {
        message: `the artifact is larger than ${artifactOmittedAbove} bytes and was not kept`,
        recoverable: true,
      },
    });
  }
  if (finalStatus === 'failed') {
    events.push({
      key: eventKeys.fatalError(runId),
      type: 'error',
      data: { message: reason ?? 'the build failed', recoverable: false },
    });
  }
  events.push({ key: eventKeys.done(runId), type: 'done', data: { runId, finalStatus } });
  return events;
}

/**
 * The webhook (completed, failed; none for canceled) and the subscribers' notifications. The
 * artifact URL is given only when an artifact was stored (there is none without a commit, or
 * over BUILD_ARTIFACT_MAX_BYTES): otherwise it is null, never a link to a 404.
 */
async function announce(
  tx: EntityManager,
  config: Config,
  input: FinishInput,
  project: { slug: string; title: string; ownerId: number },
  artifactStored: boolean,
): Promise<void> {
  const { runId, projectId, finalStatus, reason } = input;
  const artifactUrl = artifactStored
    ? runArtifactUrl(config.publicBaseUrl, project.slug, runId)
    : null;
  if (finalStatus === 'completed') {
    await enqueueOutboxEvent(tx, {
      userId: project.ownerId,
      event: 'project.completed',
      data: { slug: project.slug, artifact_url: artifactUrl },
      dedupeKey: `project.completed:${runId}`,
    });
  } else if (finalStatus === 'failed') {
    await enqueueOutboxEvent(tx, {
      userId: project.ownerId,
      event: 'project.failed',
      data: { slug: project.slug, reason: reason ?? 'the build failed' },
      dedupeKey: `project.failed:${runId}`,
    });
  }
  const texts: Record<FinalStatus, string> = {
    completed: artifactUrl
      ? `Build of "${project.title}" completed: ${artifactUrl}`
      : `Build of "${project.title}" completed.`,
    failed: `Build of "${project.title}" failed: ${reason ?? 'the build failed'}`,
    canceled: `Build of "${project.title}" was canceled.`,
  };
  await notifySubscribers(tx, projectId, runId, `project.${finalStatus}`, texts[finalStatus], {
    slug: project.slug,
    runId,
    ...(finalStatus === 'completed' ? { artifactUrl } : {}),
    ...(finalStatus === 'failed' ? { reason } : {}),
  });
}

async function notifySubscribers(
  tx: EntityManager,
  projectId: string,
  runId: string,
  kind: string,
  text: string,
  data: Record<string, unknown>,
): Promise<void> {
  const subscribers = await sqlOf(tx).rows(projectSubscribers, [projectId]);
  for (const { userId } of subscribers) {
    await enqueueNotification(tx, {
      userId,
      kind,
      text,
      data,
      dedupeKey: `${kind}:${runId}:${userId}`,
    });
  }
}
