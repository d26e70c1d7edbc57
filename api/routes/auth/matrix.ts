import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { FastifyBaseLogger } from 'fastify';
import type { EntityManager } from '../../../shared/db/orm';
import { sqlOf, statement } from '../../../shared/db/sql';
import { AppError } from '../../../shared/errors';
import { OutboundError, type OutboundClient } from '../../../shared/net/outbound-client';

/**
 * Matrix sign-in and account linking (docs/decisions.md, "Matrix login and account linking").
 * A Matrix client asks its homeserver for an OpenID token and hands it to us with the server's
 * name; we ask that server's federation API who the token belongs to. Only allow-listed
 * servers are ever asked (MATRIX_LOGIN_HOMESERVERS), so a caller cannot make us call anything
 * else, and the call goes through the SSRF-guarded outbound client.
 */

export const MATRIX_LOGIN_TIMEOUT_MS = 10_000;
/** A userinfo answer is `{"sub": "@user:server"}`: a few hundred bytes at most. */
export const MATRIX_LOGIN_MAX_RESPONSE_BYTES = 16 * 1024;

/**
 * A Matrix user id as the spec's historical grammar allows (`@`, a localpart of printable ASCII
 * without `:`, `:`, a server name: host or IP literal with an optional port), at most 255 bytes.
 */
const MATRIX_USER_ID = /^@([\x21-\x39\x3b-\x7e]+):([a-zA-Z0-9.-]+|\[[0-9a-fA-F:.]+\])(:\d{1,5})?$/;

export interface MatrixLoginContext {
  outbound: OutboundClient;
  /** Lowercase server name → base URL of its federation API (config.matrix.loginHomeservers). */
  homeservers: Record<string, string>;
  /** The request's logger: warnings carry its request id. */
  logger: Pick<FastifyBaseLogger, 'warn'>;
}

const shown = (value: string) =>
  JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);

function tokenInvalid(): never {
  throw new AppError(
    'matrix_token_invalid',
    'openidToken: the homeserver does not know this token (forged, expired or of another server)',
  );
}

function homeserverFailed(): never {
  throw new AppError(
    'matrix_homeserver_failed',
    'homeserver: could not verify the token with the homeserver; retry shortly',
  );
}

/** The user id of a `sub` if it is one on `serverName` (compared case-insensitively). */
function userIdOn(sub: unknown, serverName: string): string | null {
  if (typeof sub !== 'string' || Buffer.byteLength(sub) > 255) return null;
  const match = MATRIX_USER_ID.exec(sub);
  if (!match) return null;
  const server = `${match[2]}${match[3] ?? ''}`.toLowerCase();
  return server === serverName ? sub : null;
}

/**
 * Asks the homeserver named `homeserver` whose OpenID token `openidToken` is
 * (`GET /_matrix/federation/v1/openid/userinfo`) and answers the verified Matrix user id.
 */
export async function verifyOpenIdToken(
  context: MatrixLoginContext,
  input: { openidToken: string; homeserver: string },
): Promise<string> {
  const serverName = input.homeserver.toLowerCase();
  // Own keys only: `constructor` or `__proto__` are not server names.
  const base = Object.hasOwn(context.homeservers, serverName)
    ? context.homeservers[serverName]
    : undefined;
  if (!base) {
    throw new AppError(
      'homeserver_not_allowed',
      `homeserver: ${shown(input.homeserver)} is not a homeserver whose users may sign in here`,
    );
  }
  const url =
    `${base}/_matrix/federation/v1/openid/userinfo` +
    `?access_token=${encodeURIComponent(input.openidToken)}`;
  let status: number;
  let body: string;
  try {
    ({ status, body } = await context.outbound.getJson(url, {}));
  } catch (error) {
    // Neither the URL (it carries the token) nor the cause reaches the caller.
    if (!(error instanceof OutboundError)) throw error;
    context.logger.warn(
      { err: error, kind: error.kind, homeserver: serverName },
      'matrix login: homeserver unreachable',
    );
    homeserverFailed();
  }

  // Synapse answers 401 M_UNKNOWN_TOKEN for a token it never issued or that expired.
  if (status === 401 || status === 403) tokenInvalid();
  if (status !== 200) {
    context.logger.warn(
      { status, errcode: errcodeOf(body), homeserver: serverName },
      'matrix login: homeserver answered userinfo with an error',
    );
    homeserverFailed();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    context.logger.warn({ homeserver: serverName }, 'matrix login: userinfo is not JSON');
    homeserverFailed();
  }
  const sub =
    typeof parsed === 'object' && parsed !== null ? (parsed as { sub?: unknown }).sub : undefined;
  const matrixUserId = userIdOn(sub, serverName);
  if (!matrixUserId) {
    // The server vouched for someone it cannot speak for (or for nobody): not a login.
    context.logger.warn(
      { homeserver: serverName, sub: typeof sub === 'string' ? sub.slice(0, 300) : typeof sub },
      'matrix login: userinfo names no user of this homeserver',
    );
    tokenInvalid();
  }
  return matrixUserId;
}

function errcodeOf(body: string): string | undefined {
  try {
    const value = (JSON.parse(body) as { errcode?: unknown }).errcode;
    return typeof value === 'string' ? value.slice(0, 64) : undefined;
  } catch {
    return undefined;
  }
}

export interface LinkedUser {
  id: number;
  address: string | null;
  matrixUserId: string | null;
}

/** Finds or creates the user: the no-op update makes RETURNING answer both ways (as SIWE). */
const upsertMatrixUser = statement<LinkedUser, [matrixUserId: string]>(
  'auth.matrix_user',
  `insert into users (matrix_user_id) values ($1)
   on conflict (matrix_user_id) do update set matrix_user_id = excluded.matrix_user_id
   returning id, address, matrix_user_id as "matrixUserId"`,
);

/** Gives the user this Matrix account; no row when it already has it. */
const setMatrixAccount = statement<LinkedUser, [matrixUserId: string, userId: number]>(
  'auth.link_matrix',
  `update users set matrix_user_id = $1
    where id = $2 and matrix_user_id is distinct from $1
   returning id, address, matrix_user_id as "matrixUserId"`,
);

/** The user as it is, when linking changed nothing. */
const userById = statement<LinkedUser, [userId: number]>(
  'auth.user',
  'select id, address, matrix_user_id as "matrixUserId" from users where id = $1',
);

/** Gives the user this wallet if it has none; no row when it already has one. */
const setWallet = statement<LinkedUser, [address: string, userId: number]>(
  'auth.link_wallet',
  `update users set address = $1 where id = $2 and address is null
   returning id, address, matrix_user_id as "matrixUserId"`,
);

/** The user who signs in with this Matrix account, created on its first login. */
export async function matrixUser(em: EntityManager, matrixUserId: string): Promise<LinkedUser> {
  const row = await sqlOf(em).row(upsertMatrixUser, [matrixUserId]);
  if (!row) throw new Error('matrix user upsert returned nothing');
  return row;
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  return (
    error instanceof UniqueConstraintViolationException &&
    (error as { constraint?: string }).constraint === constraint
  );
}

/**
 * Links `matrixUserId` to the user `userId` (replacing any other Matrix account it had). One
 * statement: of two concurrent links of one Matrix account, the unique constraint lets exactly
 * one commit. `changed` is false when the user already had it (nothing to invalidate).
 */
export async function linkMatrixAccount(
  em: EntityManager,
  userId: number,
  matrixUserId: string,
): Promise<{ user: LinkedUser; changed: boolean }> {
  const sql = sqlOf(em);
  let updated: LinkedUser | undefined;
  try {
    updated = await sql.row(setMatrixAccount, [matrixUserId, userId]);
  } catch (error) {
    if (!isUniqueViolation(error, 'users_matrix_user_id_unique')) throw error;
    throw new AppError(
      'matrix_account_linked',
      `openidToken: the Matrix account ${matrixUserId} is already linked to another user`,
    );
  }
  if (updated) return { user: updated, changed: true };
  // Nothing updated: the user already has this Matrix account.
  const current = await sql.row(userById, [userId]);
  if (!current) throw new Error(`user ${userId} of a live credential does not exist`);
  return { user: current, changed: false };
}

/**
 * Links the wallet `address` to the user `userId` if it has none yet. Null when it already
 * has one (the caller then signs in as the wallet's user instead); 409 `wallet_linked` when
 * the wallet is another user's.
 */
export async function linkWallet(
  em: EntityManager,
  userId: number,
  address: string,
): Promise<LinkedUser | null> {
  try {
    return (await sqlOf(em).row(setWallet, [address, userId])) ?? null;
  } catch (error) {
    if (!isUniqueViolation(error, 'users_address_unique')) throw error;
    throw new AppError(
      'wallet_linked',
      `message: the wallet ${address} is already linked to another user`,
    );
  }
}
