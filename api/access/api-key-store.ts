import type { MikroORM } from '../../shared/db/orm';
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

interface ApiKeyRow {
  id: string;
  user_id: number;
  key_hash: string;
  rate_limit_rpm: number;
  spend_limit: string | null;
  spend_period: SpendPeriod;
  spend_used: string;
  spend_period_start: Date;
  revoked_at: Date | null;
  expires_at: Date | null;
  user_address: string | null;
  user_matrix_user_id: string | null;
  user_created_at: Date;
}

const CREDENTIAL_QUERY = `select k.id, k.user_id, k.key_hash, k.rate_limit_rpm, k.spend_limit,
    k.spend_period, k.spend_used, k.spend_period_start, k.revoked_at, k.expires_at,
    u.address as user_address, u.matrix_user_id as user_matrix_user_id,
    u.created_at as user_created_at
  from api_keys k join users u on u.id = k.user_id
  where k.key_hash = ?`;

function credentialFromRow(row: ApiKeyRow): ApiKeyCredential {
  return {
    id: row.id,
    userId: row.user_id,
    keyHash: row.key_hash,
    rateLimitRpm: row.rate_limit_rpm,
    spendLimit: row.spend_limit === null ? null : BigInt(row.spend_limit),
    spendPeriod: row.spend_period,
    spendUsed: BigInt(row.spend_used),
    spendPeriodStart: new Date(row.spend_period_start),
    revokedAt: row.revoked_at && new Date(row.revoked_at),
    expiresAt: row.expires_at && new Date(row.expires_at),
    user: {
      address: row.user_address,
      matrixUserId: row.user_matrix_user_id,
      createdAt: new Date(row.user_created_at),
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
      const [row] = await this.orm.em.fork().execute<ApiKeyRow[]>(CREDENTIAL_QUERY, [keyHash]);
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
    const rows = await this.orm.em
      .fork()
      .execute<{ key_hash: string }[]>(
        'select key_hash from api_keys where user_id = ? and revoked_at is null',
        [userId],
      );
    await Promise.all(rows.map((row) => this.cache.invalidate(row.key_hash)));
  }

  /** Call after any change to a key row, with the row's hash. */
  async invalidate(keyHash: string): Promise<void> {
    await this.cache.invalidate(keyHash);
  }
}
