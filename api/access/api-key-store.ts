import type { MikroORM } from '../../shared/db/orm';
import { epochMs, sqlOf, statement } from '../../shared/db/sql';
import { API_KEY_FORMAT, digestsEqual, hashApiKey } from '../../shared/domain/api-key';
import type { SpendPeriod } from '../../shared/domain/spend-period';
import type { UserProfile } from './actor';
import type { AuthCache } from './auth-cache';

/** What authentication, rate limiting and the spend guard need to know about a key. */
export interface ApiKeyCredential {
  id: string;
  userId: number;
  keyHash: string;
  rateLimitRpm: number;
  spendLimit: bigint | null;
  spendPeriod: SpendPeriod;
  spendUsed: bigint;
  spendPeriodStart: Date;
  revokedAt: Date | null;
  expiresAt: Date | null;
  /** The key's owner, read with the key (invalidated when the user links an account). */
  user: UserProfile;
}

/**
 * A key and its owner as authentication reads them. Times are epoch milliseconds: MikroORM's
 * connections hand `timestamptz` over as text, so the statement says which form it wants.
 */
interface CredentialRow {
  id: string;
  userId: number;
  keyHash: string;
  rateLimitRpm: number;
  /** micro-FLOW (int8, a string). */
  spendLimit: string | null;
  spendPeriod: SpendPeriod;
  /** micro-FLOW (int8, a string). */
  spendUsed: string;
  spendPeriodStartMs: number;
  revokedAtMs: number | null;
  expiresAtMs: number | null;
  userAddress: string | null;
  userMatrixUserId: string | null;
  userCreatedAtMs: number;
}

/** The key with this hash, and its owner (unique index `api_keys (key_hash)`). */
const credentialByHash = statement<CredentialRow, [keyHash: string]>(
  'access.key_credential',
  `select k.id, k.user_id as "userId", k.key_hash as "keyHash",
          k.rate_limit_rpm as "rateLimitRpm", k.spend_limit as "spendLimit",
          k.spend_period as "spendPeriod", k.spend_used as "spendUsed",
          ${epochMs('k.spend_period_start')} as "spendPeriodStartMs",
          ${epochMs('k.revoked_at')} as "revokedAtMs", ${epochMs('k.expires_at')} as "expiresAtMs",
          u.address as "userAddress", u.matrix_user_id as "userMatrixUserId",
          ${epochMs('u.created_at')} as "userCreatedAtMs"
     from api_keys k join users u on u.id = k.user_id
    where k.key_hash = $1`,
);

/** The hashes of a user's unrevoked keys: the cache entries a change to the user outdates. */
const unrevokedKeyHashes = statement<{ keyHash: string }, [userId: number]>(
  'access.unrevoked_key_hashes',
  'select key_hash as "keyHash" from api_keys where user_id = $1 and revoked_at is null',
);

function credentialFromRow(row: CredentialRow): ApiKeyCredential {
  return {
    id: row.id,
    userId: row.userId,
    keyHash: row.keyHash,
    rateLimitRpm: row.rateLimitRpm,
    spendLimit: row.spendLimit === null ? null : BigInt(row.spendLimit),
    spendPeriod: row.spendPeriod,
    spendUsed: BigInt(row.spendUsed),
    spendPeriodStart: new Date(row.spendPeriodStartMs),
    revokedAt: row.revokedAtMs === null ? null : new Date(row.revokedAtMs),
    expiresAt: row.expiresAtMs === null ? null : new Date(row.expiresAtMs),
    user: {
      address: row.userAddress,
      matrixUserId: row.userMatrixUserId,
      createdAt: new Date(row.userCreatedAtMs),
    },
  };
}

/** Neither revoked nor rolled and past its grace period (for credentials and entities). */
export function isKeyActive(
  key: { revokedAt?: Date | null; expiresAt?: Date | null },
  now: Date,
): boolean {
  return key.revokedAt == null && (key.expiresAt == null || key.expiresAt > now);
}

/** Finds keys by their raw value, through the shared credential cache. */
export class ApiKeyStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly pepper: string,
    readonly cache: AuthCache<ApiKeyCredential>,
  ) {}

  /** Statements outside any request's transaction: each on a connection of the pool. */
  private sql() {
    return sqlOf(this.orm.em.fork());
  }

  hash(rawKey: string): string {
    return hashApiKey(this.pepper, rawKey);
  }

  /** The active key with this raw value, or null (malformed, unknown, revoked, expired). */
  async authenticate(rawKey: string, now = new Date()): Promise<ApiKeyCredential | null> {
    if (!API_KEY_FORMAT.test(rawKey)) return null;
    const keyHash = this.hash(rawKey);
    let key = this.cache.get(keyHash);
    if (!key) {
      const snapshot = this.cache.snapshot();
      const row = await this.sql().row(credentialByHash, [keyHash]);
      if (!row) return null;
      key = credentialFromRow(row);
      this.cache.set(keyHash, key, snapshot);
    }
    // The lookup went by hash through an index; compare once more in constant time anyway.
    if (!digestsEqual(key.keyHash, keyHash)) return null;
    return isKeyActive(key, now) ? key : null;
  }

  /**
   * Call once a change to a user row (a linked wallet or Matrix account) has committed: drops
   * every unrevoked key of the user from the cache here and on every other instance. A revoked
   * key is refused whatever its cached owner says, so it is left alone.
   */
  async invalidateUser(userId: number): Promise<void> {
    const rows = await this.sql().rows(unrevokedKeyHashes, [userId]);
    await Promise.all(rows.map((row) => this.cache.invalidate(row.keyHash)));
  }

  /** Call after any change to a key row, with the row's hash. */
  async invalidate(keyHash: string): Promise<void> {
    await this.cache.invalidate(keyHash);
  }
}
