import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import {
  apiKeySchema,
  createdKeySchema,
  createKeyBody,
  keyIdParams,
  recentQuery,
  recentSchema,
  rolledKeySchema,
  DEFAULT_GRACE_SECONDS,
  rollKeyBody,
  updateKeyBody,
  usageQuery,
  usageSchema,
} from './schemas';
import { createKey, listKeys, revokeKey, rollKey, updateKey } from './service';
import { keyUsage, recentCalls } from './usage';

const tags = ['api-keys'];

/** API keys (spec "API keys", decisions §4). A session or an API key may manage keys. */
export const keyRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const reads = { db: opts.deps.db };
  const services = (request: FastifyRequest) => ({
    em: request.em,
    apiKeys: app.access.apiKeys,
  });

  app.post(
    '/me/api-keys',
    {
      config: { auth: 'user', secretResponse: true },
      schema: {
        summary: 'Create an API key (the raw key is in this response only)',
        tags,
        body: createKeyBody,
        response: { 201: createdKeySchema },
      },
    },
    async (request, reply) => {
      const created = await createKey(services(request), actorOf(request).userId, request.body);
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/me/api-keys',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Active API keys',
        tags,
        response: { 200: z.object({ items: z.array(apiKeySchema) }) },
      },
    },
    async (request) => listKeys(reads, actorOf(request).userId),
  );

  app.patch(
    '/me/api-keys/:id',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Change a key’s name or limits (a new spend_period restarts the count)',
        tags,
        params: keyIdParams,
        body: updateKeyBody,
        response: { 200: apiKeySchema },
      },
    },
    async (request) =>
      updateKey(services(request), actorOf(request).userId, request.params.id, request.body),
  );

  app.delete(
    '/me/api-keys/:id',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Revoke a key (soft: the record stays for audit)',
        tags,
        params: keyIdParams,
        response: { 204: z.null().describe('Revoked') },
      },
    },
    async (request, reply) => {
      await revokeKey(services(request), actorOf(request).userId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/me/api-keys/:id/roll',
    {
      config: { auth: 'user', secretResponse: true },
      schema: {
        summary: 'Roll a key: a successor now, the old key keeps working for a grace period',
        tags,
        params: keyIdParams,
        body: rollKeyBody,
        response: { 201: rolledKeySchema },
      },
    },
    async (request, reply) => {
      const grace = request.body?.grace_seconds ?? DEFAULT_GRACE_SECONDS;
      const rolled = await rollKey(
        services(request),
        actorOf(request).userId,
        request.params.id,
        grace,
      );
      return reply.code(201).send(rolled);
    },
  );

  app.get(
    '/me/api-keys/:id/usage',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Usage summary of a key, with by_model and by_endpoint',
        tags,
        params: keyIdParams,
        querystring: usageQuery,
        response: { 200: usageSchema },
      },
    },
    async (request) => {
      // Read-your-writes on this instance: what it has buffered is written first.
      await app.usage.flush();
      return keyUsage(reads, actorOf(request).userId, request.params.id, request.query.since);
    },
  );

  app.get(
    '/me/api-keys/:id/recent',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Recent calls made with a key, newest first',
        tags,
        params: keyIdParams,
        querystring: recentQuery,
        response: { 200: recentSchema },
      },
    },
    async (request) => {
      await app.usage.flush();
      return recentCalls(reads, actorOf(request).userId, request.params.id, request.query.limit);
    },
  );
};
