import { isoUtc, statement } from '../../../shared/db/sql';
import type { Actor } from '../../access/actor';
import { keyset, keysetOrder } from '../../paging/keyset';
import { pageScope } from '../../paging/page';
import { looksLikeSlug } from '../../wire';
import { tokenNotFound } from './access';
import { checksummed, units } from '../../wire';
import { blockOf, type TokenPageInput } from './schemas';
import type { TokenDeps } from './service';

/**
 * `GET /tokens/:slug/trades` (docs/chain.md "Reads"): a keyset page of the token's buys, sells
 * and graduation from the chain index, newest first, in one statement with the indexed block
 * it reflects. A token without an instance matches no trade row: an empty page. Public: the
 * actor (null when anonymous) changes nothing.
 */

const TRADE_ORDER = keysetOrder('desc', [
  { column: 'r.block_number', type: 'int8', field: 'blockNumber' } as const,
  { column: 'r.log_index', type: 'int8', field: 'logIndex' } as const,
]);

/** The token's row with each trade of the page; one row with null trade fields for none. */
interface TradeRow {
  /** `chain_cursors.next_block - 1`; null before the chain's first indexed range. */
  indexedBlock: string | null;
  kind: 'buy' | 'sell' | 'graduation' | null;
  /** Lowercase. */
  trader: string | null;
  /** Amounts in base units (numeric, strings). */
  amountToken: string | null;
  amountPayment: string | null;
  price: string | null;
  txHash: string | null;
  /** The trade's block and log index (int8, strings): its keyset position. */
  blockNumber: string | null;
  logIndex: string | null;
  /** ISO 8601: the block's time. */
  timestamp: string | null;
}

/** A page of trades and graduations, newest first. */
const tradesPage = statement<
  TradeRow,
  [slug: string, block: string, logIndex: string, fetch: number]
>(
  'tokens.trades_page',
  `select (c.next_block - 1)::text as "indexedBlock",
          r.kind, r.trader, r.amount_token::text as "amountToken",
          r.amount_payment::text as "amountPayment", r.price::text as price,
          r.tx_hash as "txHash", r.block_number::text as "blockNumber",
          r.log_index::text as "logIndex", ${isoUtc('r.block_time')} as timestamp
     from tokens t
     left join chain_cursors c on c.chain_id = t.chain_id
     left join lateral (
       select r.* from token_trades r
        where r.chain_id = t.chain_id and r.instance = lower(t.instance)
          and ${TRADE_ORDER.after(2)}
        order by ${TRADE_ORDER.orderBy}
        limit $4) r on true
    where t.slug = $1
    order by r.block_number desc, r.log_index desc`,
);

type Trade = TradeRow & {
  kind: NonNullable<TradeRow['kind']>;
  blockNumber: string;
  logIndex: string;
};

export async function tokenTrades(
  deps: Pick<TokenDeps, 'db' | 'cursors'>,
  _actor: Actor | null,
  query: TokenPageInput,
) {
  const { slug } = query;
  if (!looksLikeSlug(slug)) throw tokenNotFound(slug);
  const page = keyset(deps.cursors, TRADE_ORDER, {
    scope: pageScope('token-trades', { slug }),
    cursor: query.cursor,
    limit: query.limit,
  });
  const rows = await deps.db.rows(tradesPage, [slug, page.after[0]!, page.after[1]!, page.fetch]);
  const head = rows[0];
  if (!head) throw tokenNotFound(slug);
  const trades = rows.filter((row): row is Trade => row.kind !== null);
  const { items, nextCursor } = page.page(trades);
  return {
    items: items.map((row) => ({
      id: `${row.blockNumber}-${row.logIndex}`,
      kind: row.kind,
      trader: checksummed(row.trader),
      amountToken: units(row.amountToken)!,
      amountPayment: units(row.amountPayment)!,
      price: units(row.price)!,
      txHash: row.txHash!,
      blockNumber: Number(row.blockNumber),
      logIndex: Number(row.logIndex),
      timestamp: row.timestamp!,
    })),
    nextCursor,
    blockNumber: blockOf(head.indexedBlock),
  };
}
