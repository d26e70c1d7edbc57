import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ApiKey } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import { statement, type Sql } from '../../../shared/db/sql';
import { countForUser, lockUserAndCheckCap } from '../../../shared/db/user-cap';
import { apiKeyPrefix, generateApiKey } from '../../../shared/domain/api-key';
import { flowNumber, formatFlow } from '../../../shared/domain/flow';
import { periodStart } from '../../../shared/domain/spend-period';
import { AppError } from '../../../shared/errors';
import type { Actor } from '../../access/actor';
import { isKeyActive, type ApiKeyStore } from '../../access/api-key-store';
import { spendState } from '../../access/spend-guard';
import type { UsageRecorder } from '../../access/usage-recorder';
import { ownedKey } from './access';
import { activeKeys, type KeyRow } from './queries';
import {
  DEFAULT_GRACE_SECONDS,
  type apiKeySchema,
  type CreateKeyInput,
  type KeyIdInput,
  type RollKeyInput,
  type UpdateKeyInput,
} from './schemas';

/**
 * API key management (docs/spec/contract.md §4). Every function acts for one user and checks
 * ownership (`access.ts`).
 */

export const MAX_ACTIVE_KEYS_PER_USER = 100;

export interface KeyDeps {
  /** Writes: the request's EntityManager. */
  em: EntityManager;
  /** Reads: prepared statements, no entities. */
  db: Sql;
  apiKeys: ApiKeyStore;
  /** This instance's buffered usage rows, written before a usage read (read-your-writes). */
  usage: Pick<UsageRecorder, 'flush'>;
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
  const spend = spendState(key, now);
  return {
    id: key.id,
    prefix: key.prefix,
    name: key.name,
    rate_limit_rpm: key.rateLimitRpm,
    spend_limit_flow: key.spendLimit == null ? null : formatFlow(key.spendLimit),
    spend_period: key.spendPeriod,
    spend_period_used: flowNumber(spend.used),
    spend_period_resets_at: spend.resetsAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    created_at: key.createdAt.toISOString(),
    revoked: !isKeyActive(key, now),
    expires_at: key.expiresAt?.toISOString() ?? null,
  };
}

/** The user's active keys: those that count against the cap. */
const activeKeyCount = statement<{ count: number }, [userId: number]>(
  'keys.active_count',
  `select count(*)::int as count from api_keys where user_id = $1
      and revoked_at is null and (expires_at is null or expires_at > now())`,
);

/** Serialises key creation per user (the row lock on the user) and enforces the key cap. */
function lockUserForNewKey(em: EntityManager, userId: number): Promise<void> {
  return lockUserAndCheckCap(em, userId, {
    count: (tx) => countForUser(tx, activeKeyCount, userId),
    max: MAX_ACTIVE_KEYS_PER_USER,
    refusal: () =>
      new AppError(
        'api_key_limit_reached',
        `A user can hold at most ${MAX_ACTIVE_KEYS_PER_USER} active API keys; revoke one first`,
      ),
  });
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
  deps: Pick<KeyDeps, 'em' | 'apiKeys'>,
  actor: Actor,
  input: CreateKeyInput,
) {
  return deps.em.transactional(async (em) => {
    await lockUserForNewKey(em, actor.userId);
    const now = new Date();
    const { key, raw } = newKey(
      em,
      actor.userId,
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

function keyFieldsOf(row: KeyRow): KeyFields {
  return {
    ...row,
    spendLimit: row.spendLimit === null ? null : BigInt(row.spendLimit),
    spendUsed: BigInt(row.spendUsed),
  };
}

export async function listKeys(deps: Pick<KeyDeps, 'db'>, actor: Actor) {
  const now = new Date();
  const keys = await deps.db.rows(activeKeys, [actor.userId, now]);
  return { items: keys.map((key) => publicKey(keyFieldsOf(key), now)) };
}

export async function updateKey(
  deps: Pick<KeyDeps, 'em' | 'apiKeys'>,
  actor: Actor,
  input: UpdateKeyInput,
) {
  const key = await deps.em.transactional(async (em) => {
    const key = await ownedKey(em, actor, input.id, { activeOnly: true, lock: true });
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

export async function revokeKey(
  deps: Pick<KeyDeps, 'em' | 'apiKeys'>,
  actor: Actor,
  input: KeyIdInput,
) {
  const key = await deps.em.transactional(async (em) => {
    const key = await ownedKey(em, actor, input.id, { activeOnly: true, lock: true });
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
  deps: Pick<KeyDeps, 'em' | 'apiKeys'>,
  actor: Actor,
  input: RollKeyInput,
) {
  // The body may be left out entirely: then the default grace period.
  const graceSeconds = input.grace_seconds ?? DEFAULT_GRACE_SECONDS;
  const result = await deps.em.transactional(async (em) => {
    await lockUserForNewKey(em, actor.userId);
    const old = await ownedKey(em, actor, input.id, { activeOnly: true, lock: true });
    if (old.rolledToId) {
      throw new AppError(
        'api_key_rolled',
        `API key ${old.id} was already rolled to ${old.rolledToId}; roll that key instead`,
      );
    }
    const now = new Date();
    const { key, raw } = newKey(
      em,
      actor.userId,
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
