import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';
import { actorOf } from '../../access/actor';
import { listDeliveries, redeliver, sendTestPing } from './deliveries';
import {
  createdWebhookSchema,
  createWebhookBody,
  deletedResponse,
  deliveryIdParams,
  deliveryListQuery,
  deliveryPageSchema,
  deliveryStartedSchema,
  eventCatalogSchema,
  webhookIdParams,
  webhookListSchema,
} from './schemas';
import {
  createWebhook,
  deleteWebhook,
  listEvents,
  listWebhooks,
  type WebhookDeps,
} from './service';
import { errors } from '../../openapi/errors';

const tags = ['webhooks'];

/** Webhook subscriptions and deliveries (spec "Webhooks", docs/spec/contract.md §7). */
export const webhookRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const { config, temporal, db } = opts.deps;
  const depsOf = (request: FastifyRequest): WebhookDeps => ({
    em: request.em,
    db,
    cursors: app.cursors,
    config,
    temporal,
  });

  app.post(
    '/me/webhooks',
    {
      config: { auth: 'user', secretResponse: true },
      schema: {
        summary: 'Subscribe a URL to events (the signing secret is in this response only)',
        description:
          'Deliveries are signed Standard Webhooks requests (docs/guides/webhooks.md) with ' +
          'the `secret` in this response only. The URL must be https and resolve to a ' +
          'public address; `events` empty or left out means every event, future ones ' +
          'included.',
        errors: errors('invalid_url', 'webhook_limit_reached'),
        tags,
        body: createWebhookBody,
        response: { 201: createdWebhookSchema },
      },
    },
    async (request, reply) => {
      const created = await createWebhook(depsOf(request), actorOf(request), request.body);
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/me/webhooks',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The caller’s subscriptions',
        description:
          'Live subscriptions (not deleted), each with its last failed delivery, if any.',
        tags,
        response: { 200: webhookListSchema },
      },
    },
    async (request) => listWebhooks(depsOf(request), actorOf(request)),
  );

  // A static segment outranks `:id` in Fastify's router, whatever the registration order.
  app.get(
    '/me/webhooks/events',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The canonical list of subscribable events',
        description:
          'The event names POST /me/webhooks accepts in `events` (`ping` is only sent by ' +
          'the test endpoint).',
        tags,
        response: { 200: eventCatalogSchema },
      },
    },
    async (request) => listEvents(depsOf(request), actorOf(request)),
  );

  app.post(
    '/me/webhooks/:id/test',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Send a `ping` delivery now',
        description:
          'Queues a signed `ping` delivery to the subscription’s URL at once; follow it ' +
          'with GET /me/webhooks/{id}/deliveries.',
        errors: errors('webhook_not_found'),
        tags,
        params: webhookIdParams,
        response: { 202: deliveryStartedSchema },
      },
    },
    async (request, reply) => {
      const started = await sendTestPing(depsOf(request), actorOf(request), request.params);
      return reply.code(202).send(started);
    },
  );

  app.delete(
    '/me/webhooks/:id',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Delete a subscription (soft: its delivery history stays)',
        description: 'No new deliveries are made; pending retries stop.',
        errors: errors('webhook_not_found'),
        tags,
        params: webhookIdParams,
        response: { 204: deletedResponse },
      },
    },
    async (request, reply) => {
      await deleteWebhook(depsOf(request), actorOf(request), request.params);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/me/webhooks/:id/deliveries',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'A subscription’s deliveries, newest first, with every attempt',
        description:
          'Cursor-paged; each delivery lists its attempts with the status code, duration ' +
          'and error of each.',
        errors: errors('webhook_not_found'),
        tags,
        params: webhookIdParams,
        querystring: deliveryListQuery,
        response: { 200: deliveryPageSchema },
      },
    },
    async (request) =>
      listDeliveries(depsOf(request), actorOf(request), { ...request.params, ...request.query }),
  );

  app.post(
    '/me/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Send a delivery’s envelope again (same envelope id) as a new delivery',
        description:
          'The same envelope (same `webhook-id`, so a receiver that already processed it ' +
          'can drop it) as a new delivery with its own retries.',
        errors: errors('webhook_not_found', 'delivery_not_found'),
        tags,
        params: deliveryIdParams,
        response: { 202: deliveryStartedSchema },
      },
    },
    async (request, reply) => {
      const started = await redeliver(depsOf(request), actorOf(request), request.params);
      return reply.code(202).send(started);
    },
  );
};
