import { statement } from '../../../shared/db/sql';
import type { Actor } from '../../access/actor';
import { keyset, keysetOrder } from '../../paging/keyset';
import { pageScope } from '../../paging/page';
import { looksLikeSlug } from '../../wire';
import { tokenNotFound } from './access';
import { checksummed, units } from '../../wire';
import { blockOf, type TokenPageInput } from './schemas';
import type { TokenDeps } from './service';

/**
 * `GET /tokens/:slug/holders` (docs/chain.md "Reads"): a keyset page of the token's holders
 * from the chain index, largest balance first, in one statement with the indexed block it
 * reflects. A token without an instance matches no holder row: an empty page. Public: the
 * actor (null when anonymous) changes nothing.
 */

const HOLDER_ORDER = keysetOrder('desc', [
  { column: 'h.balance', type: 'numeric', field: 'balance' } as const,
  { column: 'h.address', type: 'address', field: 'address' } as const,
]);

/** The token's row with each holder of the page; one row with null holder fields for none. */
interface HolderRow {
  /** `chain_cursors.next_block - 1`; null before the chain's first indexed range. */
  blockNumber: string | null;
  /** Lowercase. */
  address: string | null;
  /** Base units (numeric, a string). */
  balance: string | null;
  /** balance / the supply held outside the curve and pool. */
  share: number | null;
}

/** A page of holders, balance descending (then address descending), with their share. */
const holdersPage = statement<
  HolderRow,
  [slug: string, balance: string, address: string, fetch: number]
>(
  'tokens.holders_page',
  `select (c.next_block - 1)::text as "blockNumber", h.address, h.balance::text as balance,
          h.share
     from tokens t
     left join chain_cursors c on c.chain_id = t.chain_id
     left join lateral (
       select h.address, h.balance,
              (h.balance / nullif(totals.held_supply, 0))::float8 as share
         from token_holders h
         left join token_holder_totals totals
           on totals.chain_id = h.chain_id and totals.instance = h.instance
        where h.chain_id = t.chain_id and h.instance = lower(t.instance) and h.balance > 0
          and ${HOLDER_ORDER.after(2)}
        order by ${HOLDER_ORDER.orderBy}
        limit $4) h on true
    where t.slug = $1
    order by h.balance desc, h.address desc`,
);

type Holder = HolderRow & { address: string; balance: string };

export async function tokenHolders(
  deps: Pick<TokenDeps, 'db' | 'cursors'>,
  _actor: Actor | null,
  query: TokenPageInput,
) {
  const { slug } = query;
  if (!looksLikeSlug(slug)) throw tokenNotFound(slug);
  const page = keyset(deps.cursors, HOLDER_ORDER, {
    scope: pageScope('token-holders', { slug }),
    cursor: query.cursor,
    limit: query.limit,
  });
  const rows = await deps.db.rows(holdersPage, [slug, page.after[0]!, page.after[1]!, page.fetch]);
  const head = rows[0];
  if (!head) throw tokenNotFound(slug);
  const holders = rows.filter((row): row is Holder => row.address !== null);
  const { items, nextCursor } = page.page(holders);
  return {
    items: items.map((row) => ({
      address: checksummed(row.address)!,
      balance: units(row.balance),
      share: row.share ?? 0,
    })),
    nextCursor,
    blockNumber: blockOf(head.blockNumber),
  };
}
