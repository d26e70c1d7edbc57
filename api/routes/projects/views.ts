import type { Config } from '../../../shared/config';
import { ProjectRun, Token, type Project } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import { runArtifactUrl } from '../../../shared/projects/urls';
import { RUN_PLANNERS, type ProjectView, type RunPlanner, type RunView } from './schemas';

/** Projects as the API shows them; lists are built in a fixed number of queries. */

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export function streamUrl(config: Pick<Config, 'publicBaseUrl'>, slug: string): string {
  return `${config.publicBaseUrl}/projects/${slug}/stream`;
}

/** Only the three planners are ever written; anything else is a broken row, not a value. */
function plannerOf(run: ProjectRun): RunPlanner {
  const planner = RUN_PLANNERS.find((known) => known === run.planner);
  if (!planner) throw new Error(`run ${run.id} has an unknown planner ${run.planner}`);
  return planner;
}

function runView(
  config: Pick<Config, 'publicBaseUrl'>,
  slug: string,
  run: ProjectRun,
  hasArtifact: boolean,
): RunView {
  return {
    runId: run.id,
    status: run.status,
    planner: plannerOf(run),
    createdAt: run.createdAt.toISOString(),
    startedAt: iso(run.startedAt),
    finishedAt: iso(run.finishedAt),
    headSha: run.headSha ?? null,
    reason: run.reason ?? null,
    artifactUrl: hasArtifact ? runArtifactUrl(config.publicBaseUrl, slug, run.id) : null,
  };
}

/** The views of several projects, in their order. */
export async function projectViews(
  em: EntityManager,
  config: Pick<Config, 'publicBaseUrl'>,
  projects: Project[],
): Promise<ProjectView[]> {
  if (projects.length === 0) return [];
  const tokenIds = [...new Set(projects.map((project) => project.token.id))];
  const runIds = projects.flatMap((project) =>
    project.currentRunId ? [project.currentRunId] : [],
  );
  const tokens = await em.find(Token, { id: { $in: tokenIds } }, { fields: ['id', 'slug'] });
  const runs = runIds.length > 0 ? await em.find(ProjectRun, { id: { $in: runIds } }) : [];
  // The artifact column is lazy (it may be megabytes): only whether it is there is read.
  const withArtifact =
    runIds.length > 0
      ? await em.find(
          ProjectRun,
          { id: { $in: runIds }, artifact: { $ne: null } },
          { fields: ['id'] },
        )
      : [];
  const slugs = new Map(tokens.map((token) => [token.id, token.slug]));
  const runsById = new Map(runs.map((run) => [run.id, run]));
  const artifacts = new Set(withArtifact.map((run) => run.id));
  return projects.map((project) => {
    const run = project.currentRunId ? runsById.get(project.currentRunId) : undefined;
    return {
      id: project.id,
      slug: project.slug,
      tokenSlug: slugs.get(project.token.id) ?? '',
      title: project.title,
      brief: project.brief,
      agentTemplate: project.agentTemplate,
      private: project.private,
      status: project.status,
      createdAt: project.createdAt.toISOString(),
      updatedAt: project.updatedAt.toISOString(),
      archivedAt: iso(project.archivedAt),
      lastEventId: Number(project.lastEventSeq),
      streamUrl: streamUrl(config, project.slug),
      run: run ? runView(config, project.slug, run, artifacts.has(run.id)) : null,
    };
  });
}

export async function projectView(
  em: EntityManager,
  config: Pick<Config, 'publicBaseUrl'>,
  project: Project,
): Promise<ProjectView> {
  const [view] = await projectViews(em, config, [project]);
  if (!view) throw new Error('projectViews returned nothing for one project');
  return view;
}
