import { getAddress, parseAbi } from 'viem';
import type { ChainClients } from '../../../shared/chain/clients';
import type { Config } from '../../../shared/config';
import type { TokenTemplate } from '../../../shared/db/entities/token';
import { statement, type Sql } from '../../../shared/db/sql';
import { AppError } from '../../../shared/errors';
import { units } from '../../wire';

/**
 * The DEX Screener Adapter over the chain index (docs/chain.md "Market data"): what an
 * aggregator reads to list the launchpad's bonding-curve pairs. It is shown the index only up
 * to the newest final block (`chain_cursors.final_block`), so it never sees a swap a reorg
 * takes back.
 */

export interface DexDeps {
  db: Sql;
  config: Pick<Config, 'chainRpcUrls' | 'chainPaymentTokens'>;
  chains: ChainClients;
}

/** The chain asked for, or the lowest configured one; 400 `chain_unsupported` for another. */
export function chainOf(deps: Pick<DexDeps, 'config'>, chainId: number | undefined): number {
  const configured = Object.keys(deps.config.chainRpcUrls)
    .map(Number)
    .sort((a, b) => a - b);
  const chain = chainId ?? configured[0];
  if (chain === undefined || !configured.includes(chain)) {
    throw new AppError('chain_unsupported', `chainId: ${chainId ?? ''} is not configured here`);
  }
  return chain;
}

interface FinalRow {
  blockNumber: string | null;
  blockTimestamp: number | null;
}
const finalBlock = statement<FinalRow, [chainId: number]>(
  'dex.final_block',
  `select final_block::text as "blockNumber",
          extract(epoch from final_time)::int8::float8 as "blockTimestamp"
     from chain_cursors where chain_id = $1`,
);

function notYet(): AppError {
  return new AppError('service_unavailable', 'The chain has no final indexed block yet', {
    'retry-after': '5',
  });
}

export async function latestBlock(deps: DexDeps, chainId: number) {
  const row = await deps.db.row(finalBlock, [chainId]);
  if (!row?.blockNumber || row.blockTimestamp === null) throw notYet();
  return { block: { blockNumber: Number(row.blockNumber), blockTimestamp: row.blockTimestamp } };
}

/** A launched token of the chain by its address, with what its asset and pair show. */
interface LaunchRow {
  instance: string;
  template: TokenTemplate;
  name: string;
  ticker: string;
  creator: string;
  txHash: string;
  blockNumber: string;
  blockTimestamp: number;
  /** Base units: the curve's whole supply, or the dpnm tokens minted (latest PoolUpdated). */
  totalSupply: string | null;
  circulating: string | null;
}
const launchOf = statement<LaunchRow, [chainId: number, instance: string]>(
  'dex.launch',
  `select l.instance, l.template, t.name, t.ticker, l.creator, l.tx_hash as "txHash",
          l.block_number::text as "blockNumber",
          extract(epoch from l.block_time)::int8::float8 as "blockTimestamp",
          case when l.template = 'virtuals' then curve.args->>'reserveToken'
               else coalesce(pool.args->>'totalSupply', '0') end as "totalSupply",
          m.circulating::text as circulating
     from chain_launches l
     join tokens t on t.chain_id = l.chain_id and lower(t.instance) = l.instance
     left join token_markets m on m.token_id = t.id
     left join lateral (
       select e.args from chain_events e
        where e.chain_id = l.chain_id and e.instance = l.instance and e.name = 'CurveCreated'
        order by e.block_number desc, e.log_index desc limit 1) curve on true
     left join lateral (
       select e.args from chain_events e
        where e.chain_id = l.chain_id and e.instance = l.instance and e.name = 'PoolUpdated'
        order by e.block_number desc, e.log_index desc limit 1) pool on true
    where l.chain_id = $1 and l.instance = $2`,
);

const erc20Views = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function totalSupply() view returns (uint256)',
]);

function notFound(what: string, id: string): AppError {
  return new AppError('not_found', `id: no ${what} ${id} on this chain`);
}

/** The quote token of a template on the chain (GET /chains' payment tokens). */
function quoteOf(deps: Pick<DexDeps, 'config'>, chainId: number, template: TokenTemplate) {
  const tokens = deps.config.chainPaymentTokens[chainId] ?? {};
  const quote = template === 'virtuals' ? tokens.virtualsPayment : tokens.usdt;
  return quote ? getAddress(quote) : null;
}

export async function asset(deps: DexDeps, chainId: number, id: string) {
  const launch = await deps.db.row(launchOf, [chainId, id.toLowerCase()]);
  if (launch) {
    return {
      asset: {
        id: getAddress(launch.instance),
        name: launch.name,
        symbol: launch.ticker,
        totalSupply: units(launch.totalSupply ?? '0'),
        ...(launch.circulating === null ? {} : { circulatingSupply: units(launch.circulating) }),
      },
    };
  }
  // A quote token: its own name, symbol and supply, read from the chain.
  const quotes = Object.values(deps.config.chainPaymentTokens[chainId] ?? {}).map((quote) =>
    quote.toLowerCase(),
  );
  const client = deps.chains.client(chainId);
  if (!quotes.includes(id.toLowerCase()) || !client) throw notFound('asset', id);
  const address = getAddress(id);
  const read = <T>(functionName: 'name' | 'symbol' | 'totalSupply') =>
    client.readContract({ address, abi: erc20Views, functionName }) as Promise<T>;
  try {
    const [name, symbol, totalSupply] = await Promise.all([
      read<string>('name'),
      read<string>('symbol'),
      read<bigint>('totalSupply'),
    ]);
    return { asset: { id: address, name, symbol, totalSupply: units(totalSupply.toString()) } };
  } catch {
    throw new AppError('service_unavailable', 'The chain’s RPC did not answer', {
      'retry-after': '5',
    });
  }
}

export async function pair(deps: DexDeps, chainId: number, id: string) {
  const launch = await deps.db.row(launchOf, [chainId, id.toLowerCase()]);
  const quote = launch && quoteOf(deps, chainId, launch.template);
  if (!launch || !quote) throw notFound('pair', id);
  const instance = getAddress(launch.instance);
  return {
    pair: {
      id: instance,
      dexKey: launch.template,
      asset0Id: instance,
      asset1Id: quote,
      createdAtBlockNumber: Number(launch.blockNumber),
      createdAtBlockTimestamp: launch.blockTimestamp,
      createdAtTxnId: launch.txHash,
      creator: getAddress(launch.creator),
      feeBps: launch.template === 'virtuals' ? 0 : 1000,
    },
  };
}

interface SwapRow {
  blockNumber: string;
  blockTimestamp: number;
  txHash: string;
  txnIndex: number;
  logIndex: number;
  kind: 'buy' | 'sell';
  trader: string;
  instance: string;
  amountToken: string;
  amountPayment: string;
  priceAfter: string;
  reserveToken: string | null;
  lockedPayment: string | null;
}

/**
 * The chain's swaps of launched tokens in [from, to], no further than the newest final
 * block. `txnIndex` ranks a transaction among the block's indexed ones by its first log (the
 * index keeps log positions, which preserve the block's transaction order).
 */
const swaps = statement<SwapRow, [chainId: number, from: number, to: number]>(
  'dex.events',
  `select r.block_number::text as "blockNumber",
          extract(epoch from r.block_time)::int8::float8 as "blockTimestamp",
          r.tx_hash as "txHash",
          (dense_rank() over (partition by r.block_number order by first.log_index) - 1)::int
            as "txnIndex",
          r.log_index as "logIndex", r.kind, r.trader, r.instance,
          r.amount_token::text as "amountToken", r.amount_payment::text as "amountPayment",
          r.price_after::text as "priceAfter", r.reserve_token::text as "reserveToken",
          r.locked_payment::text as "lockedPayment"
     from chain_cursors c
     join token_trades r
       on r.chain_id = c.chain_id and r.block_number >= $2
      and r.block_number <= least($3::int8, c.final_block)
     cross join lateral (
       select min(x.log_index) as log_index from token_trades x
        where x.chain_id = r.chain_id and x.block_number = r.block_number
          and x.tx_hash = r.tx_hash) first
    where c.chain_id = $1 and r.kind <> 'graduation' and r.price_after is not null
      and exists (select 1 from tokens t
                   where t.chain_id = r.chain_id and lower(t.instance) = r.instance)
    order by r.block_number, r.log_index`,
);

export async function events(deps: DexDeps, chainId: number, from: number, to: number) {
  const rows = await deps.db.rows(swaps, [chainId, from, to]);
  return {
    events: rows.map((row) => {
      const buy = row.kind === 'buy';
      return {
        block: { blockNumber: Number(row.blockNumber), blockTimestamp: row.blockTimestamp },
        eventType: 'swap' as const,
        txnId: row.txHash,
        txnIndex: row.txnIndex,
        eventIndex: row.logIndex,
        maker: getAddress(row.trader),
        pairId: getAddress(row.instance),
        ...(buy
          ? { asset1In: units(row.amountPayment), asset0Out: units(row.amountToken) }
          : { asset0In: units(row.amountToken), asset1Out: units(row.amountPayment) }),
        priceNative: units(row.priceAfter),
        ...(row.reserveToken !== null && row.lockedPayment !== null
          ? { reserves: { asset0: units(row.reserveToken), asset1: units(row.lockedPayment) } }
          : {}),
      };
    }),
  };
}
