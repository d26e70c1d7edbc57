import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import { errors } from '../../openapi/errors';
import {
  approvalPageSchema,
  approvalParams,
  approvalSchema,
  approvalsQuery,
  approveBody,
  auditPageSchema,
  auditQuery,
  policyBody,
  policySchema,
  rejectBody,
} from './approval-schemas';
import {
  decideApproval,
  listApprovals,
  listAudit,
  readPolicy,
  writePolicy,
  type ApprovalDeps,
} from './approvals';
import { projectParams } from './schemas';

const tags = ['approvals'];

/** Owner approvals in builds (docs/spec/contract.md §16, docs/guides/approvals.md). */
export const approvalRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const { config, temporal, redis, logger } = opts.deps;
  const depsOf = (request: FastifyRequest): ApprovalDeps => ({
    em: request.em,
    cursors: app.cursors,
    temporal,
    config,
    redis,
    logger,
  });

  app.get(
    '/projects/:slug/approval-policy',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'When the project’s builds stop for the owner’s approval (owner)',
        description:
          'The defaults until the owner sets one: ask_risky (workspace tools run, anything ' +
          'that reaches outside, such as fetch_url, asks), no rules, no plan approval, 24 h ' +
          'to answer, then the step is rejected.',
        errors: errors('project_not_found', 'not_owner'),
        tags,
        params: projectParams,
        response: { 200: policySchema },
      },
    },
    async (request) => readPolicy(depsOf(request), actorOf(request), request.params.slug),
  );

  app.put(
    '/projects/:slug/approval-policy',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Set when the project’s builds stop for approval (owner)',
        description:
          'Replaces the whole policy; a field left out takes its default. Rules are matched ' +
          'before the mode, and a deny rule wins over any other rule for its tool. Applies ' +
          'from the next step of a running build. Every change is kept in the audit trail.',
        errors: errors('project_not_found', 'not_owner'),
        tags,
        params: projectParams,
        body: policyBody,
        response: { 200: policySchema },
      },
    },
    async (request) =>
      writePolicy(depsOf(request), actorOf(request), request.params.slug, request.body),
  );

  app.get(
    '/projects/:slug/approvals',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'A project’s approval requests, newest first (owner)',
        description:
          'Cursor-paged; `status` pending, resolved or all (default). With `all` it is the ' +
          'history of every request and its outcome.',
        errors: errors('project_not_found', 'not_owner', 'invalid_cursor'),
        tags,
        params: projectParams,
        querystring: approvalsQuery,
        response: { 200: approvalPageSchema },
      },
    },
    async (request) =>
      listApprovals(depsOf(request), actorOf(request), request.params.slug, request.query),
  );

  app.get(
    '/projects/:slug/approval-audit',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Who did what to the project’s approvals and policy, and when (owner)',
        description:
          'Newest first, cursor-paged: every request, its notice, decision, expiry or ' +
          'cancel, and every policy change, with its actor (user:<id> or system:*).',
        errors: errors('project_not_found', 'not_owner', 'invalid_cursor'),
        tags,
        params: projectParams,
        querystring: auditQuery,
        response: { 200: auditPageSchema },
      },
    },
    async (request) =>
      listAudit(depsOf(request), actorOf(request), request.params.slug, request.query),
  );

  app.get(
    '/me/approvals',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Approval requests of all the caller’s projects, newest first',
        description: 'The inbox: `?status=pending` lists what waits for the caller.',
        errors: errors('invalid_cursor'),
        tags,
        querystring: approvalsQuery,
        response: { 200: approvalPageSchema },
      },
    },
    async (request) => listApprovals(depsOf(request), actorOf(request), null, request.query),
  );

  app.post(
    '/projects/:slug/approvals/:id/approve',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Approve a waiting step with the digest of the arguments shown (owner)',
        description:
          'The build goes on and runs the step. `argsDigest` must be the request’s (409 ' +
          'approval_stale otherwise): an approval approves exactly the arguments it was ' +
          'shown. The same approval again answers the same; a request decided otherwise, ' +
          'expired or canceled is 409 approval_resolved.',
        errors: errors('approval_not_found', 'approval_stale', 'approval_resolved'),
        tags,
        params: approvalParams,
        body: approveBody,
        response: { 200: approvalSchema },
      },
    },
    async (request) =>
      decideApproval(depsOf(request), actorOf(request), request.params, {
        to: 'approved',
        argsDigest: request.body.argsDigest,
        remember: request.body.remember ?? null,
      }),
  );

  app.post(
    '/projects/:slug/approvals/:id/reject',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Reject a waiting step, optionally saying why (owner)',
        description:
          'The step does not run; the build’s brain gets a tool error carrying the comment ' +
          'and goes on. The same rejection again answers the same.',
        errors: errors('approval_not_found', 'approval_resolved'),
        tags,
        params: approvalParams,
        body: rejectBody,
        response: { 200: approvalSchema },
      },
    },
    async (request) =>
      decideApproval(depsOf(request), actorOf(request), request.params, {
        to: 'rejected',
        comment: request.body.comment ?? null,
      }),
  );
};
