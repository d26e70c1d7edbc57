import { Project } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import type { Sql } from '../../../shared/db/sql';
import { AppError } from '../../../shared/errors';
import type { Actor } from '../../access/actor';
import { looksLikeSlug } from '../../wire';
import { streamTargetBySlug, type StreamTargetRow } from './queries';

/**
 * Who may see a project (docs/spec/contract.md §7). A private project exists only for its owner: reads by
 * anyone else are refused without saying whether the slug exists. Every lookup here takes
 * `(em or db, actor, slug)`.
 */

export function projectNotFound(slug: string): AppError {
  const shown = slug.length > 80 ? `${slug.slice(0, 80)}…` : slug;
  return new AppError('project_not_found', `project ${shown} does not exist`);
}

async function bySlug(em: EntityManager, slug: string): Promise<Project> {
  // Anything that cannot be a slug (a NUL byte, say) never reaches PostgreSQL.
  const project = looksLikeSlug(slug) ? await em.findOne(Project, { slug }) : null;
  if (!project) throw projectNotFound(slug);
  return project;
}

/** Metadata reads: a private project is 401 `unauthenticated` anonymously, 404 for others. */
export function assertViewable(
  project: { private: boolean; ownerId: number },
  slug: string,
  actor: Actor | null,
): void {
  if (!project.private) return;
  if (!actor) {
    throw new AppError('unauthenticated', 'This private project needs a session or an API key');
  }
  if (project.ownerId !== actor.userId) throw projectNotFound(slug);
}

/** `assertViewable` on the entity, for the writes and downloads that go on with it. */
export async function viewableProject(
  em: EntityManager,
  actor: Actor | null,
  slug: string,
): Promise<Project> {
  const project = await bySlug(em, slug);
  assertViewable({ private: project.private, ownerId: project.owner.id }, slug, actor);
  return project;
}

/** The stream: a private project is 403 `private_forbidden` for anyone but its owner. */
function assertStreamable(
  project: { private: boolean; ownerId: number },
  actor: Actor | null,
): void {
  if (project.private && project.ownerId !== actor?.userId) {
    throw new AppError(
      'private_forbidden',
      'The stream of a private project is for its owner only',
    );
  }
}

/**
 * Owner actions: another user gets 403 `not_owner` on a public project and 404 on a private
 * one (which they cannot know exists).
 */
export async function ownedProject(
  em: EntityManager,
  actor: Actor,
  slug: string,
): Promise<Project> {
  const project = await bySlug(em, slug);
  if (project.owner.id === actor.userId) return project;
  if (project.private) throw projectNotFound(slug);
  throw new AppError('not_owner', `project ${slug} belongs to another user`);
}

/** The project to stream, with its viewer's tier; a private one is its owner's only. */
export async function streamableProject(
  db: Sql,
  actor: Actor | null,
  slug: string,
): Promise<StreamTargetRow> {
  // Anything that cannot be a slug (a NUL byte, say) never reaches PostgreSQL.
  const row = looksLikeSlug(slug)
    ? await db.row(streamTargetBySlug, [slug, actor?.userId ?? null])
    : undefined;
  if (!row) throw projectNotFound(slug);
  assertStreamable(row, actor);
  return row;
}
