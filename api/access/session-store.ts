import { randomUUID } from 'node:crypto';
import type { MikroORM } from '../../shared/db/orm';
import { epochMs, sqlOf, statement } from '../../shared/db/sql';
import type { UserProfile } from './actor';
import type { AuthCache } from './auth-cache';

/** The server-side half of a session: what makes a well-signed JWT still count. */
export interface SessionRecord {
  userId: number;
  expiresAt: Date;
  revokedAt: Date | null;
  /** The session's user, read with the session (invalidated when the user links an account). */
  user: UserProfile;
}

/**
 * A session and its user as authentication reads them. Times are epoch milliseconds: MikroORM's
 * connections hand `timestamptz` over as text, so the statement says which form it wants.
 */
interface SessionRow {
  userId: number;
  expiresAtMs: number;
  revokedAtMs: number | null;
  userAddress: string | null;
  userMatrixUserId: string | null;
  userCreatedAtMs: number;
}

/** The session with this id, and its user. */
const sessionById = statement<SessionRow, [sessionId: string]>(
  'access.session',
  `select s.user_id as "userId", ${epochMs('s.expires_at')} as "expiresAtMs",
          ${epochMs('s.revoked_at')} as "revokedAtMs", u.address as "userAddress",
          u.matrix_user_id as "userMatrixUserId", ${epochMs('u.created_at')} as "userCreatedAtMs"
     from sessions s join users u on u.id = s.user_id
    where s.id = $1`,
);

/** A new session (its id is drawn here: it goes into the token). */
const createSession = statement<
  Record<string, never>,
  [id: string, userId: number, expiresAt: Date]
>(
  'access.session_create',
  'insert into sessions (id, user_id, created_at, expires_at) values ($1, $2, now(), $3)',
);

/** Rotation: the session lives as long as its newest token, never shorter. */
const extendSession = statement<Record<string, never>, [expiresAt: Date, sessionId: string]>(
  'access.session_extend',
  'update sessions set expires_at = greatest(expires_at, $1::timestamptz) where id = $2',
);

/** Logout: the first revocation's time stays. */
const revokeSession = statement<Record<string, never>, [sessionId: string]>(
  'access.session_revoke',
  'update sessions set revoked_at = coalesce(revoked_at, now()) where id = $1',
);

/** A user's live sessions: the cache entries a change to the user outdates. */
const liveSessionIds = statement<{ id: string }, [userId: number]>(
  'access.live_session_ids',
  'select id from sessions where user_id = $1 and revoked_at is null and expires_at > now()',
);

/** Sessions in PostgreSQL (`sessions`), read through the shared credential cache. */
export class SessionStore {
  constructor(
    private readonly orm: MikroORM,
    readonly cache: AuthCache<SessionRecord>,
  ) {}

  /** Statements outside any request's transaction: each on a connection of the pool. */
  private sql() {
    return sqlOf(this.orm.em.fork());
  }

  async create(userId: number, expiresAt: Date): Promise<string> {
    const id = randomUUID();
    await this.sql().run(createSession, [id, userId, expiresAt]);
    return id;
  }

  /** The live session with this id, or null (unknown, revoked or expired). */
  async findLive(sessionId: string, now = new Date()): Promise<SessionRecord | null> {
    let record = this.cache.get(sessionId);
    if (!record) {
      const snapshot = this.cache.snapshot();
      const row = await this.sql().row(sessionById, [sessionId]);
      if (!row) return null;
      record = {
        userId: row.userId,
        expiresAt: new Date(row.expiresAtMs),
        revokedAt: row.revokedAtMs === null ? null : new Date(row.revokedAtMs),
        user: {
          address: row.userAddress,
          matrixUserId: row.userMatrixUserId,
          createdAt: new Date(row.userCreatedAtMs),
        },
      };
      this.cache.set(sessionId, record, snapshot);
    }
    return record.revokedAt === null && record.expiresAt > now ? record : null;
  }

  /** Moves the session's expiry to that of its newest token (rotation). */
  async extend(sessionId: string, expiresAt: Date): Promise<void> {
    await this.sql().run(extendSession, [expiresAt, sessionId]);
    await this.cache.invalidate(sessionId);
  }

  /**
   * Call once a change to a user row (a linked wallet or Matrix account) has committed: drops
   * every live session of the user from the cache here and on every other instance, so each
   * is read again with the new row. Revoked and expired sessions are refused whatever their
   * cached user says, so they are left alone.
   */
  async invalidateUser(userId: number): Promise<void> {
    const rows = await this.sql().rows(liveSessionIds, [userId]);
    await Promise.all(rows.map((row) => this.cache.invalidate(row.id)));
  }

  async revoke(sessionId: string): Promise<void> {
    await this.sql().run(revokeSession, [sessionId]);
    await this.cache.invalidate(sessionId);
  }
}
