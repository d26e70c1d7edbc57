import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import { ApiKey } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import type { SqlReader } from '../../../shared/db/sql';
import { apiKeyPrefix, generateApiKey } from '../../../shared/domain/api-key';
import { flowNumber, formatFlow } from '../../../shared/domain/flow';
import { periodEnd, periodStart, spentInPeriod } from '../../../shared/domain/spend-period';
import { AppError } from '../../../shared/errors';
import { isKeyActive, type ApiKeyStore } from '../../access/api-key-store';
import { activeKeys, type KeyRow } from './queries';
import type { apiKeySchema, createKeyBody, updateKeyBody } from './schemas';

/** API key management (docs/spec/contract.md §4). Every function acts for one user and checks ownership. */

export const MAX_ACTIVE_KEYS_PER_USER = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface KeyServiceDeps {
  em: EntityManager;
  apiKeys: ApiKeyStore;
}

type PublicKey = z.infer<typeof apiKeySchema>;

type KeyFields = Pick<
  ApiKey,
  | 'id'
  | 'prefix'
  | 'name'
  | 'rateLimitRpm'
  | 'spendLimit'
  | 'spendPeriod'
  | 'spendUsed'
  | 'spendPeriodStart'
  | 'lastUsedAt'
  | 'createdAt'
  | 'revokedAt'
  | 'expiresAt'
>;

export function publicKey(key: KeyFields, now = new Date()): PublicKey {
  const used = spentInPeriod(
    key.spendPeriod,
    { used: key.spendUsed, periodStart: key.spendPeriodStart },
    now,
  );
  return {
    id: key.id,
    prefix: key.prefix,
    name: key.name,
    rate_limit_rpm: key.rateLimitRpm,
    spend_limit_flow: key.spendLimit == null ? null : formatFlow(key.spendLimit),
    spend_period: key.spendPeriod,
    spend_period_used: flowNumber(used),
    spend_period_resets_at: periodEnd(key.spendPeriod, now)?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    created_at: key.createdAt.toISOString(),
    revoked: !isKeyActive(key, now),
    expires_at: key.expiresAt?.toISOString() ?? null,
  };
}

/** What the caller hears of a key that is not theirs, or of no key at all. */
export function keyNotFound(id: string): AppError {
  return new AppError('api_key_not_found', `API key ${id.slice(0, 64)} does not exist`);
}

/** Whether `id` can be a key's id at all (anything else is a 404 without a lookup). */
export function isKeyId(id: string): boolean {
  return UUID.test(id);
}

/** The caller's key with this id; another user's id, or no such id, is 404 alike. */
export async function ownedKey(
  em: EntityManager,
  userId: number,
  id: string,
  options: { activeOnly?: boolean; lock?: boolean } = {},
): Promise<ApiKey> {
  const key = isKeyId(id)
    ? await em.findOne(
        ApiKey,
        { id, user: userId },
        options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
      )
    : null;
  if (!key || (options.activeOnly && !isKeyActive(key, new Date()))) throw keyNotFound(id);
  return key;
}

/** Serialises key creation per user (the row lock on the user) and enforces the key cap. */
async function lockUserForNewKey(em: EntityManager, userId: number): Promise<void> {
  await em.execute('select id from users where id = ? for update', [userId]);
  const [row] = await em.execute<{ count: string }[]>(
    `select count(*) as count from api_keys where user_id = ?
       and revoked_at is null and (expires_at is null or expires_at > now())`,
    [userId],
  );
  if (Number(row?.count ?? 0) >= MAX_ACTIVE_KEYS_PER_USER) {
    throw new AppError(
      'api_key_limit_reached',
      `A user can hold at most ${MAX_ACTIVE_KEYS_PER_USER} active API keys; revoke one first`,
    );
  }
}

type KeySettings = Pick<
  ApiKey,
  'name' | 'rateLimitRpm' | 'spendLimit' | 'spendPeriod' | 'spendUsed' | 'spendPeriodStart'
>;

function newKey(em: EntityManager, userId: number, settings: KeySettings, apiKeys: ApiKeyStore) {
  const raw = generateApiKey();
  const key = em.create(ApiKey, {
    id: randomUUID(),
    user: userId,
    prefix: apiKeyPrefix(raw),
    keyHash: apiKeys.hash(raw),
    createdAt: new Date(),
    ...settings,
  });
  return { key, raw };
}

export async function createKey(
  deps: KeyServiceDeps,
  userId: number,
  input: z.output<typeof createKeyBody>,
) {
  return deps.em.transactional(async (em) => {
    await lockUserForNewKey(em, userId);
    const now = new Date();
    const { key, raw } = newKey(
      em,
      userId,
      {
        name: input.name,
        rateLimitRpm: input.rate_limit_rpm,
        spendLimit: input.spend_limit_flow ?? null,
        spendPeriod: input.spend_period,
        spendUsed: 0n,
        spendPeriodStart: periodStart(input.spend_period, now),
      },
      deps.apiKeys,
    );
    await em.flush();
    return { ...publicKey(key, now), key: raw };
  });
}

/** The reads: prepared statements, no entities. */
export interface KeyReadDeps {
  db: SqlReader;
}

function keyFieldsOf(row: KeyRow): KeyFields {
  return {
    ...row,
    spendLimit: row.spendLimit === null ? null : BigInt(row.spendLimit),
    spendUsed: BigInt(row.spendUsed),
  };
}

export async function listKeys(deps: KeyReadDeps, userId: number) {
  const now = new Date();
  const keys = await deps.db.rows(activeKeys, [userId, now]);
  return { items: keys.map((key) => publicKey(keyFieldsOf(key), now)) };
}

export async function updateKey(
  deps: KeyServiceDeps,
  userId: number,
  id: string,
  input: z.output<typeof updateKeyBody>,
) {
  const key = await deps.em.transactional(async (em) => {
    const key = await ownedKey(em, userId, id, { activeOnly: true, lock: true });
    if (input.name !== undefined) key.name = input.name;
    if (input.rate_limit_rpm !== undefined) key.rateLimitRpm = input.rate_limit_rpm;
    if (input.spend_limit_flow !== undefined) key.spendLimit = input.spend_limit_flow;
    if (input.spend_period !== undefined && input.spend_period !== key.spendPeriod) {
      // A new period starts counting from zero, now.
      key.spendPeriod = input.spend_period;
      key.spendUsed = 0n;
      key.spendPeriodStart = periodStart(input.spend_period, new Date());
    }
    return key;
  });
  await deps.apiKeys.invalidate(key.keyHash);
  return publicKey(key);
}

export async function revokeKey(deps: KeyServiceDeps, userId: number, id: string) {
  const key = await deps.em.transactional(async (em) => {
    const key = await ownedKey(em, userId, id, { activeOnly: true, lock: true });
    key.revokedAt = new Date();
    return key;
  });
  await deps.apiKeys.invalidate(key.keyHash);
}

/**
 * Rotation without downtime: a successor with the same settings (and the spend already
 * counted this period, so a roll does not reset the cap) is created, and the old key keeps
 * working for `graceSeconds`, then counts as revoked.
 */
export async function rollKey(
  deps: KeyServiceDeps,
  userId: number,
  id: string,
  graceSeconds: number,
) {
  const result = await deps.em.transactional(async (em) => {
    await lockUserForNewKey(em, userId);
    const old = await ownedKey(em, userId, id, { activeOnly: true, lock: true });
    if (old.rolledToId) {
      throw new AppError(
        'api_key_rolled',
        `API key ${old.id} was already rolled to ${old.rolledToId}; roll that key instead`,
      );
    }
    const now = new Date();
    const { key, raw } = newKey(
      em,
      userId,
      {
        name: old.name,
        rateLimitRpm: old.rateLimitRpm,
        spendLimit: old.spendLimit,
        spendPeriod: old.spendPeriod,
        spendUsed: old.spendUsed,
        spendPeriodStart: old.spendPeriodStart,
      },
      deps.apiKeys,
    );
    old.rolledToId = key.id;
    old.expiresAt = new Date(now.getTime() + graceSeconds * 1000);
    await em.flush();
    return { old, key, raw, now };
  });
  await deps.apiKeys.invalidate(result.old.keyHash);
  return {
    ...publicKey(result.key, result.now),
    key: result.raw,
    rolled_from: {
      id: result.old.id,
      prefix: result.old.prefix,
      expires_at: (result.old.expiresAt ?? result.now).toISOString(),
    },
  };
}
