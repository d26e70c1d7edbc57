import { createSealedBox, type SealedBox } from '../../shared/domain/sealed-box';
import { deriveServerKey } from '../../shared/domain/server-keys';
import { createSubscriber } from '../../shared/redis';
import type { ApiDeps } from '../deps';
import { AuthCache, subscribeInvalidations } from './auth-cache';
import { ApiKeyStore, type ApiKeyCredential } from './api-key-store';
import { SessionStore, type SessionRecord } from './session-store';
import { createSessionTokens, type SessionTokens } from './session-tokens';

/** The credential stores every plugin and route reaches as `app.access`. */
export interface AccessServices {
  apiKeys: ApiKeyStore;
  sessions: SessionStore;
  tokens: SessionTokens;
  /**
   * Seals the stored responses of secret-bearing routes for idempotent replay (the
   * idempotency plugin). Built with the other services because they are handed the secrets.
   */
  storedResponses: SealedBox;
}

const CACHE_TTL_MS = 30_000;

/**
 * The stores behind their shared credential caches, and the Redis subscription that keeps
 * those caches honest across instances (docs/decisions.md, "Credential cache"). `close` ends
 * the subscription.
 */
export function createAccessServices(deps: ApiDeps): {
  services: AccessServices;
  close: () => Promise<void>;
} {
  const { config, orm, redis, logger } = deps;
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
  const caches = [keyCache, sessionCache] as AuthCache<unknown>[];
  subscribeInvalidations(subscriber, channel, caches, logger);
  const services: AccessServices = {
    apiKeys: new ApiKeyStore(orm, config.apiKeyPepper, keyCache),
    sessions: new SessionStore(orm, sessionCache),
    tokens: createSessionTokens(config.jwtSecret),
    storedResponses: createSealedBox(deriveServerKey(config.jwtSecret, 'idempotencyResponse')),
  };
  return { services, close: async () => subscriber.disconnect() };
}
