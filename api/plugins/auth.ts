import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import { createSealedBox, type SealedBox } from '../../shared/domain/sealed-box';
import { deriveServerKey } from '../../shared/domain/server-keys';
import { createSubscriber } from '../../shared/redis';
import type { ApiDeps } from '../deps';
import type { Actor } from '../access/actor';
import { AuthCache, subscribeInvalidations } from '../access/auth-cache';
import { ApiKeyStore, type ApiKeyCredential } from '../access/api-key-store';
import { RateLimiter, type RateDecision } from '../access/rate-limiter';
import { SessionStore, type SessionRecord } from '../access/session-store';
import {
  createSessionTokens,
  SESSION_COOKIE,
  SESSION_COOKIE_OPTIONS,
  SESSION_LIFETIME_SECONDS,
  SESSION_ROTATE_AFTER_SECONDS,
  type SessionClaims,
  type SessionTokens,
} from '../access/session-tokens';

/**
 * Who is calling, and may they (spec Authentication, docs/spec/contract.md §3 and §5).
 *
 * Every route declares `config.auth`: `none` (health and docs: no credentials read, no rate
 * limit), `public` (credentials optional), `user` (a session or an API key), `internal`
 * (an internal service token) or `bot` (the bot gateway's `X-Service-Bot-Token`, and nothing
 * else). One onRequest hook resolves the credential, counts the
 * request against its rate-limit bucket, then enforces the route's requirement, so an
 * unauthenticated caller is refused before its body is even parsed.
 */

export type AuthRequirement = 'none' | 'public' | 'user' | 'internal' | 'bot';

export interface AccessServices {
  apiKeys: ApiKeyStore;
  sessions: SessionStore;
  tokens: SessionTokens;
  /**
   * Seals the stored responses of secret-bearing routes for idempotent replay (the
   * idempotency plugin). Built here because this is the plugin handed the server secrets.
   */
  storedResponses: SealedBox;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRequirement;
  }
  interface FastifyInstance {
    access: AccessServices;
  }
  interface FastifyRequest {
    /** Label of the internal token used (never the token itself); null otherwise. */
    internalCaller: string | null;
  }
}

const CACHE_TTL_MS = 30_000;
const USER_ONLY = 'This endpoint needs a session (cookie or Bearer token) or an API key';

type Principal =
  | { kind: 'anonymous' }
  | { kind: 'user'; actor: Actor }
  | { kind: 'internal'; label: string }
  | { kind: 'bot'; label: string };

/** Digests of configured tokens (internal, bot), compared in constant time. */
function tokenMatcher(tokens: string[]) {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const known = tokens.map((token) => ({
    digest: digest(token),
    label: digest(token).toString('hex').slice(0, 12),
  }));
  return (presented: string): string | null => {
    const candidate = digest(presented);
    let match: string | null = null;
    // No early exit: the time taken does not depend on which token matched.
    for (const token of known) {
      if (timingSafeEqual(candidate, token.digest)) match = token.label;
    }
    return match;
  };
}

function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const match = /^Bearer ([\x21-\x7e]{1,4096})$/i.exec(header);
  if (!match?.[1]) {
    throw new AppError('unauthenticated', 'Authorization: must be "Bearer <token>"');
  }
  return match[1];
}

async function authPlugin(app: FastifyInstance, opts: { deps: ApiDeps }): Promise<void> {
  const { config, orm, redis, logger } = opts.deps;
  const channel = `${config.redisKeyPrefix}auth:invalidate`;
  const keyCache = new AuthCache<ApiKeyCredential>('key', redis, channel, logger, CACHE_TTL_MS);
  const sessionCache = new AuthCache<SessionRecord>(
    'session',
    redis,
    channel,
    logger,
    CACHE_TTL_MS,
  );
  const subscriber = createSubscriber(redis, 'api-auth-sub', logger);
  subscribeInvalidations(
    subscriber,
    channel,
    [keyCache, sessionCache] as AuthCache<unknown>[],
    logger,
  );
  app.addHook('onClose', async () => subscriber.disconnect());

  const access: AccessServices = {
    apiKeys: new ApiKeyStore(orm, config.apiKeyPepper, keyCache),
    sessions: new SessionStore(orm, sessionCache),
    tokens: createSessionTokens(config.jwtSecret),
    storedResponses: createSealedBox(deriveServerKey(config.jwtSecret, 'idempotencyResponse')),
  };
  const rateLimiter = new RateLimiter(redis);
  const matchInternalToken = tokenMatcher(config.internalTokens);
  const matchBotToken = tokenMatcher(config.botTokens);

  await app.register(cookie);
  app.decorate('access', access);
  app.decorateRequest('internalCaller', null);

  app.addHook('onRoute', (route) => {
    const routeConfig = (route.config ??= {}) as { auth?: AuthRequirement };
    // Secure by default: a route that says nothing needs a user. Docs are open.
    routeConfig.auth ??= isDocsPath(route.url) ? 'none' : 'user';
    const security = SECURITY[routeConfig.auth];
    if (security && route.schema && !route.schema.hide) {
      (route.schema as { security?: unknown }).security = security;
    }
  });

  async function apiKeyActor(rawKey: string): Promise<Actor> {
    const key = await access.apiKeys.authenticate(rawKey);
    if (!key) throw new AppError('invalid_api_key', 'API key: is invalid or revoked');
    return { userId: key.userId, user: key.user, via: 'api_key', sessionId: null, apiKey: key };
  }

  /** The session behind a JWT, or null when the token or its session is not live. */
  async function sessionOf(token: string): Promise<LiveSession | null> {
    const claims = access.tokens.verify(token);
    if (!claims) return null;
    const record = await access.sessions.findLive(claims.sessionId);
    return record && record.userId === claims.userId ? { claims, record } : null;
  }

  async function rotate(reply: FastifyReply, claims: SessionClaims): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    if (now - claims.issuedAt < SESSION_ROTATE_AFTER_SECONDS) return;
    const fresh = access.tokens.sign(claims.userId, claims.sessionId, now);
    await access.sessions.extend(claims.sessionId, new Date(fresh.claims.expiresAt * 1000));
    reply.setCookie(SESSION_COOKIE, fresh.token, {
      ...SESSION_COOKIE_OPTIONS,
      maxAge: SESSION_LIFETIME_SECONDS,
    });
    // The response now carries a session token: no cache may keep it.
    reply.header('cache-control', 'no-store');
  }

  /** The bot gateway reads its own header only: a session or key there means nothing. */
  function resolveBot(request: FastifyRequest): Principal {
    const presented = request.headers['x-service-bot-token'];
    const label = typeof presented === 'string' ? matchBotToken(presented) : null;
    return label ? { kind: 'bot', label } : { kind: 'anonymous' };
  }

  async function resolve(request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
    // An x-api-key alone decides, whatever else the request carries (docs/spec/contract.md §3).
    const headerKey = request.headers['x-api-key'];
    if (headerKey !== undefined) {
      return { kind: 'user', actor: await apiKeyActor(String(headerKey)) };
    }
    const bearer = bearerOf(request);
    if (bearer !== null) {
      if (bearer.startsWith('svc_live_')) {
        return { kind: 'user', actor: await apiKeyActor(bearer) };
      }
      const internal = matchInternalToken(bearer);
      if (internal) return { kind: 'internal', label: internal };
      const session = await sessionOf(bearer);
      if (!session) throw new AppError('unauthenticated', 'Bearer token: is invalid or expired');
      return { kind: 'user', actor: sessionActor(session) };
    }
    const cookieValue = request.cookies[SESSION_COOKIE];
    if (cookieValue) {
      // A stale cookie makes the caller anonymous; routes that need a user then say 401.
      const session = await sessionOf(cookieValue);
      if (session) {
        await rotate(reply, session.claims);
        return { kind: 'user', actor: sessionActor(session) };
      }
    }
    return { kind: 'anonymous' };
  }

  function bucketOf(request: FastifyRequest, principal: Principal): [string, number] {
    switch (principal.kind) {
      case 'anonymous':
        return [`ip:${request.ip}`, config.rateLimits.anonymous];
      case 'internal':
        return [`internal:${principal.label}`, config.rateLimits.internal];
      case 'bot':
        return [`bot:${principal.label}`, config.rateLimits.internal];
      case 'user': {
        const key = principal.actor.apiKey;
        // A key counts against its own bucket only; a key with 0 rpm uses its owner's.
        if (key && key.rateLimitRpm > 0) return [`key:${key.id}`, key.rateLimitRpm];
        return [`user:${principal.actor.userId}`, config.rateLimits.user];
      }
    }
  }

  async function authenticate(
    request: FastifyRequest,
    reply: FastifyReply,
    requirement: AuthRequirement,
  ): Promise<void> {
    const principal = requirement === 'bot' ? resolveBot(request) : await resolve(request, reply);
    if (principal.kind === 'user') request.actor = principal.actor;
    if (principal.kind === 'internal') request.internalCaller = principal.label;

    const [bucket, limit] = bucketOf(request, principal);
    let decision: RateDecision;
    try {
      decision = await rateLimiter.consume(bucket, limit);
    } catch (err) {
      // Redis down, or silent past the command timeout: refused, never let through uncounted.
      request.log.error({ err }, 'rate limiter unavailable');
      throw new AppError('service_unavailable', 'Rate limiting is unavailable; retry shortly');
    }
    const headers = {
      'x-ratelimit-limit': String(decision.limit),
      'x-ratelimit-remaining': String(decision.remaining),
      'x-ratelimit-reset': decision.resetAt.toISOString(),
    };
    reply.headers(headers);
    if (!decision.allowed) {
      throw new AppError(
        'rate_limited',
        `Rate limit of ${decision.limit} requests per minute exceeded; ` +
          `retry after ${decision.retryAfterSeconds} s`,
        { ...headers, 'retry-after': String(decision.retryAfterSeconds) },
      );
    }

    if (requirement === 'bot' && principal.kind !== 'bot') {
      throw new AppError('unauthenticated', 'X-Service-Bot-Token: is missing or wrong');
    }
    if (requirement === 'user' && principal.kind !== 'user') {
      throw new AppError('unauthenticated', USER_ONLY);
    }
    if (requirement === 'internal' && principal.kind !== 'internal') {
      if (principal.kind === 'user') {
        throw new AppError('forbidden', 'This endpoint is for internal service tokens only');
      }
      throw new AppError('unauthenticated', 'This endpoint needs an internal service token');
    }
  }

  // Callback style: a route with `auth: 'none'` (health probes) pays no promise for it.
  app.addHook('onRequest', (request, reply, done) => {
    const requirement = request.routeOptions.config.auth ?? unmarkedRequirement(request);
    if (requirement === 'none') return done();
    authenticate(request, reply, requirement).then(() => done(), done);
  });
}

/**
 * The interactive reference (`/docs` and everything under it: its page, scripts, styles and
 * whatever a renderer adds) and the OpenAPI document: open to everyone, no credential read and
 * no rate limit, so a browser loading the page and its assets never meets a 429.
 */
export function isDocsPath(path: string): boolean {
  return path === '/openapi.json' || path.startsWith('/docs');
}

/**
 * The requirement of a request whose route carries no `config.auth`: a route registered before
 * this plugin (its onRoute hook never saw it; the OpenAPI plugin's are) or no route at all
 * (a 404). Documentation paths are open whatever the registration order; anything else counts
 * as `public` (credentials optional, rate-limited), so a scan of unknown paths is limited too.
 */
function unmarkedRequirement(request: FastifyRequest): AuthRequirement {
  const path = request.routeOptions.url ?? request.url.split('?', 1)[0] ?? '';
  return isDocsPath(path) ? 'none' : 'public';
}

interface LiveSession {
  claims: SessionClaims;
  record: SessionRecord;
}

function sessionActor({ claims, record }: LiveSession): Actor {
  return {
    userId: claims.userId,
    user: record.user,
    via: 'session',
    sessionId: claims.sessionId,
    apiKey: null,
  };
}

/** OpenAPI security requirements per route requirement (schemes defined by the openapi plugin). */
const SECURITY: Record<AuthRequirement, Record<string, string[]>[] | undefined> = {
  none: undefined,
  public: [{}, { session: [] }, { bearer: [] }, { apiKey: [] }],
  user: [{ session: [] }, { bearer: [] }, { apiKey: [] }],
  internal: [{ internalToken: [] }],
  bot: [{ botToken: [] }],
};

export default fp(authPlugin, {
  name: 'auth',
  fastify: '5.x',
  dependencies: ['errors', 'request-context'],
});
