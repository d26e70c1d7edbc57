import type { TokenState, TokenTemplate } from '../../../shared/db/entities/token';
import type { TokenDetailRow } from './queries';
import { isoUtc, statement } from '../../../shared/db/sql';
import { keysetOrder } from '../../paging/keyset';

/**
 * The token reads that come from the chain index (docs/chain.md "Reads"): one statement per
 * response, each with the indexed block it reflects (`chain_cursors.next_block - 1`). A token
 * without an instance matches no chain row, so its chain fields come back null and its lists
 * empty. Amounts leave PostgreSQL as integer strings of base units.
 */

/** The token the chain figures belong to, on every row. */
interface TokenHead {
  tokenId: string;
  template: TokenTemplate;
  state: TokenState;
  /** Null before the chain's first indexed range. */
  blockNumber: string | null;
}

const HEAD = `t.id as "tokenId", t.template, t.state, (c.next_block - 1)::text as "blockNumber"`;
const CURSOR_JOIN = 'left join chain_cursors c on c.chain_id = t.chain_id';

export const HOLDER_ORDER = keysetOrder('desc', [
  { column: 'h.balance', type: 'numeric', field: 'balance' } as const,
  { column: 'h.address', type: 'address', field: 'address' } as const,
]);

export interface HolderRow extends TokenHead {
  address: string | null;
  balance: string | null;
  share: number | null;
}

/** A page of holders, balance descending (then address descending), with their share. */
export const holdersPage = statement<
  HolderRow,
  [slug: string, balance: string, address: string, fetch: number]
>(
  'tokens.holders_page',
  `select ${HEAD}, h.address, h.balance::text as balance, h.share
     from tokens t
     ${CURSOR_JOIN}
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

export const TRADE_ORDER = keysetOrder('desc', [
  { column: 'r.block_number', type: 'int8', field: 'blockNumber' } as const,
  { column: 'r.log_index', type: 'int8', field: 'logIndex' } as const,
]);

export interface TradeRow extends Omit<TokenHead, 'blockNumber'> {
  indexedBlock: string | null;
  kind: 'buy' | 'sell' | 'graduation' | null;
  trader: string | null;
  amountToken: string | null;
  amountPayment: string | null;
  price: string | null;
  txHash: string | null;
  blockNumber: string | null;
  logIndex: string | null;
  timestamp: string | null;
}

/** A page of trades and graduations, newest first. */
export const tradesPage = statement<
  TradeRow,
  [slug: string, block: string, logIndex: string, fetch: number]
>(
  'tokens.trades_page',
  `select t.id as "tokenId", t.template, t.state, (c.next_block - 1)::text as "indexedBlock",
          r.kind, r.trader, r.amount_token::text as "amountToken",
          r.amount_payment::text as "amountPayment", r.price::text as price,
          r.tx_hash as "txHash", r.block_number::text as "blockNumber",
          r.log_index::text as "logIndex", ${isoUtc('r.block_time')} as timestamp
     from tokens t
     ${CURSOR_JOIN}
     left join lateral (
       select r.* from token_trades r
        where r.chain_id = t.chain_id and r.instance = lower(t.instance)
          and ${TRADE_ORDER.after(2)}
        order by ${TRADE_ORDER.orderBy}
        limit $4) r on true
    where t.slug = $1
    order by r.block_number desc, r.log_index desc`,
);

export interface ChainStateRow extends TokenHead {
  /** The token's own row, for `GET /tokens/:slug` (its `instance` as the token has it). */
  token: TokenDetailRow;
  /** Lowercase; null until the launch is indexed. */
  instance: string | null;
  factory: string | null;
  protocol: string | null;
  tree: string | null;
  gwt: string | null;
  launchParams: Record<string, string> | null;
  holdersCount: number | null;
  /** virtuals: the curve's opening state and its latest trade. */
  supply: string | null;
  virtualPayment: string | null;
  graduationThreshold: string | null;
  reserveToken: string | null;
  lockedPayment: string | null;
  lastTradePrice: string | null;
  graduated: boolean;
  /** Locked payment 24 hours (chain time) before the indexed head; null with no trade then. */
  lockedDayAgo: string | null;
  /** The last indexed block's time and the launch's: the window of the recent rate. */
  headTime: string | null;
  launchTime: string | null;
  /** dpnm: the pool after its latest change, and its tree. */
  poolUsdt: string | null;
  totalSupply: string | null;
  currentPrice: string | null;
  lifetimeFeesUsdt: string | null;
  lifetimeGwtMinted: string | null;
  treePositions: number | null;
  activePositions: number | null;
}

const TOKEN = `json_build_object(
    'id', t.id, 'slug', t.slug, 'name', t.name, 'ticker', t.ticker, 'template', t.template,
    'instance', t.instance, 'chainId', t.chain_id, 'imageUrl', t.image_url, 'brief', t.brief,
    'params', t.params, 'state', t.state, 'pendingLaunchTx', t.pending_launch_tx,
    'createdAt', ${isoUtc('t.created_at')}, 'holderRewardPool', t.holder_reward_pool::text,
    'lastHolderReward', (
      select json_build_object('id', d.id, 'period', d.period::text,
               'blockNumber', d.block_number, 'distributed', d.distributed::text,
               'recipients', d.recipients, 'createdAt', ${isoUtc('d.created_at')},
               'completedAt', ${isoUtc('d.completed_at')})
        from holder_reward_distributions d
       where d.token_id = t.id
       order by d.period desc limit 1))`;

/**
 * Everything `GET /tokens/:slug` and `/onchain` show, both templates: the token's row, its
 * launch, the curve (virtuals) or the pool and tree (dpnm), and the holder totals. Each part
 * is an index lookup; the tree counts are index-only range scans.
 */
export const chainState = statement<ChainStateRow, [slug: string]>(
  'tokens.chain_state',
  `select ${HEAD}, ${TOKEN} as token, l.instance, l.factory, l.protocol, l.tree, l.gwt,
          l.params as "launchParams", totals.holders_count as "holdersCount",
          curve.args->>'reserveToken' as supply, curve.args->>'virtualPayment' as "virtualPayment",
          curve.args->>'graduationThreshold' as "graduationThreshold",
          coalesce(last.reserve_token, (curve.args->>'reserveToken')::numeric)::text as "reserveToken",
          coalesce(last.locked_payment, case when curve.args is not null then 0 end)::text
            as "lockedPayment",
          last.price::text as "lastTradePrice",
          exists (select 1 from token_trades g
                   where g.chain_id = l.chain_id and g.instance = l.instance
                     and g.kind = 'graduation') as graduated,
          day_ago.locked_payment::text as "lockedDayAgo",
          ${isoUtc('c.head_time')} as "headTime", ${isoUtc('l.block_time')} as "launchTime",
          pool.args->>'poolUsdt' as "poolUsdt", pool.args->>'totalSupply' as "totalSupply",
          coalesce(pool.args->>'price', l.params->>'initialPrice') as "currentPrice",
          coalesce(pool.args->>'lifetimeFeesUsdt', case when l.protocol is not null then '0' end)
            as "lifetimeFeesUsdt",
          minted.total::text as "lifetimeGwtMinted",
          tree.positions as "treePositions", tree.active as "activePositions"
     from tokens t
     ${CURSOR_JOIN}
     left join chain_launches l on l.chain_id = t.chain_id and l.instance = lower(t.instance)
     left join token_holder_totals totals
       on totals.chain_id = l.chain_id and totals.instance = l.instance
     left join lateral (
       select e.args from chain_events e
        where e.chain_id = l.chain_id and e.instance = l.instance and e.name = 'CurveCreated'
        order by e.block_number desc, e.log_index desc limit 1) curve on true
     left join lateral (
       select r.reserve_token, r.locked_payment, r.price from token_trades r
        where r.chain_id = l.chain_id and r.instance = l.instance
        order by r.block_number desc, r.log_index desc limit 1) last on true
     left join lateral (
       select r.locked_payment from token_trades r
        where r.chain_id = l.chain_id and r.instance = l.instance and r.kind <> 'graduation'
          and r.block_time <= c.head_time - interval '24 hours'
        order by r.block_time desc limit 1) day_ago on true
     left join lateral (
       select e.args from chain_events e
        where e.chain_id = l.chain_id and e.instance = l.instance and e.name = 'PoolUpdated'
        order by e.block_number desc, e.log_index desc limit 1) pool on true
     left join lateral (
       select coalesce(sum((e.args->>'amount')::numeric), 0) as total from chain_events e
        where l.protocol is not null
          and e.chain_id = l.chain_id and e.instance = l.instance and e.name = 'GwtClaimed') minted
       on true
     left join lateral (
       select count(*)::int as positions,
              count(*) filter (where n.active_until > extract(epoch from c.head_time))::int
                as active
         from dpnm_tree_nodes n
        where l.protocol is not null and n.chain_id = l.chain_id and n.instance = l.instance) tree
       on true
    where t.slug = $1`,
);
