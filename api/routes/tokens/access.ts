import { Token } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import { AppError } from '../../../shared/errors';
import type { Actor } from '../../access/actor';
import { looksLikeSlug } from '../../wire';

/**
 * Who may touch a token, and the answer when there is none. Every token is public to read:
 * the reads (`GET /tokens/:slug` and its holders, trades and on-chain aggregate) look their
 * token up in their own statement and answer `tokenNotFound` when it finds none. What needs
 * its owner (building a project on it, linking it to an agent) goes through `ownedToken`, the
 * one ownership rule.
 */

/** A slug as an error message quotes it: JSON-quoted, cut at 40 characters. */
const shown = (value: string) =>
  JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);

/** 404 `token_not_found` for the token a path names (`/tokens/:slug…`). */
export function tokenNotFound(slug: string): AppError {
  return new AppError('token_not_found', `token: ${shown(slug)} does not exist`);
}

/**
 * The caller's token `slug`, named by a request body's `tokenSlug`: 404 `token_not_found`
 * when there is none, 403 `token_no_match` when it is another user's.
 */
export async function ownedToken(em: EntityManager, actor: Actor, slug: string): Promise<Token> {
  // Anything that cannot be a slug (a NUL byte, say) never reaches PostgreSQL.
  const token = looksLikeSlug(slug) ? await em.findOne(Token, { slug }) : null;
  if (!token) {
    throw new AppError('token_not_found', `tokenSlug: token ${shown(slug)} does not exist`);
  }
  if (token.owner.id !== actor.userId) {
    throw new AppError('token_no_match', `tokenSlug: token ${slug} is not owned by the caller`);
  }
  return token;
}
