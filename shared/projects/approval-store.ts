import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  ApprovalAuditAction,
  ApprovalKind,
  ApprovalStatus,
  RememberScope,
} from '../db/entities/approval';
import { sqlOf, statement, isoUtc, type Sql } from '../db/sql';
import { appendProjectEvents } from './event-log';
import type { ProjectStreamEvent } from './events';
import { DEFAULT_POLICY, type Policy } from './approvals';
import { enqueueNotification } from '../notifications/queue';
import { enqueueOutboxEvent } from '../outbox/outbox';
import { projectPageUrl } from './urls';

/**
 * Approval requests in PostgreSQL, the one arbiter of every decision (docs/spec/contract.md
 * §16): a request is stored before anyone is told of it, and it leaves `pending` through one
 * conditional UPDATE, whoever asks first (the owner, the timeout, a cancel). Each change writes
 * its audit row and its stream event in the same transaction.
 */

export interface ApprovalRow {
  id: string;
  projectId: string;
  runId: string;
  kind: ApprovalKind;
  tool: string | null;
  argsPreview: unknown;
  argsDigest: string;
  status: ApprovalStatus;
  requestedAt: string;
  expiresAt: string;
  decidedBy: number | null;
  decidedAt: string | null;
  comment: string | null;
  remember: RememberScope | null;
}

const COLUMNS = `id, project_id as "projectId", run_id as "runId", kind, tool,
  args_preview as "argsPreview", args_digest as "argsDigest", status,
  ${isoUtc('requested_at')} as "requestedAt", ${isoUtc('expires_at')} as "expiresAt",
  decided_by as "decidedBy", ${isoUtc('decided_at')} as "decidedAt", comment, remember`;

const policyOf = statement<Policy, [projectId: string]>(
  'approvals.policy',
  `select mode, rules, plan_approval as "planApproval", timeout_seconds as "timeoutSeconds",
          on_timeout as "onTimeout"
     from project_approval_policies where project_id = $1`,
);

/** The project's policy; the defaults when its owner never set one. */
export async function loadPolicy(sql: Sql, projectId: string): Promise<Policy> {
  return (await sql.row(policyOf, [projectId])) ?? DEFAULT_POLICY;
}

const insertRequest = statement<
  ApprovalRow,
  [
    id: string,
    projectId: string,
    runId: string,
    stepKey: string,
    kind: ApprovalKind,
    tool: string | null,
    argsPreview: string,
    argsDigest: string,
    timeoutSeconds: number,
  ]
>(
  'approvals.insert',
  `insert into approval_requests (id, project_id, run_id, step_key, kind, tool, args_preview,
                                  args_digest, status, requested_at, expires_at)
   values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, 'pending', now(),
           now() + $9 * interval '1 second')
   on conflict (step_key) do nothing
   returning ${COLUMNS}`,
);

const byStepKey = statement<ApprovalRow, [stepKey: string]>(
  'approvals.by_step',
  `select ${COLUMNS} from approval_requests where step_key = $1`,
);

const byId = statement<ApprovalRow, [id: string]>(
  'approvals.by_id',
  `select ${COLUMNS} from approval_requests where id = $1`,
);

const insertAudit = statement<
  Record<string, never>,
  [
    projectId: string,
    approvalId: string | null,
    action: ApprovalAuditAction,
    actor: string,
    detail: string,
  ]
>(
  'approvals.audit',
  `insert into approval_audit (project_id, approval_id, action, actor, detail, at)
   values ($1, $2, $3, $4, $5::jsonb, now())`,
);

export async function audit(
  sql: Sql,
  entry: {
    projectId: string;
    approvalId: string | null;
    action: ApprovalAuditAction;
    actor: string;
    detail?: Record<string, unknown>;
  },
): Promise<void> {
  await sql.run(insertAudit, [
    entry.projectId,
    entry.approvalId,
    entry.action,
    entry.actor,
    JSON.stringify(entry.detail ?? {}),
  ]);
}

/** Who is told of a project's requests, and where they decide (the build page). */
interface ProjectNotice {
  ownerId: number;
  slug: string;
  title: string;
}

const projectNotice = statement<ProjectNotice, [projectId: string]>(
  'approvals.project_notice',
  'select owner_id as "ownerId", slug, title from projects where id = $1',
);

/**
 * The owner hears of a request, and of its end, through the webhook outbox and the messaging
 * bot's queue, both written in the transaction that changed the request: told only if it
 * committed, and exactly once (dedupe keys).
 */
async function tellOwner(
  tx: EntityManager,
  row: ApprovalRow,
  publicBaseUrl: string,
  change: 'requested' | Resolution,
): Promise<void> {
  const project = await sqlOf(tx).row(projectNotice, [row.projectId]);
  if (!project) return;
  const what = row.kind === 'plan' ? 'the build plan' : `a ${row.tool ?? 'tool'} call`;
  const page = projectPageUrl(publicBaseUrl, project.slug);
  if (change === 'requested') {
    await enqueueOutboxEvent(tx, {
      userId: project.ownerId,
      event: 'project.approval_requested',
      data: {
        slug: project.slug,
        approval_id: row.id,
        run_id: row.runId,
        kind: row.kind,
        tool: row.tool,
        args_preview: row.argsPreview,
        args_digest: row.argsDigest,
        expires_at: row.expiresAt,
      },
      dedupeKey: `project.approval_requested:${row.id}`,
    });
    await enqueueNotification(tx, {
      userId: project.ownerId,
      kind: 'project.approval_requested',
      text:
        `Build of "${project.title}" waits for your approval of ${what} ` +
        `(until ${row.expiresAt}): ${page}`,
      data: { slug: project.slug, approvalId: row.id, runId: row.runId, tool: row.tool },
      dedupeKey: `project.approval_requested:${row.id}`,
    });
    await audit(sqlOf(tx), {
      projectId: row.projectId,
      approvalId: row.id,
      action: 'notified',
      actor: 'system:build',
      detail: { stream: true, webhook: 'project.approval_requested', message: 'bot' },
    });
    return;
  }
  await enqueueOutboxEvent(tx, {
    userId: project.ownerId,
    event: 'project.approval_resolved',
    data: {
      slug: project.slug,
      approval_id: row.id,
      decision: change.to,
      by: change.by,
      comment: row.comment,
    },
    dedupeKey: `project.approval_resolved:${row.id}`,
  });
  // The request's message is followed up; a decision the owner made is not news to them.
  if (change.by === 'owner') return;
  const outcome = change.to === 'expired' ? 'expired unanswered' : 'was canceled with the build';
  await enqueueNotification(tx, {
    userId: project.ownerId,
    kind: 'project.approval_resolved',
    text: `The approval request for ${what} of "${project.title}" ${outcome}.`,
    data: { slug: project.slug, approvalId: row.id, decision: change.to },
    dedupeKey: `project.approval_resolved:${row.id}`,
  });
}

export interface NewRequest {
  projectId: string;
  runId: string;
  /** The step's journal key: a retried step finds its request by it. */
  stepKey: string;
  kind: ApprovalKind;
  tool: string | null;
  argsPreview: unknown;
  argsDigest: string;
  timeoutSeconds: number;
  /** The tool call's id in the stream (null for the plan). */
  callId: string | null;
}

/**
 * The step's request: stored the first time (with its audit row, its webhook event and its
 * message for the owner), found afterwards.
 */
export async function requestApproval(
  em: EntityManager,
  request: NewRequest,
  publicBaseUrl: string,
): Promise<{ row: ApprovalRow; events: ProjectStreamEvent[] }> {
  return em.transactional(async (tx) => {
    const sql = sqlOf(tx);
    const inserted = await sql.row(insertRequest, [
      randomUUID(),
      request.projectId,
      request.runId,
      request.stepKey,
      request.kind,
      request.tool,
      JSON.stringify(request.argsPreview ?? null),
      request.argsDigest,
      request.timeoutSeconds,
    ]);
    if (inserted) {
      await audit(sql, {
        projectId: request.projectId,
        approvalId: inserted.id,
        action: 'requested',
        actor: 'system:build',
        detail: { tool: request.tool, kind: request.kind, argsDigest: request.argsDigest },
      });
      await tellOwner(tx, inserted, publicBaseUrl, 'requested');
      // The stream hears of it in the same transaction: never a resolution before its request.
      const events = await appendProjectEvents(tx, inserted.projectId, inserted.runId, [
        {
          key: `${inserted.runId}:approval:${inserted.id}:requested`,
          type: 'approval_requested',
          data: {
            approvalId: inserted.id,
            kind: inserted.kind,
            tool: inserted.tool,
            callId: request.callId,
            argsPreview: inserted.argsPreview,
            argsDigest: inserted.argsDigest,
            expiresAt: inserted.expiresAt,
          },
        },
      ]);
      return { row: inserted, events };
    }
    const found = await sql.row(byStepKey, [request.stepKey]);
    if (!found) throw new Error(`approval request ${request.stepKey} neither inserted nor found`);
    return { row: found, events: [] };
  });
}

/**
 * The project's policy with an allow rule for `tool` first (before an `ask` rule for it, which
 * it overrides), unless it has one; a deny rule for the tool still wins.
 */
const addAllowRule = statement<
  { added: boolean },
  [
    projectId: string,
    tool: string,
    userId: number,
    mode: Policy['mode'],
    planApproval: boolean,
    timeoutSeconds: number,
    onTimeout: Policy['onTimeout'],
  ]
>(
  'approvals.allow_rule',
  `insert into project_approval_policies as p (project_id, mode, rules, plan_approval,
                                                timeout_seconds, on_timeout, updated_by, updated_at)
   values ($1, $4, jsonb_build_array(jsonb_build_object('tool', $2::text, 'action', 'allow')),
           $5, $6, $7, $3, now())
   on conflict (project_id) do update
      set rules = jsonb_build_array(jsonb_build_object('tool', $2::text, 'action', 'allow')) || p.rules,
          updated_by = $3, updated_at = now()
    where not p.rules @> jsonb_build_array(jsonb_build_object('tool', $2::text, 'action', 'allow'))
   returning true as added`,
);

/** `remember: project`: later calls of the tool in this project run without asking. */
async function allowForProject(sql: Sql, row: ApprovalRow, userId: number): Promise<void> {
  // A project without a policy gets the defaults with the rule.
  const added = await sql.row(addAllowRule, [
    row.projectId,
    row.tool!,
    userId,
    DEFAULT_POLICY.mode,
    DEFAULT_POLICY.planApproval,
    DEFAULT_POLICY.timeoutSeconds,
    DEFAULT_POLICY.onTimeout,
  ]);
  if (!added) return;
  await audit(sql, {
    projectId: row.projectId,
    approvalId: row.id,
    action: 'policy_changed',
    actor: `user:${userId}`,
    detail: { rule: { tool: row.tool, action: 'allow' }, rememberedFrom: row.id },
  });
}

const rememberedForRun = statement<{ id: string }, [runId: string, tool: string]>(
  'approvals.remembered_for_run',
  `select id from approval_requests
    where run_id = $1 and tool = $2 and status = 'approved' and remember = 'run' limit 1`,
);

/** Whether the owner approved `tool` for the rest of the run (`remember: run`). */
export async function allowedForRun(sql: Sql, runId: string, tool: string): Promise<boolean> {
  return (await sql.row(rememberedForRun, [runId, tool])) !== undefined;
}

const pendingOfRun = statement<{ id: string }, [runId: string]>(
  'approvals.pending_of_run',
  `select id from approval_requests where run_id = $1 and status = 'pending'`,
);

/**
 * Cancels what a run that ends still has pending (a build canceled or terminated outside its
 * wait, a run canceled without a workflow), each with its audit row and event. Returns the
 * events to publish.
 */
export async function cancelPendingOfRun(
  em: EntityManager,
  runId: string,
  publicBaseUrl: string,
): Promise<ProjectStreamEvent[]> {
  const events: ProjectStreamEvent[] = [];
  for (const { id } of await sqlOf(em).rows(pendingOfRun, [runId])) {
    const resolved = await resolveApproval(em, id, { to: 'canceled', by: 'cancel' }, publicBaseUrl);
    events.push(...resolved.events);
  }
  return events;
}

export async function approvalByStep(sql: Sql, stepKey: string): Promise<ApprovalRow | undefined> {
  return sql.row(byStepKey, [stepKey]);
}

export async function approvalById(sql: Sql, id: string): Promise<ApprovalRow | undefined> {
  return sql.row(byId, [id]);
}

export type Resolution =
  | {
      to: 'approved';
      by: 'owner';
      userId: number;
      argsDigest: string;
      remember: RememberScope | null;
    }
  | { to: 'rejected'; by: 'owner'; userId: number; comment: string | null }
  | { to: 'expired'; by: 'timeout' }
  | { to: 'canceled'; by: 'cancel' };

/**
 * The conditional UPDATE: `pending` → the resolution, only while pending (and, for the owner,
 * only before `expiresAt` and for the digest shown). Null when it did not apply: the caller
 * reads the row to say why.
 */
const resolve = statement<
  ApprovalRow,
  [
    id: string,
    to: ApprovalStatus,
    userId: number | null,
    comment: string | null,
    argsDigest: string | null,
    byOwner: boolean,
    remember: RememberScope | null,
  ]
>(
  'approvals.resolve',
  `update approval_requests
      set status = $2, decided_by = $3, decided_at = now(), comment = $4, remember = $7
    where id = $1 and status = 'pending'
      and ($5::text is null or args_digest = $5)
      and (not $6 or expires_at > now())
   returning ${COLUMNS}`,
);

/**
 * Resolves a pending request, with its audit row and its `approval_resolved` event, in one
 * transaction. `changed` false: the request was not pending (or, for the owner, expired or
 * shown with other arguments); `row` is then how it stands.
 */
export async function resolveApproval(
  em: EntityManager,
  approvalId: string,
  resolution: Resolution,
  publicBaseUrl: string,
): Promise<{ changed: boolean; row: ApprovalRow | undefined; events: ProjectStreamEvent[] }> {
  return em.transactional(async (tx) => {
    const sql = sqlOf(tx);
    const byOwner = resolution.by === 'owner';
    const row = await sql.row(resolve, [
      approvalId,
      resolution.to,
      byOwner ? resolution.userId : null,
      resolution.to === 'rejected' ? resolution.comment : null,
      resolution.to === 'approved' ? resolution.argsDigest : null,
      byOwner,
      resolution.to === 'approved' ? resolution.remember : null,
    ]);
    if (!row) return { changed: false, row: await sql.row(byId, [approvalId]), events: [] };
    await audit(sql, {
      projectId: row.projectId,
      approvalId: row.id,
      action: resolution.to,
      actor: byOwner ? `user:${resolution.userId}` : `system:${resolution.by}`,
      detail: { argsDigest: row.argsDigest, ...(row.comment ? { comment: row.comment } : {}) },
    });
    await tellOwner(tx, row, publicBaseUrl, resolution);
    if (resolution.to === 'approved' && row.remember === 'project' && row.tool) {
      await allowForProject(sql, row, resolution.userId);
    }
    const events = await appendProjectEvents(tx, row.projectId, row.runId, [
      {
        key: `${row.runId}:approval:${row.id}:resolved`,
        type: 'approval_resolved',
        data: {
          approvalId: row.id,
          decision: resolution.to,
          by: resolution.by,
          comment: row.comment,
        },
      },
    ]);
    return { changed: true, row, events };
  });
}
