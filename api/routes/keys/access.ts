import { LockMode } from '@mikro-orm/core';
import { ApiKey } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import { AppError } from '../../../shared/errors';
import type { Actor } from '../../access/actor';
import { isKeyActive } from '../../access/api-key-store';
import { isUuid } from '../../wire';

/**
 * Whose key is whose (docs/spec/contract.md §4): a key exists only for its owner. Another
 * user's id, a malformed id and an unknown id are the same 404.
 */

/** What the caller hears of a key that is not theirs, or of no key at all. */
export function keyNotFound(id: string): AppError {
  return new AppError('api_key_not_found', `API key ${id.slice(0, 64)} does not exist`);
}

/** The caller's key with this id; another user's id, or no such id, is 404 alike. */
export async function ownedKey(
  em: EntityManager,
  actor: Actor,
  id: string,
  options: { activeOnly?: boolean; lock?: boolean } = {},
): Promise<ApiKey> {
  const key = isUuid(id)
    ? await em.findOne(
        ApiKey,
        { id, user: actor.userId },
        options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
      )
    : null;
  if (!key || (options.activeOnly && !isKeyActive(key, new Date()))) throw keyNotFound(id);
  return key;
}
