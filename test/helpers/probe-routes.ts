import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageOf, pageQuery, pageScope, paginate } from '../../api/paging/page';
import { User } from '../../shared/db/entities';

/**
 * Routes that exist only in tests, to drive the shared conventions (errors, pagination,
 * idempotency) through real HTTP the way product routes will.
 */
export const probeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/__probe/echo',
    {
      config: { auth: 'public' },
      schema: {
        body: z.strictObject({
          name: z.string().min(1).max(64, { error: 'must be 1 to 64 characters' }),
          count: z.number().int().optional(),
        }),
        response: { 200: z.object({ name: z.string(), count: z.number().nullable() }) },
      },
    },
    async (request) => ({ name: request.body.name, count: request.body.count ?? null }),
  );

  app.get('/__probe/boom', { config: { auth: 'public' } }, async () => {
    throw new Error('select password_hash from users where id = 1 -- secret internals');
  });

  const userSchema = z.object({
    id: z.number(),
    address: z.string().nullish(),
    createdAt: z.date(),
  });

  app.get(
    '/__probe/users',
    {
      config: { auth: 'public' },
      schema: {
        querystring: z.object({ ...pageQuery, order: z.enum(['new', 'old']).default('new') }),
        response: { 200: pageOf(userSchema) },
      },
    },
    async (request) => {
      const { cursor, limit, order } = request.query;
      const direction = order === 'new' ? 'desc' : 'asc';
      return paginate(request.em, app.cursors, User, {
        scope: pageScope('probe-users', { order }),
        where: {},
        orderBy: { createdAt: direction, id: direction },
        limit,
        cursor,
      });
    },
  );

  // A write with a visible side effect (a user row) and an optional delay, for idempotency.
  app.post(
    '/__probe/users',
    {
      config: { auth: 'public' },
      schema: {
        body: z.strictObject({
          address: z.string(),
          delayMs: z.number().int().max(5000).optional(),
        }),
        response: { 201: userSchema },
      },
    },
    async (request, reply) => {
      if (request.body.delayMs) await new Promise((r) => setTimeout(r, request.body.delayMs));
      const user = request.em.create(User, { address: request.body.address.toLowerCase() });
      await request.em.flush();
      reply.header('location', `/__probe/users/${user.id}`);
      return reply.code(201).send(user);
    },
  );

  app.delete('/__probe/fail', { config: { auth: 'public' } }, async (_request, reply) => {
    return reply.code(503).send({ error: { code: 'service_unavailable', message: 'try later' } });
  });
};
