import { ProjectRun } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import { sqlOf, statement } from '../../../shared/db/sql';
import { AppError } from '../../../shared/errors';
import type { Actor } from '../../access/actor';
import { isUuid } from '../../wire';
import { viewableProject } from './access';
import type { ArtifactInput } from './schemas';
import type { ProjectDeps } from './service';

/**
 * A run's artifact download (docs/spec/contract.md §7). A run's artifact never changes once written, so
 * it is cacheable for good, and a client that has it (its ETag) gets 304 without PostgreSQL
 * ever sending the bytes.
 */

/** A run's artifact without its bytes: enough to answer a conditional request. */
export interface ArtifactInfo {
  runId: string;
  filename: string;
  /** Strong: the artifact is the tarball of this commit, and a run has one artifact. */
  etag: string;
  cacheControl: string;
}

const shown = (value: string) =>
  JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);

function notFound(runId: string, slug: string): AppError {
  return new AppError(
    'artifact_not_found',
    `run ${shown(runId)} of project ${slug} has no artifact`,
  );
}

/**
 * `GET /projects/:slug/runs/:runId/artifact`: the artifact's headers, and its bytes unless
 * the client's copy (`If-None-Match`) is current (null: answer 304). Read once, and only when
 * sent: a 304 never loads the bytes.
 */
export async function downloadArtifact(
  deps: Pick<ProjectDeps, 'em'>,
  actor: Actor | null,
  input: ArtifactInput,
): Promise<{ artifact: ArtifactInfo; bytes: Buffer | null }> {
  const artifact = await findArtifact(deps.em, actor, input.slug, input.runId);
  const fresh = matchesEtag(input.ifNoneMatch, artifact.etag);
  return { artifact, bytes: fresh ? null : await artifactBytes(deps.em, artifact) };
}

/** The artifact of a run of a project the caller may see; 404 when there is none. */
async function findArtifact(
  em: EntityManager,
  actor: Actor | null,
  slug: string,
  runId: string,
): Promise<ArtifactInfo> {
  const project = await viewableProject(em, actor, slug);
  // The artifact column is lazy and stays unread here: only whether it is there.
  const run = isUuid(runId)
    ? await em.findOne(
        ProjectRun,
        { id: runId.toLowerCase(), project: project.id, artifact: { $ne: null } },
        { fields: ['id', 'headSha'] },
      )
    : null;
  if (!run) throw notFound(runId, project.slug);
  const commit = run.headSha ?? run.id;
  // Public artifacts may sit in shared caches; a private project's only in the owner's own.
  const scope = project.private ? 'private' : 'public';
  return {
    runId: run.id,
    filename: `${project.slug}-${commit.slice(0, 7)}.tar.gz`,
    etag: `"${commit}"`,
    cacheControl: `${scope}, max-age=31536000, immutable`,
  };
}

/** A run's artifact bytes (bytea, a Buffer). */
interface ArtifactRow {
  artifact: Buffer | null;
}
const runArtifact = statement<ArtifactRow, [runId: string]>(
  'projects.run_artifact',
  'select artifact from project_runs where id = $1',
);

/** The artifact's bytes, read once, as the driver hands them over (no copy). */
async function artifactBytes(em: EntityManager, info: ArtifactInfo): Promise<Buffer> {
  const row = await sqlOf(em).row(runArtifact, [info.runId]);
  if (!row?.artifact) throw new AppError('artifact_not_found', `run ${info.runId} has no artifact`);
  return row.artifact;
}

/** `If-None-Match` (RFC 9110 §13.1.2): `*` or a list of tags, compared weakly. */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}
