import type { TokenState, TokenTemplate } from '../../../shared/db/entities/token';
import { isoUtc, statement } from '../../../shared/db/sql';
import type { Actor } from '../../access/actor';
import { keyset, keysetOrder, type KeysetOrder } from '../../paging/keyset';
import { pageScope } from '../../paging/page';
import { publicToken, type ListTokensInput, type TokenSort } from './schemas';
import type { TokenDeps } from './service';

/**
 * `GET /tokens`: a keyset page of tokens, filtered by template, state and chain, in one
 * prepared statement per sort (decisions "Hot reads"). Every token is public: the actor (null
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
}

const createdAt = { column: 'created_at', type: 'timestamptz', field: 'createdAt' } as const;
const id = { column: 'id', type: 'uuid', field: 'id' } as const;

/** Every sort ends with the id, so the order is total (index `tokens (created_at, id)`). */
const TOKEN_ORDERS = {
  new: keysetOrder('desc', [createdAt, id]),
  old: keysetOrder('asc', [createdAt, id]),
  name: keysetOrder('asc', [{ column: 'name', type: 'text', field: 'name' } as const, id]),
} satisfies Record<TokenSort, KeysetOrder<'createdAt' | 'id' | 'name'>>;

type PageParams = [
  template: TokenTemplate | null,
  state: TokenState | null,
  chainId: number | null,
  ...after: string[],
  fetch: number,
];

function pageStatement(sort: TokenSort) {
  const order = TOKEN_ORDERS[sort];
  return statement<TokenRow, PageParams>(
    `tokens.page_${sort}`,
    `select id, slug, name, ticker, template, instance, chain_id as "chainId",
            image_url as "imageUrl", brief, params, state,
            pending_launch_tx as "pendingLaunchTx", ${isoUtc('created_at')} as "createdAt"
       from tokens
      where ($1::text is null or template = $1)
        and ($2::text is null or state = $2)
        and ($3::int is null or chain_id = $3)
        and ${order.after(4)}
      order by ${order.orderBy}
      limit $${4 + order.arity}`,
  );
}

const tokenPage = {
  new: pageStatement('new'),
  old: pageStatement('old'),
  name: pageStatement('name'),
} satisfies Record<TokenSort, unknown>;

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
  return { items: items.map((token) => publicToken(token)), nextCursor };
}
