import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import { downloadArtifact } from './artifact';
import { cancelRun, startRun } from './runs';
import {
  artifactParams,
  artifactResponse,
  cancelSchema,
  createProjectBody,
  pageQuerySchema,
  projectPageSchema,
  projectParams,
  projectSchema,
  startedSchema,
  notModifiedResponse,
  subscribedSchema,
  unsubscribedSchema,
} from './schemas';
import { archiveProject, createProject, subscribe, unsubscribe, type ProjectDeps } from './service';
import { listOwnProjects, viewProject } from './views';
import { errors } from '../../openapi/errors';

const tags = ['projects'];

/** Projects (spec "Projects", docs/spec/contract.md §7). The stream lives in `stream-routes.ts`. */
export const projectRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const { config, temporal, db } = opts.deps;
  const depsOf = (request: FastifyRequest): ProjectDeps => ({
    em: request.em,
    db,
    cursors: app.cursors,
    config,
    temporal,
  });

  app.post(
    '/projects',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Create a project on one of the caller’s tokens (one active project per token)',
        description:
          'Idle at creation: POST /projects/{slug}/start queues its first build. A token ' +
          'has at most one project that is not archived. `private` needs the max tier.',
        errors: errors(
          'template_unknown',
          'token_not_found',
          'token_no_match',
          'feature_not_in_tier',
          'project_locked',
        ),
        tags,
        body: createProjectBody,
        response: { 201: projectSchema },
      },
    },
    async (request, reply) => {
      const project = await createProject(depsOf(request), actorOf(request), request.body);
      return reply.code(201).send(project);
    },
  );

  app.get(
    '/me/projects',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The caller’s projects, archived ones included, newest first',
        description: 'Cursor-paged, private projects included.',
        tags,
        querystring: pageQuerySchema,
        response: { 200: projectPageSchema },
      },
    },
    async (request) => listOwnProjects(depsOf(request), actorOf(request), request.query),
  );

  app.get(
    '/projects/:slug',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'A project with its status and current run (private: its owner only)',
        description:
          'Anyone may read a public project. A private one is its owner’s: anonymously ' +
          '401, for anyone else 404, as if it did not exist.',
        errors: errors('project_not_found'),
        tags,
        params: projectParams,
        response: { 200: projectSchema },
      },
    },
    async (request) => viewProject(depsOf(request), request.actor, request.params),
  );

  app.post(
    '/projects/:slug/start',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Queue a build run and start its workflow (owner)',
        description:
          'From idle, completed, failed or canceled. A queued or running project is 409 ' +
          'run_in_progress; an archived one 409 project_archived.',
        errors: errors('project_not_found', 'not_owner', 'run_in_progress', 'project_archived'),
        tags,
        params: projectParams,
        response: { 200: startedSchema },
      },
    },
    async (request) => startRun(depsOf(request), actorOf(request), request.params),
  );

  app.post(
    '/projects/:slug/cancel',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Ask the queued or running build to stop; it ends as canceled (owner)',
        description:
          'The run stops after its current step and ends as `canceled` (watch the stream ' +
          'for its `done`).',
        errors: errors('project_not_found', 'not_owner', 'no_active_run'),
        tags,
        params: projectParams,
        response: { 200: cancelSchema },
      },
    },
    async (request) => cancelRun(depsOf(request), actorOf(request), request.params),
  );

  app.post(
    '/projects/:slug/archive',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Archive a project at rest, freeing its token for a new project (owner)',
        description:
          'Idempotent; a queued or running project must be canceled first. Its stream and ' +
          'artifacts stay readable.',
        errors: errors('project_not_found', 'not_owner', 'run_in_progress'),
        tags,
        params: projectParams,
        response: { 200: projectSchema },
      },
    },
    async (request) => archiveProject(depsOf(request), actorOf(request), request.params),
  );

  app.post(
    '/projects/:slug/subscribe',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Follow a project’s milestones through the messaging bot',
        description:
          'Idempotent. The caller is notified (GET /me/notifications, and through the ' +
          'Matrix bot once a Matrix account is linked) when a build starts, completes, ' +
          'fails or is canceled.',
        errors: errors('project_not_found', 'project_archived'),
        tags,
        params: projectParams,
        response: { 200: subscribedSchema },
      },
    },
    async (request) => subscribe(depsOf(request), actorOf(request), request.params),
  );

  app.delete(
    '/projects/:slug/subscribe',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Stop following a project’s milestones (idempotent)',
        description: 'Allowed on an archived project too.',
        errors: errors('project_not_found'),
        tags,
        params: projectParams,
        response: { 204: unsubscribedSchema },
      },
    },
    async (request, reply) => {
      await unsubscribe(depsOf(request), actorOf(request), request.params);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/projects/:slug/runs/:runId/artifact',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Download a run’s last commit as a gzipped tarball',
        description:
          'A run’s artifact never changes: `Cache-Control: public, max-age=31536000, ' +
          'immutable` (`private, …` for a private project) and an `ETag`; a request whose ' +
          '`If-None-Match` matches it gets 304 without a body.',
        errors: errors('project_not_found', 'artifact_not_found'),
        tags,
        params: artifactParams,
        response: { 200: artifactResponse, 304: notModifiedResponse },
      },
    },
    async (request, reply) => {
      const { artifact, bytes } = await downloadArtifact(depsOf(request), request.actor, {
        ...request.params,
        ifNoneMatch: request.headers['if-none-match'],
      });
      // Set only now: an error response (even a failed read) must never be cached for a year.
      void reply.header('etag', artifact.etag).header('cache-control', artifact.cacheControl);
      if (!bytes) return reply.code(304).send(undefined);
      return reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', `attachment; filename="${artifact.filename}"`)
        .send(bytes);
    },
  );
};
