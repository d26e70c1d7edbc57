import { z } from 'zod';
import {
  APPROVAL_AUDIT_ACTIONS,
  APPROVAL_KINDS,
  APPROVAL_MODES,
  APPROVAL_STATUSES,
  ON_TIMEOUT,
  REMEMBER_SCOPES,
  RULE_ACTIONS,
} from '../../../shared/db/entities/approval';
import { DEFAULT_POLICY, POLICY_LIMITS } from '../../../shared/projects/approvals';
import { isoTime, slugParams } from '../../wire';
import { pageOf, pageQuery } from '../../paging/page';

/** Wire shapes of owner approvals (docs/spec/contract.md §16, docs/guides/approvals.md). */

const TIMEOUT_RULE = `must be an integer from ${POLICY_LIMITS.minTimeoutSeconds} to ${POLICY_LIMITS.maxTimeoutSeconds}`;

export const policyBody = z
  .strictObject({
    mode: z
      .enum(APPROVAL_MODES)
      .default(DEFAULT_POLICY.mode)
      .describe(
        'ask_risky: workspace tools run, anything reaching outside asks; ask_all: every ' +
          'tool asks; autonomous: nothing asks (rules still apply)',
      ),
    rules: z
      .array(
        z.strictObject({
          tool: z.string().min(1).max(64).describe('A build tool, e.g. fetch_url'),
          action: z.enum(RULE_ACTIONS),
        }),
      )
      .max(POLICY_LIMITS.maxRules, { error: `must list at most ${POLICY_LIMITS.maxRules} rules` })
      .default([])
      .describe('Matched before the mode; deny wins over any other rule for the same tool'),
    planApproval: z
      .boolean()
      .default(DEFAULT_POLICY.planApproval)
      .describe('Stop after the plan until the owner approves it'),
    timeoutSeconds: z
      .number({ error: TIMEOUT_RULE })
      .int({ error: TIMEOUT_RULE })
      .min(POLICY_LIMITS.minTimeoutSeconds, { error: TIMEOUT_RULE })
      .max(POLICY_LIMITS.maxTimeoutSeconds, { error: TIMEOUT_RULE })
      .default(DEFAULT_POLICY.timeoutSeconds)
      .describe('How long a request waits for the owner'),
    onTimeout: z
      .enum(ON_TIMEOUT)
      .default(DEFAULT_POLICY.onTimeout)
      .describe('reject: the step is refused and the build goes on; fail: the build fails'),
  })
  .meta({
    examples: [
      {
        mode: 'ask_risky',
        rules: [{ tool: 'fetch_url', action: 'ask' }],
        planApproval: false,
        timeoutSeconds: 3600,
        onTimeout: 'reject',
      },
    ],
  });

export const policySchema = z
  .object({
    mode: z.enum(APPROVAL_MODES),
    rules: z.array(z.object({ tool: z.string(), action: z.enum(RULE_ACTIONS) })),
    planApproval: z.boolean(),
    timeoutSeconds: z.number().int(),
    onTimeout: z.enum(ON_TIMEOUT),
    updatedAt: isoTime.nullable().describe('Null while the project has the defaults'),
  })
  .meta({
    id: 'ApprovalPolicy',
    examples: [
      {
        mode: 'ask_risky',
        rules: [],
        planApproval: false,
        timeoutSeconds: 86400,
        onTimeout: 'reject',
        updatedAt: null,
      },
    ],
  });

export const approvalSchema = z
  .object({
    id: z.uuid(),
    projectSlug: z.string(),
    runId: z.uuid(),
    kind: z.enum(APPROVAL_KINDS),
    tool: z.string().nullable(),
    argsPreview: z.unknown().describe('The arguments, long strings cut'),
    argsDigest: z.string().describe('Send it back to approve exactly these arguments'),
    status: z.enum(APPROVAL_STATUSES),
    requestedAt: isoTime,
    expiresAt: isoTime,
    decidedAt: isoTime.nullable(),
    comment: z.string().nullable(),
    remember: z.enum(REMEMBER_SCOPES).nullable(),
  })
  .meta({
    id: 'ApprovalRequest',
    examples: [
      {
        id: '0b6f3a52-8c1d-4e7a-9f20-3d5b7c9e1a46',
        projectSlug: 'atlas-research',
        runId: '7c2e9d14-5b3a-4f8e-a1c6-2d9f0e7b3a58',
        kind: 'tool_call',
        tool: 'fetch_url',
        argsPreview: { url: 'https://example.com/paper' },
        argsDigest: '5f1c3b8e0d2a4c6e8f0a1b3c5d7e9f1a3b5c7d9e0f2a4b6c8d0e2f4a6b8c0d2e',
        status: 'pending',
        requestedAt: '2026-11-29T10:00:00.000Z',
        expiresAt: '2026-11-30T10:00:00.000Z',
        decidedAt: null,
        comment: null,
        remember: null,
      },
    ],
  });

export const approvalPageSchema = pageOf(approvalSchema).meta({ id: 'ApprovalPage' });

export const APPROVAL_FILTERS = ['pending', 'resolved', 'all'] as const;

export const approvalsQuery = z.object({
  ...pageQuery,
  status: z
    .enum(APPROVAL_FILTERS)
    .default('all')
    .describe('pending, resolved (decided, expired or canceled) or all; newest first'),
});

export const approvalParams = slugParams.extend({ id: z.uuid({ error: 'must be a UUID' }) });

export const approveBody = z
  .strictObject({
    argsDigest: z
      .string()
      .regex(/^[0-9a-f]{64}$/, { error: 'must be the request’s argsDigest (64 hex digits)' }),
    remember: z
      .enum(REMEMBER_SCOPES)
      .optional()
      .describe(
        'Also allow later calls of the same tool: for the rest of this run, or in the ' +
          'project (an allow rule added to its policy; a deny rule still wins)',
      ),
  })
  .meta({
    examples: [{ argsDigest: '5f1c3b8e0d2a4c6e8f0a1b3c5d7e9f1a3b5c7d9e0f2a4b6c8d0e2f4a6b8c0d2e' }],
  });

export const rejectBody = z
  .strictObject({
    comment: z
      .string()
      .trim()
      .min(1, { error: 'must be 1 to 2000 characters' })
      .max(2000, { error: 'must be 1 to 2000 characters' })
      .optional()
      .describe('Told to the build’s brain with the refusal'),
  })
  .meta({ examples: [{ comment: 'Use the paper’s arXiv page instead.' }] });

export const auditEntrySchema = z
  .object({
    id: z.string().describe('Increasing: the order of the trail'),
    approvalId: z.uuid().nullable().describe('Null for a policy change'),
    action: z.enum(APPROVAL_AUDIT_ACTIONS),
    actor: z
      .string()
      .describe('user:<id> (the owner), system:build, system:timeout or system:cancel'),
    detail: z.record(z.string(), z.unknown()),
    at: isoTime,
  })
  .meta({
    id: 'ApprovalAuditEntry',
    examples: [
      {
        id: '1207',
        approvalId: '0b6f3a52-8c1d-4e7a-9f20-3d5b7c9e1a46',
        action: 'approved',
        actor: 'user:42',
        detail: { argsDigest: '5f1c3b8e0d2a4c6e8f0a1b3c5d7e9f1a3b5c7d9e0f2a4b6c8d0e2f4a6b8c0d2e' },
        at: '2026-11-29T10:05:00.000Z',
      },
    ],
  });

export const auditPageSchema = pageOf(auditEntrySchema).meta({ id: 'ApprovalAuditPage' });
export const auditQuery = z.object(pageQuery);
