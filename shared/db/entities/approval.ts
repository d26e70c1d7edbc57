import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Project } from './project';

/**
 * Owner approvals in builds (docs/spec/contract.md §16, docs/guides/approvals.md): a project's
 * policy, the requests a run stops on, and the audit trail of both.
 */

export const APPROVAL_MODES = ['ask_risky', 'ask_all', 'autonomous'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];
export const RULE_ACTIONS = ['allow', 'ask', 'deny'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];
export const ON_TIMEOUT = ['reject', 'fail'] as const;
export type OnTimeout = (typeof ON_TIMEOUT)[number];

export interface ApprovalRule {
  tool: string;
  action: RuleAction;
}

/** A project's policy; a project without a row has the defaults (shared/projects/approvals.ts). */
export const ApprovalPolicy = defineEntity({
  name: 'ApprovalPolicy',
  tableName: 'project_approval_policies',
  properties: {
    project: () => p.manyToOne(Project).deleteRule('cascade').primary(),
    mode: p.enum([...APPROVAL_MODES]),
    rules: p.json<ApprovalRule[]>(),
    planApproval: p.boolean(),
    timeoutSeconds: p.integer(),
    onTimeout: p.enum([...ON_TIMEOUT]),
    updatedBy: p.integer(),
    updatedAt: p.datetime(3),
  },
});
export type ApprovalPolicy = InferEntity<typeof ApprovalPolicy>;

export const APPROVAL_KINDS = ['plan', 'tool_call'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];
export const REMEMBER_SCOPES = ['run', 'project'] as const;
export type RememberScope = (typeof REMEMBER_SCOPES)[number];
export const APPROVAL_STATUSES = [
  'pending',
  'approved',
  'rejected',
  'expired',
  'canceled',
] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/**
 * A step a run stopped before, waiting for its owner. `stepKey` names the step (the call's
 * journal key), so a retried turn finds its request instead of asking twice. The decision is
 * one conditional UPDATE of `status` from `pending`: whoever comes first (the owner, the
 * timeout, a cancel) wins, once.
 */
export const ApprovalRequest = defineEntity({
  name: 'ApprovalRequest',
  tableName: 'approval_requests',
  indexes: [
    { properties: ['project', 'requestedAt', 'id'] },
    {
      name: 'approval_requests_pending_index',
      expression: `create index "approval_requests_pending_index" on "approval_requests" ("project_id") where "status" = 'pending'`,
    },
  ],
  properties: {
    id: p.uuid().primary(),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    runId: p.uuid(),
    stepKey: p.string().length(200).unique(),
    kind: p.enum([...APPROVAL_KINDS]),
    tool: p.string().length(64).nullable(),
    /** The arguments as the owner sees them: long values cut (the stream shows this too). */
    argsPreview: p.json<unknown>(),
    /** SHA-256 of the exact arguments: an approval names it, so it approves what was shown. */
    argsDigest: p.string().length(64),
    status: p.enum([...APPROVAL_STATUSES]),
    requestedAt: p.datetime(3),
    expiresAt: p.datetime(3),
    decidedBy: p.integer().nullable(),
    decidedAt: p.datetime(3).nullable(),
    comment: p.text().nullable(),
    /** An approval that also allows later calls of the tool: in this run, or in the project. */
    remember: p.enum([...REMEMBER_SCOPES]).nullable(),
  },
});
export type ApprovalRequest = InferEntity<typeof ApprovalRequest>;

export const APPROVAL_AUDIT_ACTIONS = [
  'requested',
  'notified',
  'approved',
  'rejected',
  'expired',
  'canceled',
  'policy_changed',
] as const;
export type ApprovalAuditAction = (typeof APPROVAL_AUDIT_ACTIONS)[number];

/** Append-only: who did what to a request or a policy, and when. */
export const ApprovalAuditEntry = defineEntity({
  name: 'ApprovalAuditEntry',
  tableName: 'approval_audit',
  indexes: [{ properties: ['project', 'id'] }],
  properties: {
    /** Increasing: the trail's order, also between entries of one transaction. */
    id: p.bigint('number').primary(),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    approvalId: p.uuid().nullable(),
    action: p.enum([...APPROVAL_AUDIT_ACTIONS]),
    /** `user:<id>`, `system:timeout`, `system:cancel`, `system:build`. */
    actor: p.string().length(64),
    detail: p.json<Record<string, unknown>>(),
    at: p.datetime(3),
  },
});
export type ApprovalAuditEntry = InferEntity<typeof ApprovalAuditEntry>;
