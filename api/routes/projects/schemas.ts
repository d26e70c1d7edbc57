import { z } from 'zod';
import { AGENT_TEMPLATES, PROJECT_STATUSES } from '../../../shared/db/entities/project';
import { RUN_STATUSES } from '../../../shared/db/entities/project-run';
import { pageOf, pageQuery } from '../../paging/page';
import { idParam, isoTime, slugParams } from '../../wire';

/** Wire shapes of the project endpoints (spec "Projects", docs/spec/contract.md §1 and §7): camelCase. */

export const TITLE_MAX_LENGTH = 120;
export const BRIEF_MAX_LENGTH = 2000;

const required = (otherwise: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? 'is required' : otherwise;

/** A blank line (a paragraph break), with any whitespace on it. */
const PARAGRAPH_BREAK = /\n[ \t\r\f\v]*\n/;

export const createProjectBody = z.strictObject({
  tokenSlug: z
    .string({ error: required('must be a string') })
    .max(128, { error: 'must be at most 128 characters' })
    .describe('One of the caller’s tokens; it must have no project that is not archived'),
  title: z
    .string({ error: required('must be a string') })
    .trim()
    .min(1, { error: `must be 1 to ${TITLE_MAX_LENGTH} characters` })
    .max(TITLE_MAX_LENGTH, { error: `must be 1 to ${TITLE_MAX_LENGTH} characters` })
    .describe(`1 to ${TITLE_MAX_LENGTH} characters (trimmed); the slug derives from it`),
  brief: z
    .string({ error: required('must be a string') })
    .trim()
    .min(1, { error: `must be 1 to ${BRIEF_MAX_LENGTH} characters` })
    .max(BRIEF_MAX_LENGTH, { error: `must be 1 to ${BRIEF_MAX_LENGTH} characters` })
    .refine((brief) => !PARAGRAPH_BREAK.test(brief), {
      error: 'must be one paragraph (no blank line)',
    })
    .describe(`One paragraph (no blank line), 1 to ${BRIEF_MAX_LENGTH} characters (trimmed)`),
  // Any string passes here: a value outside the presets is `template_unknown` (spec Errors).
  agentTemplate: z
    .string({ error: required('must be a string') })
    .meta({ enum: [...AGENT_TEMPLATES] })
    .describe(`One of ${AGENT_TEMPLATES.join(', ')}; anything else is template_unknown`),
  private: z
    .boolean({ error: 'must be a boolean' })
    .default(false)
    .describe('Visible to its owner only; needs the max tier (privateProjects)'),
});

export type CreateProjectInput = z.output<typeof createProjectBody>;

export const projectParams = slugParams;

/** `project_runs.planner`: `queueRun` writes `pending`, the worker's begin one of the others. */
export const RUN_PLANNERS = ['pending', 'deterministic', 'llm'] as const;
export type RunPlanner = (typeof RUN_PLANNERS)[number];

export const artifactParams = slugParams.extend({
  runId: idParam.describe('The run’s id (a UUID)'),
});

export const runSchema = z
  .object({
    runId: z.uuid(),
    status: z.enum(RUN_STATUSES),
    planner: z
      .enum(RUN_PLANNERS)
      .describe(
        'What plans the build: `pending` until a worker begins the run, then `deterministic` ' +
          '(the template’s built-in plan) or `llm`',
      ),
    createdAt: isoTime,
    startedAt: isoTime.nullable(),
    finishedAt: isoTime.nullable(),
    headSha: z.string().nullable().describe('The workspace’s last commit'),
    reason: z.string().nullable().describe('Why the run failed or was canceled'),
    artifactUrl: z
      .string()
      .nullable()
      .describe('Download of the last commit as a gzipped tarball; null until there is one'),
  })
  .meta({ id: 'ProjectRunSummary' });

export const projectSchema = z
  .object({
    id: z.uuid(),
    slug: z.string(),
    tokenSlug: z.string(),
    title: z.string(),
    brief: z.string(),
    agentTemplate: z.enum(AGENT_TEMPLATES),
    private: z.boolean(),
    status: z
      .enum([...PROJECT_STATUSES, 'awaiting_approval'])
      .describe(
        'idle at creation; queued and running belong to the current run; ' +
          'awaiting_approval while the running build waits for the owner (pendingApproval)',
      ),
    pendingApproval: z
      .object({
        id: z.uuid(),
        kind: z.enum(['plan', 'tool_call']),
        tool: z.string().nullable(),
        argsPreview: z.unknown(),
        argsDigest: z.string(),
        expiresAt: isoTime,
      })
      .nullable()
      .describe(
        'The step the current run waits on (approve or reject it: docs/guides/approvals.md)',
      ),
    createdAt: isoTime,
    updatedAt: isoTime,
    archivedAt: isoTime.nullable(),
    lastEventId: z
      .number()
      .int()
      .describe('Id of the project’s newest stream event; 0 before the first'),
    streamUrl: z
      .string()
      .describe('The project’s SSE stream')
      .meta({ examples: ['https://api.example.com/projects/creme-brulee-shop/stream'] }),
    pageUrl: z
      .string()
      .describe(
        'The project’s live build page (HTML): title, status, plan, tool calls, messages, ' +
          'commits and final status, live from `streamUrl`; a private project’s page is for ' +
          'its owner’s session only (404 for anyone else)',
      )
      .meta({ examples: ['https://api.example.com/p/creme-brulee-shop'] }),
    run: runSchema.nullable().describe('The current (latest started) run; null before any'),
  })
  .meta({ id: 'Project' });

export const projectPageSchema = pageOf(projectSchema).meta({ id: 'ProjectPage' });

export const pageQuerySchema = z.object(pageQuery);

export const startedSchema = z
  .object({ runId: z.uuid().describe('The run just queued') })
  .meta({ id: 'ProjectRunStarted' });

export const cancelSchema = z
  .object({ runId: z.uuid(), cancelRequested: z.literal(true) })
  .meta({ id: 'ProjectRunCancel' });

export const subscribedSchema = z
  .object({ subscribed: z.literal(true) })
  .meta({ id: 'ProjectSubscribed' });

export const unsubscribedSchema = z.null().describe('Not (or no longer) subscribed');

/** No body at all (not even `null`): a 304 has none. */
export const notModifiedResponse = z
  .undefined()
  .describe('The client’s copy (If-None-Match) is current; no body');

/** A binary body: Fastify sends a Buffer as it is, so this schema only documents it. */
export const artifactResponse = {
  description: 'The run’s last commit as a gzipped tarball (attachment)',
  content: {
    'application/gzip': {
      schema: z.instanceof(Buffer).meta({ type: 'string', format: 'binary' }),
    },
  },
};

export type ProjectView = z.infer<typeof projectSchema>;
export type RunView = z.infer<typeof runSchema>;

/** What each service takes: the path's slug (and run id) beside the parsed body or query. */
export type ProjectSlugInput = z.output<typeof projectParams>;
export type ProjectPageInput = z.output<typeof pageQuerySchema>;
export type ArtifactInput = z.output<typeof artifactParams> & {
  /** The request's `If-None-Match`, if any. */
  ifNoneMatch: string | undefined;
};

// The project stream (`stream-routes.ts`).

const lastEventId = z
  .string()
  .regex(/^\d+$/, { error: 'must be a non-negative integer' })
  .transform(Number)
  .refine(Number.isSafeInteger, { error: 'must be a non-negative integer' });

export const streamHeaders = z.looseObject({
  'last-event-id': lastEventId
    .optional()
    .describe('The last event id the client has; only newer events are sent'),
});

export const streamQuery = z.object({
  lastEventId: lastEventId
    .optional()
    .describe(
      'The same as the Last-Event-ID header, for clients that cannot set headers; ' +
        'the header wins when both are present',
    ),
});

export const STREAM_DESCRIPTION =
  'Server-Sent Events. Each event has `id` (the project’s event sequence number), `event` ' +
  '(plan, tool_call, tool_result, message, screenshot, commit, error, done) and `data` ' +
  '(JSON). Events newer than `Last-Event-ID` (or the `lastEventId` query parameter) are ' +
  'replayed from the last 1000 kept (from the oldest kept when it is older; every kept event ' +
  'without an id), then the stream goes live without gap or duplicate. Viewers whose tier has ' +
  '`fasterSse` (pro, max) get each live event as it happens; others (anonymous, free, plus) ' +
  'get them in batches at most every 1 s (by default), each event with its own id; the replay ' +
  'and the final `done` are sent at once. A `retry:` hint is ' +
  'sent on connect and a `: keep-alive` comment every 15 s (by default). The stream ends ' +
  'after the `done` of the current run (an archived project’s, after its last event). A ' +
  'client that has every event gets 204 when the last run is done or the project is ' +
  'archived. A client that stops reading is disconnected once ' +
  '1 MB waits for it, and resumes by reconnecting with its last id.';

/** A reconnect after event 40: the rest of a build, replayed then live, to its `done`. */
const STREAM_EXAMPLE = [
  'retry: 3000',
  '',
  'id: 41',
  'event: tool_call',
  'data: {"tool":"shell","args":{"command":"npm run build"},"callId":"step-6"}',
  '',
  'id: 42',
  'event: tool_result',
  'data: {"callId":"step-6","result":{"exitCode":0}}',
  '',
  'id: 43',
  'event: commit',
  'data: {"sha":"4b825dc642cb6eb9a060e54bf8d69288fbee4904","message":"Build the landing page","files":["index.html","styles.css"]}',
  '',
  ': keep-alive',
  '',
  'id: 44',
  'event: done',
  'data: {"runId":"3f1c2a9e-8b7d-4c6e-9a5f-2d4b8e7c1a03","finalStatus":"completed"}',
  '',
  '',
].join('\n');

/** The event stream itself (documented only: the route writes it past the serializer). */
export const streamResponse = {
  description: 'The event stream',
  content: {
    'text/event-stream': {
      schema: z
        .string()
        .describe(STREAM_DESCRIPTION)
        .meta({ examples: [STREAM_EXAMPLE] }),
    },
  },
};

export const streamDoneResponse = z
  .null()
  .describe(
    'Nothing more will come: the client has every event and the last run is done or ' +
      'the project is archived (also an archived project without events)',
  );

export type StreamInput = z.output<typeof projectParams> & {
  /** The last event id the client has (header, else query); null for none. */
  since: number | null;
};
