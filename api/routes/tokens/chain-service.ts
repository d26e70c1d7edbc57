import type { CursorCodec } from '../../../shared/domain/cursor';
import type { Sql } from '../../../shared/db/sql';
import { AppError } from '../../../shared/errors';
import type { Actor } from '../../access/actor';
import { keyset } from '../../paging/keyset';
import { pageScope } from '../../paging/page';
import { looksLikeSlug } from '../../wire';
import {
  chainState,
  HOLDER_ORDER,
  holdersPage,
  TRADE_ORDER,
  tradesPage,
  type ChainStateRow,
} from './chain-queries';
import { blockOf, holderItem, onchainView, tradeItem } from './chain-views';
import type { TokenPageInput, TokenSlugInput } from './chain-schemas';

/**
 * The token reads from the chain index (docs/chain.md "Reads"). All public: the actor (null
 * when anonymous) changes nothing.
 */

export interface ChainReadDeps {
  db: Sql;
  cursors: CursorCodec;
}

function notFound(slug: string): AppError {
  const shown = JSON.stringify(slug.length > 40 ? `${slug.slice(0, 40)}…` : slug);
  return new AppError('token_not_found', `token: ${shown} does not exist`);
}

/** The chain state row of a token, for its detail and `/onchain` (404 when unknown). */
export async function chainStateOf(
  deps: Pick<ChainReadDeps, 'db'>,
  slug: string,
): Promise<ChainStateRow> {
  const row = looksLikeSlug(slug) ? await deps.db.row(chainState, [slug]) : undefined;
  if (!row) throw notFound(slug);
  return row;
}

export async function tokenOnchain(
  deps: Pick<ChainReadDeps, 'db'>,
  _actor: Actor | null,
  input: TokenSlugInput,
) {
  return onchainView(await chainStateOf(deps, input.slug));
}

export async function tokenHolders(
  deps: ChainReadDeps,
  _actor: Actor | null,
  query: TokenPageInput,
) {
  const { slug } = query;
  if (!looksLikeSlug(slug)) throw notFound(slug);
  const page = keyset(deps.cursors, HOLDER_ORDER, {
    scope: pageScope('token-holders', { slug }),
    cursor: query.cursor,
    limit: query.limit,
  });
  const rows = await deps.db.rows(holdersPage, [slug, page.after[0]!, page.after[1]!, page.fetch]);
  const head = rows[0];
  if (!head) throw notFound(slug);
  const holders = rows.filter(
    (row): row is typeof row & { address: string; balance: string } => row.address !== null,
  );
  const { items, nextCursor } = page.page(holders);
  return { items: items.map(holderItem), nextCursor, blockNumber: blockOf(head.blockNumber) };
}

export async function tokenTrades(
  deps: ChainReadDeps,
  _actor: Actor | null,
  query: TokenPageInput,
) {
  const { slug } = query;
  if (!looksLikeSlug(slug)) throw notFound(slug);
  const page = keyset(deps.cursors, TRADE_ORDER, {
    scope: pageScope('token-trades', { slug }),
    cursor: query.cursor,
    limit: query.limit,
  });
  const rows = await deps.db.rows(tradesPage, [slug, page.after[0]!, page.after[1]!, page.fetch]);
  const head = rows[0];
  if (!head) throw notFound(slug);
  const trades = rows.filter(
    (row): row is typeof row & { blockNumber: string; logIndex: string } => row.kind !== null,
  );
  const { items, nextCursor } = page.page(trades);
  return { items: items.map(tradeItem), nextCursor, blockNumber: blockOf(head.indexedBlock) };
}
