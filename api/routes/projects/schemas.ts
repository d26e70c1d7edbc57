import { z } from 'zod';
import { AGENT_TEMPLATES, PROJECT_STATUSES } from '../../../shared/db/entities/project';
import { RUN_STATUSES } from '../../../shared/db/entities/project-run';
import { pageOf, pageQuery } from '../../plugins/pagination';
import { isoTime, slugParams } from '../../wire';

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
  runId: z.string().max(64).describe('The run’s id (a UUID)'),
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
      .enum(PROJECT_STATUSES)
      .describe('idle at creation; queued and running belong to the current run'),
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
