import { randomUUID } from 'node:crypto';
import type { MikroORM } from '../../shared/db/orm';
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

interface SessionRow {
  user_id: number;
  expires_at: Date;
  revoked_at: Date | null;
  user_address: string | null;
  user_matrix_user_id: string | null;
  user_created_at: Date;
}

const SESSION_QUERY = `select s.user_id, s.expires_at, s.revoked_at,
    u.address as user_address, u.matrix_user_id as user_matrix_user_id,
    u.created_at as user_created_at
  from sessions s join users u on u.id = s.user_id
  where s.id = ?`;

/** Sessions in PostgreSQL (`sessions`), read through the shared credential cache. */
export class SessionStore {
  constructor(
    private readonly orm: MikroORM,
    readonly cache: AuthCache<SessionRecord>,
  ) {}

  async create(userId: number, expiresAt: Date): Promise<string> {
    const id = randomUUID();
    await this.orm.em
      .fork()
      .execute(
        'insert into sessions (id, user_id, created_at, expires_at) values (?, ?, now(), ?)',
        [id, userId, expiresAt],
      );
    return id;
  }

  /** The live session with this id, or null (unknown, revoked or expired). */
  async findLive(sessionId: string, now = new Date()): Promise<SessionRecord | null> {
    let record = this.cache.get(sessionId);
    if (!record) {
      const snapshot = this.cache.snapshot();
      const [row] = await this.orm.em.fork().execute<SessionRow[]>(SESSION_QUERY, [sessionId]);
      if (!row) return null;
      record = {
        userId: row.user_id,
        expiresAt: new Date(row.expires_at),
        revokedAt: row.revoked_at && new Date(row.revoked_at),
        user: {
          address: row.user_address,
          matrixUserId: row.user_matrix_user_id,
          createdAt: new Date(row.user_created_at),
        },
      };
      this.cache.set(sessionId, record, snapshot);
    }
    return record.revokedAt === null && record.expiresAt > now ? record : null;
  }

  /** Moves the session's expiry to that of its newest token (rotation). */
  async extend(sessionId: string, expiresAt: Date): Promise<void> {
    await this.orm.em
      .fork()
      .execute('update sessions set expires_at = greatest(expires_at, ?) where id = ?', [
        expiresAt,
        sessionId,
      ]);
    await this.cache.invalidate(sessionId);
  }

  /**
   * Call once a change to a user row (a linked wallet or Matrix account) has committed: drops
   * every live session of the user from the cache here and on every other instance, so each
   * is read again with the new row. Revoked and expired sessions are refused whatever their
   * cached user says, so they are left alone.
   */
  async invalidateUser(userId: number): Promise<void> {
    const rows = await this.orm.em
      .fork()
      .execute<{ id: string }[]>(
        'select id from sessions where user_id = ? and revoked_at is null and expires_at > now()',
        [userId],
      );
    await Promise.all(rows.map((row) => this.cache.invalidate(row.id)));
  }

  async revoke(sessionId: string): Promise<void> {
    await this.orm.em
      .fork()
      .execute('update sessions set revoked_at = coalesce(revoked_at, now()) where id = ?', [
        sessionId,
      ]);
    await this.cache.invalidate(sessionId);
  }
}
