import type { AgentTemplate, ProjectStatus } from '../../../shared/db/entities/project';
import type { RunStatus } from '../../../shared/db/entities/project-run';
import type { Tier } from '../../../shared/db/entities/subscription';
import { isoUtc, statement } from '../../../shared/db/sql';
import { entitledTierSql } from '../../../shared/subscriptions/entitlements';
import { keysetOrder } from '../../paging/keyset';

/**
 * The project reads (decisions "Hot reads"): a project with its token's slug and its current
 * run, in one statement (timestamps already ISO 8601).
 */

export interface ProjectRow {
  id: string;
  slug: string;
  ownerId: number;
  tokenSlug: string;
  title: string;
  brief: string;
  agentTemplate: AgentTemplate;
  private: boolean;
  status: ProjectStatus | 'awaiting_approval';
  pendingApproval: {
    id: string;
    kind: 'plan' | 'tool_call';
    tool: string | null;
    argsPreview: unknown;
    argsDigest: string;
    expiresAt: string;
  } | null;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  /** int8, a string. */
  lastEventSeq: string;
  /** The current run; every run field is null when there is none. */
  runId: string | null;
  runStatus: RunStatus | null;
  runPlanner: string | null;
  runCreatedAt: string | null;
  runStartedAt: string | null;
  runFinishedAt: string | null;
  runHeadSha: string | null;
  runReason: string | null;
  /** Whether the run has an artifact; the (lazy, possibly large) bytes are never read. */
  runHasArtifact: boolean | null;
}

const VIEW = `select p.id, p.slug, p.owner_id as "ownerId", coalesce(t.slug, '') as "tokenSlug",
          p.title, p.brief, p.agent_template as "agentTemplate", p.private,
          case when p.status = 'running' and pa.id is not null then 'awaiting_approval'
               else p.status end as status,
          case when pa.id is not null then json_build_object('id', pa.id, 'kind', pa.kind,
            'tool', pa.tool, 'argsPreview', pa.args_preview, 'argsDigest', pa.args_digest,
            'expiresAt', ${isoUtc('pa.expires_at')}) end as "pendingApproval",
          ${isoUtc('p.created_at')} as "createdAt", ${isoUtc('p.updated_at')} as "updatedAt",
          ${isoUtc('p.archived_at')} as "archivedAt", p.last_event_seq as "lastEventSeq",
          r.id as "runId", r.status as "runStatus", r.planner as "runPlanner",
          ${isoUtc('r.created_at')} as "runCreatedAt", ${isoUtc('r.started_at')} as "runStartedAt",
          ${isoUtc('r.finished_at')} as "runFinishedAt", r.head_sha as "runHeadSha",
          r.reason as "runReason", r.artifact is not null as "runHasArtifact"
     from projects p
     left join tokens t on t.id = p.token_id
     left join project_runs r on r.id = p.current_run_id
     left join lateral (
       select a.id, a.kind, a.tool, a.args_preview, a.args_digest, a.expires_at
         from approval_requests a
        where p.status = 'running' and a.project_id = p.id and a.run_id = p.current_run_id
          and a.status = 'pending'
        order by a.requested_at desc limit 1) pa on true`;

/** Any project by slug; who may see it is decided on the row (`assertViewable`). */
export const projectBySlug = statement<ProjectRow, [slug: string]>(
  'projects.by_slug',
  `${VIEW} where p.slug = $1`,
);

/** Newest first (index `projects (owner_id, created_at, id)`). */
export const OWN_PROJECTS_ORDER = keysetOrder('desc', [
  { column: 'p.created_at', type: 'timestamptz', field: 'createdAt' },
  { column: 'p.id', type: 'uuid', field: 'id' },
]);

export const ownProjectsPage = statement<
  ProjectRow,
  [ownerId: number, ...after: string[], fetch: number]
>(
  'projects.own_page',
  `${VIEW}
    where p.owner_id = $1 and ${OWN_PROJECTS_ORDER.after(2)}
    order by ${OWN_PROJECTS_ORDER.orderBy}
    limit $${2 + OWN_PROJECTS_ORDER.arity}`,
);

export interface StreamTargetRow {
  id: string;
  ownerId: number;
  private: boolean;
  status: ProjectStatus;
  currentRunId: string | null;
  /** int8, a string. */
  lastEventSeq: string;
  lastEventType: string | null;
  /** The viewer's entitled tier; null for anonymous viewers and users without one. */
  viewerTier: Tier | null;
}

/**
 * Everything a stream connect decides on, in one statement: who may watch, whether anything
 * is left to stream, where the stream ends, and whether the viewer's tier has `fasterSse`.
 */
export const streamTargetBySlug = statement<
  StreamTargetRow,
  [slug: string, viewerId: number | null]
>(
  'projects.stream_target',
  `select p.id, p.owner_id as "ownerId", p.private, p.status,
          p.current_run_id as "currentRunId", p.last_event_seq as "lastEventSeq",
          (select e.type from project_events e
            where e.project_id = p.id and e.seq = p.last_event_seq) as "lastEventType",
          ${entitledTierSql('$2::int')} as "viewerTier"
     from projects p
    where p.slug = $1`,
);
