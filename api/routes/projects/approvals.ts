import type { Redis } from 'ioredis';
import type { z } from 'zod';
import {
  ApprovalAuditEntry,
  ApprovalPolicy,
  ApprovalRequest,
  type RememberScope,
} from '../../../shared/db/entities/approval';
import type { Config } from '../../../shared/config';
import type { Logger } from '../../../shared/logger';
import { sqlOf, statement } from '../../../shared/db/sql';
import { AppError } from '../../../shared/errors';
import {
  audit,
  resolveApproval,
  type ApprovalRow,
  type Resolution,
} from '../../../shared/projects/approval-store';
import { DEFAULT_POLICY } from '../../../shared/projects/approvals';
import { publishProjectEvents } from '../../../shared/projects/event-log';
import { projectEventsChannel } from '../../../shared/projects/events';
import { projectBuildSignals, workflowIds } from '../../../shared/temporal';
import { withTemporalDeadline } from '../../../shared/temporal/start-with-deadline';
import type { Actor } from '../../access/actor';
import { paginate, pageScope } from '../../paging/page';
import { looksLikeSlug } from '../../wire';
import { ownedProject } from './access';
import type {
  approvalSchema,
  approvalsQuery,
  auditEntrySchema,
  policyBody,
  policySchema,
} from './approval-schemas';
import type { ProjectDeps } from './service';

/**
 * Owner approvals (docs/spec/contract.md §16): the policy, the requests, the decisions. A
 * decision is the store's conditional UPDATE (shared/projects/approval-store.ts); the build's
 * workflow is signalled after the commit, and re-reads the row on its own every few minutes,
 * so a lost signal delays the build without losing the decision.
 */

export interface ApprovalDeps extends Pick<ProjectDeps, 'em' | 'cursors' | 'temporal'> {
  config: Pick<Config, 'temporal' | 'redisKeyPrefix' | 'publicBaseUrl'>;
  redis: Redis;
  logger: Logger;
}

type PolicyView = z.infer<typeof policySchema>;
type ApprovalView = z.infer<typeof approvalSchema>;
type AuditView = z.infer<typeof auditEntrySchema>;

export async function readPolicy(
  deps: Pick<ApprovalDeps, 'em'>,
  actor: Actor,
  slug: string,
): Promise<PolicyView> {
  const project = await ownedProject(deps.em, actor, slug);
  const row = await deps.em.findOne(ApprovalPolicy, { project: project.id });
  if (!row) return { ...DEFAULT_POLICY, updatedAt: null };
  return viewOfPolicy(row);
}

/** Replaces the policy whole (fields left out take their defaults), audited. */
export async function writePolicy(
  deps: Pick<ApprovalDeps, 'em'>,
  actor: Actor,
  slug: string,
  input: z.output<typeof policyBody>,
): Promise<PolicyView> {
  const project = await ownedProject(deps.em, actor, slug);
  const saved = await deps.em.transactional(async (tx) => {
    const fields = { ...input, updatedBy: actor.userId, updatedAt: new Date() };
    await tx.upsert(ApprovalPolicy, { project: project.id, ...fields });
    await audit(sqlOf(tx), {
      projectId: project.id,
      approvalId: null,
      action: 'policy_changed',
      actor: `user:${actor.userId}`,
      detail: { policy: input },
    });
    return { ...input, updatedAt: fields.updatedAt.toISOString() };
  });
  return saved;
}

function viewOfPolicy(row: ApprovalPolicy): PolicyView {
  return {
    mode: row.mode,
    rules: row.rules,
    planApproval: row.planApproval,
    timeoutSeconds: row.timeoutSeconds,
    onTimeout: row.onTimeout,
    updatedAt: row.updatedAt.toISOString(),
  };
}

const RESOLVED = ['approved', 'rejected', 'expired', 'canceled'] as const;

/** A project's requests (`slug`), or every project's of the caller (`slug` null), newest first. */
export async function listApprovals(
  deps: Pick<ApprovalDeps, 'em' | 'cursors'>,
  actor: Actor,
  slug: string | null,
  query: z.output<typeof approvalsQuery>,
): Promise<{ items: ApprovalView[]; nextCursor: string | null }> {
  const project = slug === null ? null : await ownedProject(deps.em, actor, slug);
  const status =
    query.status === 'pending'
      ? { status: 'pending' as const }
      : query.status === 'resolved'
        ? { status: { $in: [...RESOLVED] } }
        : {};
  const where = project
    ? { project: project.id, ...status }
    : { project: { owner: actor.userId }, ...status };
  const page = await paginate(deps.em, deps.cursors, ApprovalRequest, {
    scope: pageScope(project ? 'project-approvals' : 'my-approvals', {
      project: project?.id ?? null,
      user: actor.userId,
      status: query.status,
    }),
    where,
    orderBy: { requestedAt: 'desc', id: 'desc' },
    limit: query.limit,
    cursor: query.cursor,
  });
  await deps.em.populate(page.items, ['project']);
  return {
    items: page.items.map((row) => ({
      id: row.id,
      projectSlug: row.project.slug,
      runId: row.runId,
      kind: row.kind,
      tool: row.tool ?? null,
      argsPreview: row.argsPreview,
      argsDigest: row.argsDigest,
      status: row.status,
      requestedAt: row.requestedAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      decidedAt: row.decidedAt?.toISOString() ?? null,
      comment: row.comment ?? null,
      remember: row.remember ?? null,
    })),
    nextCursor: page.nextCursor,
  };
}

const requestOfOwner = statement<
  { id: string; projectSlug: string },
  [id: string, slug: string, userId: number]
>(
  'approvals.of_owner',
  `select a.id, p.slug as "projectSlug" from approval_requests a
     join projects p on p.id = a.project_id
    where a.id = $1 and p.slug = $2 and p.owner_id = $3`,
);

export type Decision =
  | { to: 'approved'; argsDigest: string; remember: RememberScope | null }
  | { to: 'rejected'; comment: string | null };

/**
 * Approve or reject: 404 `approval_not_found` unless the request is in the caller's project
 * `slug` (another user cannot learn it exists); 409 `approval_stale` for another digest, 409
 * `approval_resolved` once decided otherwise, expired or canceled; the same decision again is
 * answered as the first time.
 */
export async function decideApproval(
  deps: ApprovalDeps,
  actor: Actor,
  params: { slug: string; id: string },
  decision: Decision,
): Promise<ApprovalView> {
  const sql = sqlOf(deps.em);
  const owned = looksLikeSlug(params.slug)
    ? await sql.row(requestOfOwner, [params.id, params.slug, actor.userId])
    : undefined;
  if (!owned) {
    throw new AppError(
      'approval_not_found',
      `approval ${params.id} does not exist in project ${params.slug}`,
    );
  }
  const resolution: Resolution =
    decision.to === 'approved'
      ? {
          to: 'approved',
          by: 'owner',
          userId: actor.userId,
          argsDigest: decision.argsDigest,
          remember: decision.remember,
        }
      : { to: 'rejected', by: 'owner', userId: actor.userId, comment: decision.comment };
  const { changed, row, events } = await resolveApproval(
    deps.em,
    params.id,
    resolution,
    deps.config.publicBaseUrl,
  );
  if (!row) throw new Error(`approval ${params.id} vanished`);
  if (!changed) refusal(row, actor, decision);
  else {
    await publishProjectEvents(
      deps.redis,
      projectEventsChannel(deps.config.redisKeyPrefix, row.projectId),
      events,
    ).catch((err: unknown) => {
      deps.logger.warn({ err }, 'approvals: publishing the decision failed; streams catch up');
    });
    await signalBuild(deps, row);
  }
  return viewOf(row, owned.projectSlug);
}

/** Why a decision did not apply, unless it is the same decision again (then it stands). */
function refusal(row: ApprovalRow, actor: Actor, decision: Decision): void {
  if (row.status === decision.to && row.decidedBy === actor.userId) {
    if (decision.to === 'approved' && row.argsDigest !== decision.argsDigest) {
      throw stale();
    }
    return;
  }
  if (row.status === 'pending') {
    if (decision.to === 'approved' && row.argsDigest !== decision.argsDigest) throw stale();
    // Pending past its expiry: the build's timer settles it as expired.
    throw new AppError('approval_resolved', `approval ${row.id} expired at ${row.expiresAt}`);
  }
  throw new AppError('approval_resolved', `approval ${row.id} is already ${row.status}`);
}

const stale = () =>
  new AppError(
    'approval_stale',
    'argsDigest: does not match the request’s arguments; reload the request',
  );

/** Best effort: the workflow re-reads the row on its own within minutes. */
async function signalBuild(deps: ApprovalDeps, row: ApprovalRow): Promise<void> {
  const handle = deps.temporal.workflow.getHandle(
    workflowIds.projectBuild(row.projectId, row.runId),
  );
  try {
    await withTemporalDeadline(deps.temporal, () =>
      handle.signal(projectBuildSignals.approvalDecided, row.id),
    );
  } catch (err) {
    deps.logger.warn(
      { err: { message: (err as Error).message }, approvalId: row.id },
      'approvals: signalling the build failed; it will see the decision on its next check',
    );
  }
}

function viewOf(row: ApprovalRow, projectSlug: string): ApprovalView {
  return {
    id: row.id,
    projectSlug,
    runId: row.runId,
    kind: row.kind,
    tool: row.tool,
    argsPreview: row.argsPreview,
    argsDigest: row.argsDigest,
    status: row.status,
    requestedAt: row.requestedAt,
    expiresAt: row.expiresAt,
    decidedAt: row.decidedAt,
    comment: row.comment,
    remember: row.remember,
  };
}

/** The project's audit trail, newest first: requests, notices, decisions, policy changes. */
export async function listAudit(
  deps: Pick<ApprovalDeps, 'em' | 'cursors'>,
  actor: Actor,
  slug: string,
  query: { limit: number; cursor?: string | undefined },
): Promise<{ items: AuditView[]; nextCursor: string | null }> {
  const project = await ownedProject(deps.em, actor, slug);
  const page = await paginate(deps.em, deps.cursors, ApprovalAuditEntry, {
    scope: pageScope('approval-audit', { project: project.id }),
    where: { project: project.id },
    orderBy: { id: 'desc' },
    limit: query.limit,
    cursor: query.cursor,
  });
  return {
    items: page.items.map((entry) => ({
      id: String(entry.id),
      approvalId: entry.approvalId ?? null,
      action: entry.action,
      actor: entry.actor,
      detail: entry.detail,
      at: entry.at.toISOString(),
    })),
    nextCursor: page.nextCursor,
  };
}
