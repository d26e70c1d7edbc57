import type { Config } from '../../../shared/config';
import type { Sql } from '../../../shared/db/sql';
import { projectPageUrl, runArtifactUrl } from '../../../shared/projects/urls';
import type { Actor } from '../../access/actor';
import { keyset } from '../../paging/keyset';
import { pageScope } from '../../paging/page';
import { looksLikeSlug } from '../../wire';
import { assertViewable, projectNotFound } from './access';
import { OWN_PROJECTS_ORDER, ownProjectsPage, projectBySlug, type ProjectRow } from './queries';
import {
  RUN_PLANNERS,
  type ProjectPageInput,
  type ProjectSlugInput,
  type ProjectView,
  type RunPlanner,
  type RunView,
} from './schemas';
import type { ProjectDeps } from './service';

/** Projects as the API shows them, each read in one statement (`queries.ts`). */

type ProjectReadDeps = Pick<ProjectDeps, 'db'> & { config: Pick<Config, 'publicBaseUrl'> };

export function streamUrl(config: Pick<Config, 'publicBaseUrl'>, slug: string): string {
  return `${config.publicBaseUrl}/projects/${slug}/stream`;
}

/** Only the three planners are ever written; anything else is a broken row, not a value. */
function plannerOf(runId: string, planner: string | null): RunPlanner {
  const known = RUN_PLANNERS.find((candidate) => candidate === planner);
  if (!known) throw new Error(`run ${runId} has an unknown planner ${planner}`);
  return known;
}

function runView(config: Pick<Config, 'publicBaseUrl'>, row: ProjectRow): RunView | null {
  if (row.runId === null || row.runStatus === null || row.runCreatedAt === null) return null;
  return {
    runId: row.runId,
    status: row.runStatus,
    planner: plannerOf(row.runId, row.runPlanner),
    createdAt: row.runCreatedAt,
    startedAt: row.runStartedAt,
    finishedAt: row.runFinishedAt,
    headSha: row.runHeadSha,
    reason: row.runReason,
    artifactUrl: row.runHasArtifact
      ? runArtifactUrl(config.publicBaseUrl, row.slug, row.runId)
      : null,
  };
}

export function projectView(config: Pick<Config, 'publicBaseUrl'>, row: ProjectRow): ProjectView {
  return {
    id: row.id,
    slug: row.slug,
    tokenSlug: row.tokenSlug,
    title: row.title,
    brief: row.brief,
    agentTemplate: row.agentTemplate,
    private: row.private,
    status: row.status,
    pendingApproval: row.pendingApproval,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    archivedAt: row.archivedAt,
    lastEventId: Number(row.lastEventSeq),
    streamUrl: streamUrl(config, row.slug),
    pageUrl: projectPageUrl(config.publicBaseUrl, row.slug),
    run: runView(config, row),
  };
}

async function rowBySlug(db: Sql, slug: string): Promise<ProjectRow> {
  // Anything that cannot be a slug (a NUL byte, say) never reaches PostgreSQL.
  const row = looksLikeSlug(slug) ? await db.row(projectBySlug, [slug]) : undefined;
  if (!row) throw projectNotFound(slug);
  return row;
}

/** A project the actor may see (a private one: its owner only), as the API shows it. */
export async function viewProject(
  deps: ProjectReadDeps,
  actor: Actor | null,
  input: ProjectSlugInput,
): Promise<ProjectView> {
  const { slug } = input;
  const row = await rowBySlug(deps.db, slug);
  assertViewable(row, slug, actor);
  return projectView(deps.config, row);
}

/** The project as it is now, after its owner changed it (the write is committed). */
export async function currentView(deps: ProjectReadDeps, slug: string): Promise<ProjectView> {
  return projectView(deps.config, await rowBySlug(deps.db, slug));
}

/** The caller's projects, archived ones included, newest first, keyset-paged. */
export async function listOwnProjects(
  deps: ProjectReadDeps & Pick<ProjectDeps, 'cursors'>,
  actor: Actor,
  request: ProjectPageInput,
): Promise<{ items: ProjectView[]; nextCursor: string | null }> {
  const { userId } = actor;
  const page = keyset(deps.cursors, OWN_PROJECTS_ORDER, {
    scope: pageScope('my-projects', { userId }),
    cursor: request.cursor,
    limit: request.limit,
  });
  const rows = await deps.db.rows(ownProjectsPage, [userId, ...page.after, page.fetch]);
  const { items, nextCursor } = page.page(rows);
  return { items: items.map((row) => projectView(deps.config, row)), nextCursor };
}
