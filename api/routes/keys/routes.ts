import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import {
  apiKeySchema,
  createdKeySchema,
  createKeyBody,
  keyIdParams,
  keyListSchema,
  recentQuery,
  recentSchema,
  revokedResponse,
  rolledKeySchema,
  rollKeyBody,
  updateKeyBody,
  usageQuery,
  usageSchema,
} from './schemas';
import { createKey, listKeys, revokeKey, rollKey, updateKey, type KeyDeps } from './service';
import { keyUsage, recentCalls } from './usage';
import { errors } from '../../openapi/errors';

const tags = ['api-keys'];

/** API keys (spec "API keys", docs/spec/contract.md §4). A session or an API key may manage keys. */
export const keyRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const depsOf = (request: FastifyRequest): KeyDeps => ({
    em: request.em,
    db: opts.deps.db,
    apiKeys: app.access.apiKeys,
    usage: app.usage,
  });

  app.post(
    '/me/api-keys',
    {
      config: { auth: 'user', secretResponse: true },
      schema: {
        summary: 'Create an API key (the raw key is in this response only)',
        description:
          'The raw key (`svc_live_…`) is in this response only: store it now; the API ' +
          'keeps only its hash. Send it as `x-api-key` or `Authorization: Bearer`. ' +
          '`rate_limit_rpm` is the key’s own per-minute bucket (0: the owner’s); ' +
          '`spend_limit_flow` caps the FLOW its requests may spend per `spend_period` (402 ' +
          'spend_limit_reached beyond it).',
        errors: errors('api_key_limit_reached'),
        tags,
        body: createKeyBody,
        response: { 201: createdKeySchema },
      },
    },
    async (request, reply) => {
      const created = await createKey(depsOf(request), actorOf(request), request.body);
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/me/api-keys',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Active API keys',
        description:
          'The caller’s keys that still work (a rolled key until its grace period ends), ' +
          'newest first; never the raw key, only its prefix.',
        tags,
        response: { 200: keyListSchema },
      },
    },
    async (request) => listKeys(depsOf(request), actorOf(request)),
  );

  app.patch(
    '/me/api-keys/:id',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Change a key’s name or limits (a new spend_period restarts the count)',
        description:
          'Only the fields sent change. Changing `spend_period` starts a new period from ' +
          'now with nothing spent; `spend_limit_flow: null` removes the cap. Every ' +
          'instance sees the change at once.',
        errors: errors('api_key_not_found'),
        tags,
        params: keyIdParams,
        body: updateKeyBody,
        response: { 200: apiKeySchema },
      },
    },
    async (request) =>
      updateKey(depsOf(request), actorOf(request), { ...request.params, ...request.body }),
  );

  app.delete(
    '/me/api-keys/:id',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Revoke a key (soft: the record stays for audit)',
        description:
          'The key stops working at once on every instance; its usage history stays. A key ' +
          'already revoked or expired is 404.',
        errors: errors('api_key_not_found'),
        tags,
        params: keyIdParams,
        response: { 204: revokedResponse },
      },
    },
    async (request, reply) => {
      await revokeKey(depsOf(request), actorOf(request), request.params);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/me/api-keys/:id/roll',
    {
      config: { auth: 'user', secretResponse: true },
      schema: {
        summary: 'Roll a key: a successor now, the old key keeps working for a grace period',
        description:
          'Rotation without downtime: the successor has the same name and limits (and the ' +
          'spend already counted this period) and its raw key is in this response only; ' +
          'the old key keeps working for `grace_seconds` (24 h by default, 0 to end it ' +
          'now), then counts as revoked. A key can be rolled once: roll its successor next ' +
          'time.',
        errors: errors('api_key_not_found', 'api_key_limit_reached', 'api_key_rolled'),
        tags,
        params: keyIdParams,
        body: rollKeyBody,
        response: { 201: rolledKeySchema },
      },
    },
    async (request, reply) => {
      const input = { ...request.params, ...request.body };
      const rolled = await rollKey(depsOf(request), actorOf(request), input);
      return reply.code(201).send(rolled);
    },
  );

  app.get(
    '/me/api-keys/:id/usage',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Usage summary of a key, with by_model and by_endpoint',
        description:
          'Requests, errors (status ≥ 400) and FLOW spent by the key since the start of ' +
          'the day, week or month (UTC), or ever (`since=all`), with the split by model ' +
          '(agent calls that reported one) and by endpoint.',
        errors: errors('api_key_not_found'),
        tags,
        params: keyIdParams,
        querystring: usageQuery,
        response: { 200: usageSchema },
      },
    },
    async (request) =>
      keyUsage(depsOf(request), actorOf(request), { ...request.params, ...request.query }),
  );

  app.get(
    '/me/api-keys/:id/recent',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Recent calls made with a key, newest first',
        description:
          'The key’s latest requests (up to `limit`, at most 200): route, status, latency, ' +
          'FLOW charged and model.',
        errors: errors('api_key_not_found'),
        tags,
        params: keyIdParams,
        querystring: recentQuery,
        response: { 200: recentSchema },
      },
    },
    async (request) =>
      recentCalls(depsOf(request), actorOf(request), { ...request.params, ...request.query }),
  );
};
