import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ChainClients } from '../../../shared/chain/clients';
import { createOutboundClient } from '../../../shared/net/outbound-client';
import type { ApiDeps } from '../../deps';
import {
  SESSION_COOKIE,
  SESSION_COOKIE_OPTIONS,
  SESSION_LIFETIME_SECONDS,
} from '../../access/session-tokens';
import { actorOf } from '../../access/actor';
import { MATRIX_LOGIN_MAX_RESPONSE_BYTES, MATRIX_LOGIN_TIMEOUT_MS } from './matrix';
import {
  loggedOutResponse,
  matrixLoginBody,
  matrixLoginResultSchema,
  meSchema,
  nonceSchema,
  verifyBody,
  verifyResultSchema,
} from './schemas';
import {
  currentUser,
  logout,
  matrixLogin,
  nonce,
  verifyWallet,
  type AuthDeps,
  type SignedIn,
} from './service';
import { errors } from '../../openapi/errors';

/** Puts a new session's token in the svc_session cookie; answers the body. */
function withSession<Body>(reply: FastifyReply, result: SignedIn<Body>): Body {
  if (result.sessionToken !== null) {
    reply.setCookie(SESSION_COOKIE, result.sessionToken, {
      ...SESSION_COOKIE_OPTIONS,
      maxAge: SESSION_LIFETIME_SECONDS,
    });
  }
  return result.body;
}

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
  const depsOf = (request: FastifyRequest): AuthDeps => ({
    em: request.em,
    siwe,
    // The request's logger: warnings carry its request id.
    matrix: { outbound, homeservers, logger: request.log },
    sessions: app.access.sessions,
    tokens: app.access.tokens,
    apiKeys: app.access.apiKeys,
  });

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
        response: { 200: nonceSchema },
      },
    },
    async (request) => nonce(depsOf(request), request.actor),
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
    async (request, reply) =>
      withSession(reply, await verifyWallet(depsOf(request), request.actor, request.body)),
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
    async (request, reply) =>
      withSession(reply, await matrixLogin(depsOf(request), request.actor, request.body)),
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
        response: { 204: loggedOutResponse },
      },
    },
    async (request, reply) => {
      await logout(depsOf(request), request.actor);
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
    async (request) => currentUser(depsOf(request), actorOf(request)),
  );
};
