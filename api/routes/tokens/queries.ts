import type { TokenState, TokenTemplate } from '../../../shared/db/entities/token';
import { isoUtc, statement } from '../../../shared/db/sql';
import { keysetOrder, type KeysetOrder } from '../../paging/keyset';
import type { TokenSort } from './schemas';

/** The token reads (decisions "Hot reads"): one prepared statement per response shape. */

export interface TokenRow {
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

export interface TokenDetailRow extends TokenRow {
  /** micro-FLOW (int8, a string). */
  holderRewardPool: string;
  /** The latest holder-reward distribution; `distributed` in micro-FLOW. */
  lastHolderReward: {
    id: string;
    period: string;
    blockNumber: number;
    distributed: string;
    recipients: number;
    createdAt: string;
    completedAt: string | null;
  } | null;
}

const COLUMNS = `id, slug, name, ticker, template, instance, chain_id as "chainId",
       image_url as "imageUrl", brief, params, state, pending_launch_tx as "pendingLaunchTx",
       ${isoUtc('created_at')} as "createdAt"`;

const createdAt = { column: 'created_at', type: 'timestamptz', field: 'createdAt' } as const;
const id = { column: 'id', type: 'uuid', field: 'id' } as const;

/** Every sort ends with the id, so the order is total (index `tokens (created_at, id)`). */
export const TOKEN_ORDERS = {
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
    `select ${COLUMNS}
       from tokens
      where ($1::text is null or template = $1)
        and ($2::text is null or state = $2)
        and ($3::int is null or chain_id = $3)
        and ${order.after(4)}
      order by ${order.orderBy}
      limit $${4 + order.arity}`,
  );
}

export const tokenPage = {
  new: pageStatement('new'),
  old: pageStatement('old'),
  name: pageStatement('name'),
} satisfies Record<TokenSort, unknown>;
