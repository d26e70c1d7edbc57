import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Client } from '@temporalio/client';
import type { Config } from '../../../shared/config';
import { Project, ProjectSubscription } from '../../../shared/db/entities';
import { AGENT_TEMPLATES, type ProjectStatus } from '../../../shared/db/entities/project';
import type { EntityManager } from '../../../shared/db/orm';
import { sqlOf, statement, type Sql } from '../../../shared/db/sql';
import type { CursorCodec } from '../../../shared/domain/cursor';
import { featuresOf } from '../../../shared/domain/tiers';
import { slugify, suffixedSlug } from '../../../shared/domain/slug';
import { AppError } from '../../../shared/errors';
import { entitledTier } from '../../../shared/subscriptions/entitlements';
import type { Actor } from '../../access/actor';
import { ownedToken } from '../tokens/access';
import { ownedProject, viewableProject } from './access';
import type { CreateProjectInput, ProjectSlugInput, ProjectView } from './schemas';
import { currentView } from './views';

/**
 * Projects as their owners manage them (spec "Projects", docs/spec/contract.md §7); runs are
 * in `runs.ts`, the reads in `views.ts`, the artifact in `artifact.ts`.
 */

export interface ProjectDeps {
  /** Writes: the request's EntityManager. */
  em: EntityManager;
  /** Reads (a write's response is read back through them too): prepared statements. */
  db: Sql;
  cursors: CursorCodec;
  config: Pick<Config, 'publicBaseUrl' | 'temporal' | 'build'>;
  temporal: Client;
}

type ProjectServiceDeps = Pick<ProjectDeps, 'em' | 'db' | 'config'>;

/** Statuses in which no run is under way: the project may start a run or be archived. */
export const AT_REST: ProjectStatus[] = ['idle', 'completed', 'failed', 'canceled'];

const SLUG_ATTEMPTS = 5;

const shown = (value: string) =>
  JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);

/** The constraint a unique violation hit (node-postgres reports it; MikroORM copies it). */
function constraintOf(error: UniqueConstraintViolationException): string | undefined {
  return (error as { constraint?: string }).constraint;
}

async function checkPrivateAllowed(em: EntityManager, userId: number): Promise<void> {
  if (featuresOf(await entitledTier(em, userId)).privateProjects) return;
  throw new AppError(
    'feature_not_in_tier',
    'private: private projects need the max tier (GET /me/subscription)',
  );
}

/**
 * Creates an idle project after every check, in one INSERT, so a refused request writes
 * nothing. "One project per token that is not archived" is decided by the partial unique
 * index, not by a prior read, so concurrent creations on one token give exactly one project.
 */
export async function createProject(
  deps: ProjectServiceDeps,
  actor: Actor,
  input: CreateProjectInput,
): Promise<ProjectView> {
  const { userId } = actor;
  const template = AGENT_TEMPLATES.find((known) => known === input.agentTemplate);
  if (!template) {
    throw new AppError(
      'template_unknown',
      `agentTemplate: ${shown(input.agentTemplate)} is not a preset (${AGENT_TEMPLATES.join(', ')})`,
    );
  }
  const token = await ownedToken(deps.em, actor, input.tokenSlug);
  if (input.private) await checkPrivateAllowed(deps.em, userId);
  const id = randomUUID();
  const now = new Date();
  const base = slugify(input.title, 'project');
  let slug = base;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await deps.em.insert(Project, {
        id,
        owner: userId,
        token: token.id,
        slug,
        title: input.title,
        brief: input.brief,
        agentTemplate: template,
        private: input.private,
        status: 'idle',
        currentRunId: null,
        lastEventSeq: 0,
        createdAt: now,
        updatedAt: now,
        archivedAt: null,
      });
      break;
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      if (constraintOf(error) === 'projects_token_active_unique') {
        throw new AppError(
          'project_locked',
          `tokenSlug: token ${token.slug} already has an active project; archive it first`,
        );
      }
      if (constraintOf(error) !== 'projects_slug_unique' || attempt >= SLUG_ATTEMPTS) throw error;
      slug = suffixedSlug(base);
    }
  }
  return currentView(deps, slug);
}

/**
 * Archives a project at rest, which frees its token for a new project. Idempotent: an archived
 * project is returned as it is. A queued or running project must be canceled first.
 */
export async function archiveProject(
  deps: ProjectServiceDeps,
  actor: Actor,
  input: ProjectSlugInput,
): Promise<ProjectView> {
  const project = await ownedProject(deps.em, actor, input.slug);
  if (project.status !== 'archived') {
    const now = new Date();
    // Conditional, so a run started meanwhile is never archived from under its workflow.
    const archived = await deps.em.nativeUpdate(
      Project,
      { id: project.id, status: { $in: AT_REST } },
      { status: 'archived', archivedAt: now, updatedAt: now },
    );
    const current = await deps.em.refreshOrFail(project);
    if (archived === 0 && current.status !== 'archived') {
      throw new AppError(
        'run_in_progress',
        `project ${current.slug} has a run ${current.status}; cancel it first`,
      );
    }
  }
  return currentView(deps, project.slug);
}

/** A project whose milestones the caller may follow: one they can see, not archived. */
async function followable(em: EntityManager, actor: Actor, slug: string): Promise<Project> {
  const project = await viewableProject(em, actor, slug);
  if (project.status === 'archived') {
    throw new AppError('project_archived', `project ${project.slug} is archived`);
  }
  return project;
}

/** A subscription, unless the user already has it. */
const insertSubscription = statement<
  Record<string, never>,
  [projectId: string, userId: number, createdAt: Date]
>(
  'projects.subscribe',
  `insert into project_subscriptions (project_id, user_id, created_at) values ($1, $2, $3)
   on conflict (project_id, user_id) do nothing`,
);

/** Idempotent: subscribing twice keeps the one subscription. */
export async function subscribe(
  deps: Pick<ProjectDeps, 'em'>,
  actor: Actor,
  input: ProjectSlugInput,
) {
  const project = await followable(deps.em, actor, input.slug);
  await sqlOf(deps.em).run(insertSubscription, [project.id, actor.userId, new Date()]);
  return { subscribed: true as const };
}

/** Idempotent; allowed on an archived project too (its subscribers may want out). */
export async function unsubscribe(
  deps: Pick<ProjectDeps, 'em'>,
  actor: Actor,
  input: ProjectSlugInput,
): Promise<void> {
  const project = await viewableProject(deps.em, actor, input.slug);
  await deps.em.nativeDelete(ProjectSubscription, { project: project.id, user: actor.userId });
}
