import { z } from 'zod';

/**
 * The project stream's events (spec "Project stream (SSE)"): one schema per type, shared by
 * the workers that emit them, the API that streams them and the OpenAPI document.
 */
export const projectEventData = {
  plan: z.object({ steps: z.array(z.string()), revision: z.number().int().positive() }),
  tool_call: z.object({ tool: z.string(), args: z.unknown(), callId: z.string() }),
  tool_result: z.object({
    callId: z.string(),
    result: z.unknown(),
    error: z.string().optional(),
  }),
  message: z.object({ role: z.literal('assistant'), text: z.string() }),
  screenshot: z.object({ url: z.string(), caption: z.string().optional() }),
  commit: z.object({
    sha: z.string(),
    message: z.string(),
    // At most 200 paths; `filesTotal` counts them all when there were more.
    files: z.array(z.string()),
    filesTotal: z.number().int().optional(),
  }),
  error: z.object({ message: z.string(), recoverable: z.boolean() }),
  done: z.object({ runId: z.string(), finalStatus: z.enum(['completed', 'failed', 'canceled']) }),
  // Owner approvals (docs/spec/contract.md §16): the run stopped before a step, and the answer.
  approval_requested: z.object({
    approvalId: z.string(),
    kind: z.enum(['plan', 'tool_call']),
    tool: z.string().nullable(),
    callId: z.string().nullable(),
    argsPreview: z.unknown(),
    argsDigest: z.string(),
    expiresAt: z.string(),
  }),
  approval_resolved: z.object({
    approvalId: z.string(),
    decision: z.enum(['approved', 'rejected', 'expired', 'canceled']),
    by: z.enum(['owner', 'timeout', 'cancel']),
    comment: z.string().nullable(),
  }),
} as const;

export type ProjectEventType = keyof typeof projectEventData;
export const PROJECT_EVENT_TYPES = Object.keys(projectEventData) as ProjectEventType[];

export type ProjectEventDataOf<T extends ProjectEventType> = z.infer<(typeof projectEventData)[T]>;

/** An event as a step emits it: `key` is deterministic per step, so retries find it again. */
export type NewProjectEvent = {
  [T in ProjectEventType]: { key: string; type: T; data: ProjectEventDataOf<T> };
}[ProjectEventType];

/** An event as stored and streamed: `seq` is the SSE `id`. */
export interface ProjectStreamEvent {
  seq: number;
  type: ProjectEventType;
  data: Record<string, unknown>;
}

/** How many events per project are kept for replay (spec Limits: stream replay). */
export const PROJECT_EVENTS_KEPT = 1000;

/**
 * Redis pub/sub channel of a project's live events. Channels are not covered by ioredis'
 * `keyPrefix`, so the deployment's prefix is applied here, by both publisher and subscriber.
 */
export function projectEventsChannel(redisKeyPrefix: string, projectId: string): string {
  return `${redisKeyPrefix}project-events:${projectId}`;
}
