import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Hex } from 'viem';
import { ChainClients } from '../../../shared/chain/clients';
import { createOutboundClient } from '../../../shared/net/outbound-client';
import type { ApiDeps } from '../../deps';
import {
  SESSION_COOKIE,
  SESSION_COOKIE_OPTIONS,
  SESSION_LIFETIME_SECONDS,
} from '../../access/session-tokens';
import { actorOf } from '../../access/actor';
import { issueNonce, verifySiwe } from './siwe';
import {
  linkMatrixAccount,
  linkWallet,
  MATRIX_LOGIN_MAX_RESPONSE_BYTES,
  MATRIX_LOGIN_TIMEOUT_MS,
  matrixUser,
  verifyOpenIdToken,
} from './matrix';
import {
  matrixLoginBody,
  matrixLoginResultSchema,
  meSchema,
  verifyBody,
  verifyResultSchema,
} from './schemas';
import { isoTime } from '../../wire';
import { errors } from '../../plugins/openapi';

/**
 * SIWE and Matrix login, account linking, logout and the current user (docs/spec/contract.md §3 and
 * "Matrix login and account linking").
 */
export const authRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, { deps }) => {
  const siwe = {
    redis: deps.redis,
    chains: new ChainClients(deps.config.chainRpcUrls),
    domain: deps.config.siweDomain,
    logger: deps.logger,
  };
  // Homeservers pass the same SSRF checks as every outbound call.
  const outbound = createOutboundClient({
    allowedHosts: deps.config.webhookAllowedHosts,
    timeoutMs: MATRIX_LOGIN_TIMEOUT_MS,
    maxResponseBytes: MATRIX_LOGIN_MAX_RESPONSE_BYTES,
  });
  app.addHook('onClose', async () => outbound.close());
  const homeservers = deps.config.matrix.loginHomeservers;

  /** A new session for `userId`, its token in the svc_session cookie. */
  async function startSession(reply: FastifyReply, userId: number): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = new Date((now + SESSION_LIFETIME_SECONDS) * 1000);
    const sessionId = await app.access.sessions.create(userId, expiresAt);
    const { token } = app.access.tokens.sign(userId, sessionId, now);
    reply.setCookie(SESSION_COOKIE, token, {
      ...SESSION_COOKIE_OPTIONS,
      maxAge: SESSION_LIFETIME_SECONDS,
    });
  }

  /** After a link committed: every instance reads the user's sessions and keys again. */
  async function invalidateUser(userId: number): Promise<void> {
    await Promise.all([
      app.access.sessions.invalidateUser(userId),
      app.access.apiKeys.invalidateUser(userId),
    ]);
  }

  app.post(
    '/auth/nonce',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Get a single-use SIWE nonce (valid 10 minutes)',
        description:
          'Step 1 of Sign-In with Ethereum (EIP-4361): put this nonce in a message whose ' +
          'domain is this deployment’s SIWE_DOMAIN, whose URI is on that domain and whose ' +
          'chain is one GET /chains lists, sign it with the wallet, then send both to POST ' +
          '/auth/verify. A nonce logs in once and expires after 10 minutes. While Redis is ' +
          'unreachable: 503 service_unavailable.',
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
        summary: 'Log in with a signed SIWE message, or link its wallet to the current account',
        description:
          'Without a session, or with one whose user already has a wallet: logs in as the ' +
          'wallet’s user (created on its first login) and sets the svc_session cookie. With a ' +
          'session (or API key) whose user has no wallet yet (e.g. a Matrix login): links the ' +
          'wallet to that user and answers it, with no new session. Errors: 400 ' +
          'invalid_request, 401 siwe_invalid, 401 nonce_invalid, 409 wallet_linked (linking a ' +
          'wallet another user has), 503 service_unavailable (the nonce store or a contract ' +
          'wallet’s chain unreachable).',
        errors: errors('siwe_invalid', 'nonce_invalid', 'wallet_linked'),
        tags: ['auth'],
        body: verifyBody,
        response: { 200: verifyResultSchema },
      },
    },
    async (request, reply) => {
      const address = await verifySiwe(siwe, {
        message: request.body.message,
        signature: request.body.signature as Hex,
      });
      // A signed-in user without a wallet links this one. The cached profile can only be
      // behind by a wallet linked meanwhile: the conditional update sees it and answers null.
      const actor = request.actor;
      if (actor && actor.user.address === null) {
        const linked = await linkWallet(request.em, actor.userId, address);
        if (linked) {
          await invalidateUser(linked.id);
          return { user: { ...linked, address } };
        }
      }
      // First login creates the user; the no-op update makes RETURNING answer both ways.
      const [user] = await request.em.execute<
        { id: number; address: string; matrix_user_id: string | null }[]
      >(
        `insert into users (address) values (?)
         on conflict (address) do update set address = excluded.address
         returning id, address, matrix_user_id`,
        [address],
      );
      if (!user) throw new Error('user upsert returned nothing');
      await startSession(reply, user.id);
      return { user: { id: user.id, address: user.address, matrixUserId: user.matrix_user_id } };
    },
  );

  app.post(
    '/auth/matrix',
    {
      // Its Set-Cookie carries the new session token.
      config: { auth: 'public', secretResponse: true },
      schema: {
        summary: 'Log in with a Matrix OpenID token, or link its account to the current user',
        description:
          'The client asks its homeserver for an OpenID token (`POST /_matrix/client/v3/user/' +
          '{userId}/openid/request_token`) and sends its `access_token` and ' +
          '`matrix_server_name`. The API asks that homeserver, only if it is allow-listed, whose ' +
          'token it is. Without a session: logs in as the Matrix account’s user (created on its ' +
          'first login, without a wallet) and sets the svc_session cookie. With a session or ' +
          'API key: links the Matrix account to that user, with no new session; it replaces a ' +
          'Matrix account the user had, and linking the one it has changes nothing. Errors, in ' +
          'order: 400 invalid_request (the body), 400 homeserver_not_allowed (the homeserver ' +
          'is not asked at all), 502 matrix_homeserver_failed (unreachable, timed out or a ' +
          'broken answer), 401 matrix_token_invalid (an unknown or expired token, or an answer ' +
          'naming a user of another server), 409 matrix_account_linked (linking a Matrix ' +
          'account another user has).',
        errors: errors(
          'homeserver_not_allowed',
          'matrix_homeserver_failed',
          'matrix_token_invalid',
          'matrix_account_linked',
        ),
        tags: ['auth'],
        body: matrixLoginBody,
        response: { 200: matrixLoginResultSchema },
      },
    },
    async (request, reply) => {
      const matrixUserId = await verifyOpenIdToken(
        { outbound, homeservers, logger: request.log },
        request.body,
      );
      const actor = request.actor;
      if (actor) {
        const { user, changed } = await linkMatrixAccount(request.em, actor.userId, matrixUserId);
        if (changed) await invalidateUser(user.id);
        return { user: { ...user, matrixUserId } };
      }
      const user = await matrixUser(request.em, matrixUserId);
      await startSession(reply, user.id);
      return { user: { ...user, matrixUserId } };
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'End the session: revoked server-side, cookie cleared',
        description:
          'Revokes the session server-side, so its token stops working on every instance ' +
          'at once, and clears the svc_session cookie. Without a session it answers 204 ' +
          'all the same. API keys are not affected: revoke those with DELETE ' +
          '/me/api-keys/{id}.',
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
        description:
          'The signed-in user: id, linked wallet (lowercase; null after a Matrix-only ' +
          'login) and linked Matrix account. With an API key: the key’s owner.',
        tags: ['auth'],
        response: { 200: meSchema },
      },
    },
    async (request) => {
      // From the credential cache: authentication read the user with the key or session.
      const { userId, user } = actorOf(request);
      return {
        id: userId,
        address: user.address,
        matrixUserId: user.matrixUserId,
        createdAt: user.createdAt.toISOString(),
      };
    },
  );
};
