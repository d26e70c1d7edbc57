import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Hex } from 'viem';
import { ChainClients } from '../../../shared/chain/clients';
import type { ApiDeps } from '../../deps';
import {
  SESSION_COOKIE,
  SESSION_COOKIE_OPTIONS,
  SESSION_LIFETIME_SECONDS,
} from '../../access/session-tokens';
import { actorOf } from '../../access/actor';
import { issueNonce, verifySiwe } from './siwe';
import { isoTime } from '../../wire';

const meSchema = z
  .object({
    id: z.number().int(),
    address: z
      .string()
      .nullable()
      .describe('The signed-in wallet, lowercase; null for an account without a wallet'),
    createdAt: isoTime,
  })
  .meta({ id: 'Me' });

/** SIWE login, logout and the current user (decisions §3). */
export const authRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, { deps }) => {
  const siwe = {
    redis: deps.redis,
    chains: new ChainClients(deps.config.chainRpcUrls),
    domain: deps.config.siweDomain,
    logger: deps.logger,
  };

  app.post(
    '/auth/nonce',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Get a single-use SIWE nonce (valid 10 minutes)',
        tags: ['auth'],
        response: { 200: z.object({ nonce: z.string(), expiresAt: isoTime }) },
      },
    },
    async () => {
      const { nonce, expiresAt } = await issueNonce(siwe);
      return { nonce, expiresAt: expiresAt.toISOString() };
    },
  );

  app.post(
    '/auth/verify',
    {
      // Its Set-Cookie carries the new session token.
      config: { auth: 'public', secretResponse: true },
      schema: {
        summary: 'Log in with a signed SIWE message; sets the svc_session cookie',
        tags: ['auth'],
        body: z.strictObject({
          message: z.string().min(1).max(4096, { error: 'must be at most 4096 characters' }),
          signature: z
            .string()
            .max(20_000)
            .regex(/^0x[0-9a-fA-F]+$/, { error: 'must be a 0x-prefixed hex string' }),
        }),
        response: {
          200: z.object({ user: z.object({ id: z.number().int(), address: z.string() }) }),
        },
      },
    },
    async (request, reply) => {
      const address = await verifySiwe(siwe, {
        message: request.body.message,
        signature: request.body.signature as Hex,
      });
      // First login creates the user; the no-op update makes RETURNING answer both ways.
      const [user] = await request.em.execute<{ id: number; address: string }[]>(
        `insert into users (address) values (?)
         on conflict (address) do update set address = excluded.address
         returning id, address`,
        [address],
      );
      if (!user) throw new Error('user upsert returned nothing');
      const now = Math.floor(Date.now() / 1000);
      const expiresAt = new Date((now + SESSION_LIFETIME_SECONDS) * 1000);
      const sessionId = await app.access.sessions.create(user.id, expiresAt);
      const { token } = app.access.tokens.sign(user.id, sessionId, now);
      reply.setCookie(SESSION_COOKIE, token, {
        ...SESSION_COOKIE_OPTIONS,
        maxAge: SESSION_LIFETIME_SECONDS,
      });
      return { user: { id: user.id, address: user.address } };
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'End the session: revoked server-side, cookie cleared',
        tags: ['auth'],
        response: { 204: z.null().describe('Logged out') },
      },
    },
    async (request, reply) => {
      const sessionId = request.actor?.sessionId;
      if (sessionId) await app.access.sessions.revoke(sessionId);
      reply.clearCookie(SESSION_COOKIE, SESSION_COOKIE_OPTIONS);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/me',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The current user',
        tags: ['auth'],
        response: { 200: meSchema },
      },
    },
    async (request) => {
      // From the credential cache: authentication read the user with the key or session.
      const { userId, user } = actorOf(request);
      return { id: userId, address: user.address, createdAt: user.createdAt.toISOString() };
    },
  );
};
