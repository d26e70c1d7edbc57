import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { DependencyUnavailableError, REDIS_RETRY_AFTER_SECONDS } from '../../shared/errors';
import type { ApiDeps } from '../deps';
import { bucketOf, rateLimitHeaders, rateLimitRefusal } from '../access/bucket';
import { credentialOf } from '../access/credentials';
import { resolvePrincipal, type Principal } from '../access/principal';
import { RateLimiter } from '../access/rate-limiter';
import {
  refusalOf,
  routeRequirement,
  SECURITY,
  unmarkedRequirement,
  type AuthRequirement,
} from '../access/requirement';
import { rotationOf } from '../access/rotation';
import { tokenMatcher } from '../access/service-tokens';
import { SESSION_COOKIE } from '../access/session-tokens';
import { createAccessServices, type AccessServices } from '../access/services';

/**
 * Who is calling, and may they (docs/decisions.md, "Identity and access"). Every route
 * declares `config.auth` (`api/access/requirement.ts`). One onRequest hook finds the deciding
 * credential, resolves it to a principal, rotates an old session cookie, counts the request
 * against its rate-limit bucket, then enforces the route's requirement, so an unauthenticated
 * caller is refused before its body is even parsed. The decisions live in `api/access/`;
 * this plugin only wires them to Fastify.
 */

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
    /** Label of the bot token used (`X-Service-Bot-Token`, never the token); null otherwise. */
    botCaller: string | null;
  }
}

async function authPlugin(app: FastifyInstance, opts: { deps: ApiDeps }): Promise<void> {
  const { services: access, close } = createAccessServices(opts.deps);
  app.addHook('onClose', close);
  const authenticate = authenticator(opts.deps, access);

  await app.register(cookie);
  app.decorate('access', access);
  app.decorateRequest('internalCaller', null);
  app.decorateRequest('botCaller', null);
  app.addHook('onRoute', declareRequirement);

  // Callback style: a route with `auth: 'none'` (health probes) pays no promise for it.
  app.addHook('onRequest', (request, reply, done) => {
    const requirement =
      request.routeOptions.config.auth ??
      unmarkedRequirement(request.routeOptions.url ?? request.url.split('?', 1)[0] ?? '');
    if (requirement === 'none') return done();
    authenticate(request, reply, requirement).then(() => done(), done);
  });
}

/** Gives every route its requirement, and the OpenAPI document its security schemes. */
function declareRequirement(route: RouteOptions): void {
  const routeConfig = (route.config ??= {}) as { auth?: AuthRequirement };
  routeConfig.auth = routeRequirement(route.url, routeConfig.auth);
  const security = SECURITY[routeConfig.auth];
  if (security && route.schema && !route.schema.hide) {
    (route.schema as { security?: unknown }).security = security;
  }
}

/**
 * The onRequest check, in the order docs/decisions.md gives ("Order of checks"): credential,
 * rate limit, requirement. Sets `request.actor` or `request.internalCaller`; throws refusals.
 */
function authenticator({ config, redis }: ApiDeps, access: AccessServices) {
  const rateLimiter = new RateLimiter(redis);
  const matchers = {
    internal: tokenMatcher(config.internalTokens),
    bot: tokenMatcher(config.botTokens),
  };

  /** Counts the request against its bucket; sets `X-RateLimit-*`; throws 429 or 503. */
  async function countRequest(request: FastifyRequest, reply: FastifyReply, who: Principal) {
    const bucket = bucketOf(who, request.ip, config.rateLimits);
    const decision = await rateLimiter.consume(bucket.name, bucket.limit).catch((err) => {
      // Redis down, or silent past the command timeout: refused, never let through uncounted.
      request.log.error({ err }, 'rate limiter unavailable');
      throw new DependencyUnavailableError(
        'redis',
        'Rate limiting is unavailable; retry shortly',
        REDIS_RETRY_AFTER_SECONDS,
        err,
      );
    });
    reply.headers(rateLimitHeaders(decision));
    const refusal = rateLimitRefusal(decision);
    if (refusal) throw refusal;
  }

  return async (request: FastifyRequest, reply: FastifyReply, requirement: AuthRequirement) => {
    const presented = { headers: request.headers, sessionCookie: request.cookies[SESSION_COOKIE] };
    const credential = credentialOf(requirement, presented, matchers);
    const { principal, session } = await resolvePrincipal(credential, access);
    const rotation = rotationOf(session, Math.floor(Date.now() / 1000), access.tokens);
    if (rotation) {
      await access.sessions.extend(rotation.sessionId, rotation.sessionExpiresAt);
      reply.setCookie(rotation.cookie.name, rotation.cookie.value, rotation.cookie.options);
      // The response now carries a session token: no cache may keep it.
      reply.header('cache-control', 'no-store');
    }
    if (principal.kind === 'user') request.actor = principal.actor;
    if (principal.kind === 'internal') request.internalCaller = principal.label;
    if (principal.kind === 'bot') request.botCaller = principal.label;

    await countRequest(request, reply, principal);
    const refusal = refusalOf(requirement, principal);
    if (refusal) throw refusal;
  };
}

export default fp(authPlugin, {
  name: 'auth',
  fastify: '5.x',
  dependencies: ['errors', 'request-context'],
});
