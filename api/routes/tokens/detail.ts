import { getAddress } from 'viem';
import type { TokenState, TokenTemplate } from '../../../shared/db/entities/token';
import { curveProgress } from '../../../shared/chain/launchpad';
import { isoUtc, statement } from '../../../shared/db/sql';
import { flowNumber } from '../../../shared/domain/flow';
import type { Actor } from '../../access/actor';
import { checksummed, looksLikeSlug, units } from '../../wire';
import { tokenNotFound } from './access';
import { factoryOf } from './chains';
import { blockOf, publicToken, type TokenSlugInput, type TokenWireFields } from './schemas';
import type { TokenDeps } from './service';

/**
 * `GET /tokens/:slug` and `GET /tokens/:slug/onchain` (docs/chain.md "Reads"): one statement
 * reads the token's row and everything the chain index knows of it, both templates, at the
 * indexed block (`chain_cursors.next_block - 1`); the detail shows the token with its
 * template's chain fields, `/onchain` the template's aggregate (the virtuals curve, or the
 * dpnm pool and tree). Before the launch is indexed the chain fields are null. Amounts leave
 * PostgreSQL as integer strings of base units. Public: the actor (null when anonymous) changes
 * nothing.
 */

/** The token's own row, built as JSON by the statement (its `instance` as the token has it). */
interface DetailToken extends TokenWireFields {
  description: string | null;
  links: { website: string | null; twitter: string | null; telegram: string | null };
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

export interface TokenDetailRow {
  token: DetailToken;
  tokenId: string;
  template: TokenTemplate;
  state: TokenState;
  /** The indexed block; null before the chain's first indexed range. */
  blockNumber: string | null;
  /** The launch's instance, lowercase; null until the launch is indexed. */
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
    'description', t.description, 'links', json_build_object('website', t.link_website,
      'twitter', t.link_twitter, 'telegram', t.link_telegram),
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
 * The token's row, its launch, the curve (virtuals) or the pool and tree (dpnm), and the
 * holder totals. Each part is an index lookup; the tree counts are index-only range scans.
 */
const tokenDetailStatement = statement<TokenDetailRow, [slug: string]>(
  'tokens.detail',
  `select ${TOKEN} as token, t.id as "tokenId", t.template, t.state, (c.next_block - 1)::text as "blockNumber",
          l.instance, l.factory, l.protocol, l.tree, l.gwt,
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
     left join chain_cursors c on c.chain_id = t.chain_id
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

/** The detail row of the token `slug`; 404 when there is none. */
async function detailRow(deps: Pick<TokenDeps, 'db'>, slug: string): Promise<TokenDetailRow> {
  const row = looksLikeSlug(slug) ? await deps.db.row(tokenDetailStatement, [slug]) : undefined;
  if (!row) throw tokenNotFound(slug);
  return row;
}

/** `GET /tokens/:slug`: the token, its holder reward pool and its template's chain fields. */
export async function tokenBySlug(
  deps: Pick<TokenDeps, 'db' | 'config'>,
  _actor: Actor | null,
  input: TokenSlugInput,
) {
  const row = await detailRow(deps, input.slug);
  const { token } = row;
  const last = token.lastHolderReward;
  // Object.assign, not `{ ...publicToken(token), … }`: docs/decisions.md "Hot mappers extend
  // a fresh object".
  return Object.assign(
    publicToken(token),
    {
      description: token.description,
      links: token.links,
      holderRewardPoolFlow: flowNumber(BigInt(token.holderRewardPool)),
      lastHolderRewardDistribution: last && {
        id: last.id,
        period: last.period,
        blockNumber: last.blockNumber,
        distributedFlow: flowNumber(BigInt(last.distributed)),
        recipients: last.recipients,
        createdAt: last.createdAt,
        completedAt: last.completedAt,
      },
      launchFactory:
        token.instance == null ? factoryOf(deps.config, token.chainId, token.template) : null,
    },
    detailChainFields(row),
  );
}

/** `GET /tokens/:slug/onchain`: the template's aggregate, its fields null before the launch. */
export async function tokenOnchain(
  deps: Pick<TokenDeps, 'db'>,
  _actor: Actor | null,
  input: TokenSlugInput,
) {
  const row = await detailRow(deps, input.slug);
  const blockNumber = blockOf(row.blockNumber);
  if (row.template === 'virtuals') {
    // The aggregate is the curve itself; the estimate belongs to the detail view.
    const { estimatedTimeToGraduation, ...aggregate } = curveState(row) ?? emptyCurve();
    void estimatedTimeToGraduation;
    return Object.assign(aggregate, { blockNumber });
  }
  return Object.assign(poolState(row) ?? emptyPool(), { blockNumber });
}

/** The template's chain fields of `GET /tokens/:slug`, null while there is no launch. */
function detailChainFields(row: TokenDetailRow) {
  const blockNumber = blockOf(row.blockNumber);
  if (row.template === 'virtuals') {
    const curve = curveState(row);
    return {
      progressToGraduation: curve?.progressToGraduation ?? null,
      lockedPaymentToken: curve?.lockedPaymentToken ?? null,
      graduationThreshold: curve?.graduationThreshold ?? null,
      estimatedTimeToGraduation: curve?.estimatedTimeToGraduation ?? null,
      holdersCount: curve ? (row.holdersCount ?? 0) : null,
      lastTradePrice: curve?.lastTradePrice ?? null,
      blockNumber,
    };
  }
  const pool = poolState(row);
  return {
    flowProtocol: pool?.flowProtocol ?? null,
    phenomenalTree: pool?.phenomenalTree ?? null,
    gwt: pool?.gwt ?? null,
    currentPrice: pool?.currentPrice ?? null,
    poolUsdt: pool?.poolUsdt ?? null,
    totalSupply: pool?.totalSupply ?? null,
    holdersCount: pool ? (row.holdersCount ?? 0) : null,
    treeActivePositions: pool?.totalActivePositions ?? null,
    blockNumber,
  };
}

/** The virtuals curve (docs/spec/contract.md §10); null before the launch is indexed. */
export function curveState(row: TokenDetailRow) {
  if (row.instance === null || row.graduationThreshold === null) return null;
  const locked = BigInt(row.lockedPayment ?? '0');
  const threshold = BigInt(row.graduationThreshold);
  const virtualPayment = BigInt(row.virtualPayment ?? '0');
  return {
    template: 'virtuals' as const,
    instance: getAddress(row.instance),
    pair: checksummed(row.factory),
    reserveToken: units(row.reserveToken),
    reservePayment: units((locked + virtualPayment).toString()),
    lockedPaymentToken: units(locked.toString()),
    graduationThreshold: units(threshold.toString()),
    progressToGraduation: curveProgress(locked, threshold),
    graduated: row.graduated,
    lastTradePrice: units(row.lastTradePrice),
    totalSupply: units(row.supply),
    estimatedTimeToGraduation: timeToGraduation(row, locked, threshold),
  };
}

/** The dpnm pool and tree (spec "Token on-chain aggregate"); null before the launch. */
function poolState(row: TokenDetailRow) {
  if (row.instance === null || row.protocol === null) return null;
  return {
    template: 'dpnm' as const,
    instance: getAddress(row.instance),
    flowProtocol: getAddress(row.protocol),
    phenomenalTree: checksummed(row.tree),
    gwt: checksummed(row.gwt),
    currentPrice: units(row.currentPrice),
    poolUsdt: units(row.poolUsdt ?? '0'),
    totalSupply: units(row.totalSupply ?? '0'),
    totalActivePositions: row.activePositions ?? 0,
    totalTreePositions: row.treePositions ?? 0,
    lifetimeFeesUsdt: units(row.lifetimeFeesUsdt ?? '0'),
    lifetimeGwtMinted: units(row.lifetimeGwtMinted ?? '0'),
  };
}

const DAY_SECONDS = 86_400;

/**
 * The shortest window the rate is counted over: a rate from seconds of data (a launch and its
 * first buys in one block) would promise graduation in seconds.
 */
const MIN_RATE_WINDOW_SECONDS = 3_600;

/**
 * At the recent rate of locked payment, how long until the threshold: the net gain over the
 * last 24 hours of chain time, or since the launch when the curve is younger, divided by that
 * window but by no less than an hour (docs/chain.md "Reads"). Null without net buying in the
 * window, or once graduated; never null while there is net buying.
 */
function timeToGraduation(row: TokenDetailRow, locked: bigint, threshold: bigint): string | null {
  if (row.graduated || locked >= threshold || !row.headTime || !row.launchTime) return null;
  const gained = locked - BigInt(row.lockedDayAgo ?? '0');
  if (gained <= 0n) return null;
  const age = Math.floor((Date.parse(row.headTime) - Date.parse(row.launchTime)) / 1000);
  const window = Math.max(MIN_RATE_WINDOW_SECONDS, Math.min(DAY_SECONDS, age));
  const seconds = Number(((threshold - locked) * BigInt(window)) / gained);
  return isoDuration(seconds);
}

/** Seconds as an ISO 8601 duration, whole seconds: 93784 → "P1DT2H3M4S". */
export function isoDuration(totalSeconds: number): string {
  let rest = Math.max(0, Math.ceil(totalSeconds));
  const days = Math.floor(rest / DAY_SECONDS);
  rest -= days * DAY_SECONDS;
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const seconds = rest - minutes * 60;
  const time = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${seconds ? `${seconds}S` : ''}`;
  if (!days && !time) return 'PT0S';
  return `P${days ? `${days}D` : ''}${time ? `T${time}` : ''}`;
}

function emptyCurve() {
  return {
    template: 'virtuals' as const,
    instance: null,
    pair: null,
    reserveToken: null,
    reservePayment: null,
    lockedPaymentToken: null,
    graduationThreshold: null,
    progressToGraduation: null,
    graduated: null,
    lastTradePrice: null,
    totalSupply: null,
    estimatedTimeToGraduation: null,
  };
}

function emptyPool() {
  return {
    template: 'dpnm' as const,
    instance: null,
    flowProtocol: null,
    phenomenalTree: null,
    gwt: null,
    currentPrice: null,
    poolUsdt: null,
    totalSupply: null,
    totalActivePositions: null,
    totalTreePositions: null,
    lifetimeFeesUsdt: null,
    lifetimeGwtMinted: null,
  };
}
