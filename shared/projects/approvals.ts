import { createHash } from 'node:crypto';
import stringify from 'safe-stable-stringify';
import type { ApprovalMode, ApprovalRule, OnTimeout, RuleAction } from '../db/entities/approval';

/**
 * The approval policy's rules (docs/spec/contract.md §16), shared by the API that edits a
 * policy and the build worker that applies it.
 */

export interface Policy {
  mode: ApprovalMode;
  rules: ApprovalRule[];
  planApproval: boolean;
  timeoutSeconds: number;
  onTimeout: OnTimeout;
}

export const DEFAULT_POLICY: Policy = {
  mode: 'ask_risky',
  rules: [],
  planApproval: false,
  timeoutSeconds: 86_400,
  onTimeout: 'reject',
};

export const POLICY_LIMITS = {
  minTimeoutSeconds: 300,
  maxTimeoutSeconds: 604_800,
  maxRules: 50,
} as const;

/**
 * Tools that act only inside the run's workspace (files, the sandboxed command, commits, the
 * plan): `ask_risky` runs them without asking. Anything else reaches outside and asks.
 */
export const WORKSPACE_TOOLS: readonly string[] = [
  'write_file',
  'run_command',
  'commit',
  'update_plan',
];

/**
 * What the policy says about a call of `tool`: the rules first (`deny` wins over any other
 * rule for the tool, else the first matching rule), then the mode.
 */
export function actionFor(policy: Pick<Policy, 'mode' | 'rules'>, tool: string): RuleAction {
  const matching = policy.rules.filter((rule) => rule.tool === tool);
  if (matching.some((rule) => rule.action === 'deny')) return 'deny';
  if (matching[0]) return matching[0].action;
  if (policy.mode === 'autonomous') return 'allow';
  if (policy.mode === 'ask_all') return 'ask';
  return WORKSPACE_TOOLS.includes(tool) ? 'allow' : 'ask';
}

/** SHA-256 of the arguments in canonical JSON (keys sorted): what an approval binds to. */
export function argsDigest(args: unknown): string {
  return createHash('sha256')
    .update(stringify(args ?? null) ?? 'null')
    .digest('hex');
}

const PREVIEW_STRING_CHARS = 500;

/** The arguments as an owner (and the stream) sees them: every long string cut. */
export function argsPreview(args: unknown): unknown {
  if (typeof args === 'string') {
    return args.length > PREVIEW_STRING_CHARS ? `${args.slice(0, PREVIEW_STRING_CHARS)}…` : args;
  }
  if (Array.isArray(args)) return args.slice(0, 50).map(argsPreview);
  if (args && typeof args === 'object') {
    return Object.fromEntries(
      Object.entries(args as Record<string, unknown>)
        .slice(0, 50)
        .map(([key, value]) => [key, argsPreview(value)]),
    );
  }
  return args;
}
