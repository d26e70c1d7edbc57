import type { TokenState, TokenTemplate } from '../../../shared/db/entities/token';
import { isoUtc, statement } from '../../../shared/db/sql';
import type { Actor } from '../../access/actor';
import { keyset, keysetOrder, type KeysetOrder } from '../../paging/keyset';
import { pageScope } from '../../paging/page';
import { units } from '../../wire';
import { QUOTE_SYMBOLS } from './market-schemas';
import { publicToken, type ListTokensInput, type TokenSort } from './schemas';
import type { TokenDeps } from './service';

/**
 * `GET /tokens`: a keyset page of tokens, filtered by template, state and chain, each with its
 * board figures (docs/chain.md "Market data"), in one prepared statement per sort (decisions
 * "Hot reads"). The catalogue sorts read `tokens` by their index; the board's sorts read
 * `token_markets` by theirs (launched tokens only). Every token is public: the actor (null
 * when anonymous) changes nothing.
 */

interface TokenRow {
  id: string;
  slug: string;
  name: string;
  ticker: string;
  template: TokenTemplate;
  instance: string | null;
  chainId: number;
  imageUrl: string | null;
  brief: string | null;
  params: Record<string, unknown>;
  state: TokenState;
  pendingLaunchTx: string | null;
  /** ISO 8601, as the wire writes it. */
  createdAt: string;
  /** The board row's figures (base units, strings), all null without one. */
  price: string | null;
  marketCap: string | null;
  volume24h: string | null;
  priceChange24h: string | null;
  trades24h: number | null;
  holdersCount: number | null;
  progress: string | null;
  lastTradeAt: string | null;
  /** The board sort's key as text (its keyset position); empty for the catalogue sorts. */
  sortKey: string;
}

const createdAt = { column: 't.created_at', type: 'timestamptz', field: 'createdAt' } as const;
const id = { column: 't.id', type: 'uuid', field: 'id' } as const;
const marketId = { column: 'm.token_id', type: 'uuid', field: 'id' } as const;
const boardKey = (column: string, type: 'numeric' | 'timestamptz' = 'numeric') =>
  keysetOrder('desc', [{ column, type, field: 'sortKey' } as const, marketId]);

type Field = 'createdAt' | 'id' | 'name' | 'sortKey';

/** Every sort ends with the token's id, so the order is total (each has its index). */
const TOKEN_ORDERS = {
  new: keysetOrder('desc', [createdAt, id]),
  old: keysetOrder('asc', [createdAt, id]),
  name: keysetOrder('asc', [{ column: 't.name', type: 'text', field: 'name' } as const, id]),
  market_cap: boardKey('m.market_cap'),
  volume_24h: boardKey('m.volume_24h'),
  price_change_24h: boardKey('m.price_change_24h'),
  last_trade: boardKey('m.activity_at', 'timestamptz'),
  graduating: boardKey('m.progress'),
  trending: boardKey('m.trending_score'),
} satisfies Record<TokenSort, KeysetOrder<Field>>;

/** The board sorts: which column orders them, and which rows they hold. */
const BOARD: Partial<Record<TokenSort, { key: string; where?: string }>> = {
  market_cap: { key: 'm.market_cap::text' },
  volume_24h: { key: 'm.volume_24h::text' },
  price_change_24h: { key: 'm.price_change_24h::text' },
  last_trade: { key: isoUtc('m.activity_at') },
  graduating: {
    key: 'm.progress::text',
    where: `m.template = 'virtuals' and not m.graduated and t.state = 'live'`,
  },
  trending: { key: 'm.trending_score::text' },
};

type PageParams = [
  template: TokenTemplate | null,
  state: TokenState | null,
  chainId: number | null,
  ...after: string[],
  fetch: number,
];

const COLUMNS = `t.id, t.slug, t.name, t.ticker, t.template, t.instance, t.chain_id as "chainId",
            t.image_url as "imageUrl", t.brief, t.params, t.state,
            t.pending_launch_tx as "pendingLaunchTx", ${isoUtc('t.created_at')} as "createdAt",
            m.price::text as price, m.market_cap::text as "marketCap",
            m.volume_24h::text as "volume24h", m.price_change_24h::text as "priceChange24h",
            m.trades_24h as "trades24h", h.holders_count as "holdersCount",
            m.progress::text as progress,
            case when m.last_trade_at is not null then ${isoUtc('m.last_trade_at')} end
              as "lastTradeAt"`;

const FILTERS = `($1::text is null or t.template = $1)
        and ($2::text is null or t.state = $2)
        and ($3::int is null or t.chain_id = $3)`;

function pageStatement(sort: TokenSort) {
  const order = TOKEN_ORDERS[sort];
  const board = BOARD[sort];
  const text = board
    ? `select ${COLUMNS}, ${board.key} as "sortKey"
         from token_markets m
         join tokens t on t.id = m.token_id
         left join token_holder_totals h on h.chain_id = m.chain_id and h.instance = m.instance
        where ${FILTERS} ${board.where ? `and ${board.where}` : ''}
          and ${order.after(4)}
        order by ${order.orderBy}
        limit $${4 + order.arity}`
    : `select ${COLUMNS}, '' as "sortKey"
         from tokens t
         left join token_markets m on m.token_id = t.id
         left join token_holder_totals h on h.chain_id = m.chain_id and h.instance = m.instance
        where ${FILTERS}
          and ${order.after(4)}
        order by ${order.orderBy}
        limit $${4 + order.arity}`;
  return statement<TokenRow, PageParams>(`tokens.page_${sort}`, text);
}

const tokenPage = Object.fromEntries(
  Object.keys(TOKEN_ORDERS).map((sort) => [sort, pageStatement(sort as TokenSort)]),
) as Record<TokenSort, ReturnType<typeof pageStatement>>;

export async function listTokens(
  deps: Pick<TokenDeps, 'db' | 'cursors'>,
  _actor: Actor | null,
  query: ListTokensInput,
) {
  const { cursor, limit, template, state, chainId, sort } = query;
  const page = keyset(deps.cursors, TOKEN_ORDERS[sort], {
    scope: pageScope('tokens', { template, state, chainId, sort }),
    cursor,
    limit,
  });
  const rows = await deps.db.rows(tokenPage[sort], [
    template ?? null,
    state ?? null,
    chainId ?? null,
    ...page.after,
    page.fetch,
  ]);
  const { items, nextCursor } = page.page(rows);
  return { items: items.map(listItem), nextCursor };
}

/** A list item: the token, and its board figures once its launch is indexed. */
function listItem(row: TokenRow) {
  return Object.assign(publicToken(row), {
    market:
      row.price === null
        ? null
        : {
            quoteSymbol: QUOTE_SYMBOLS[row.template],
            price: units(row.price),
            marketCap: units(row.marketCap!),
            volume24h: units(row.volume24h!),
            priceChange24h: Number(row.priceChange24h),
            trades24h: row.trades24h!,
            holdersCount: row.holdersCount ?? 0,
            progressToGraduation: row.progress === null ? null : Number(row.progress),
            lastTradeAt: row.lastTradeAt,
          },
  });
}
