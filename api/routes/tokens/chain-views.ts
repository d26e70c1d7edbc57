import { formatUnits, getAddress } from 'viem';
import { AMOUNT_DECIMALS } from '../../../shared/chain/launchpad';
import type { ChainStateRow, HolderRow, TradeRow } from './chain-queries';

/**
 * Chain rows on the wire (docs/chain.md "Reads"): amounts as decimal strings in whole units
 * with every one of their 18 decimals kept, addresses checksummed, block numbers as numbers.
 */

/** Base units (an integer string) in whole units: "1500000000000000000" → "1.5". */
export function units(base: string | null): string | null {
  return base === null ? null : formatUnits(BigInt(base), AMOUNT_DECIMALS);
}

export function checksummed(address: string | null): string | null {
  return address === null ? null : getAddress(address);
}

function blockOf(value: string | null): number | null {
  return value === null || Number(value) < 0 ? null : Number(value);
}

const DAY_SECONDS = 86_400;

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

/** locked / threshold, capped at 1. */
function progress(locked: bigint, threshold: bigint): number {
  if (threshold === 0n) return 0;
  if (locked >= threshold) return 1;
  return Number((locked * 1_000_000n) / threshold) / 1_000_000;
}

/**
 * At the recent rate of locked payment, how long until the threshold: the net gain over the
 * last 24 hours of chain time, or since the launch when the curve is younger. Null without net
 * buying in that window, or once graduated.
 */
function timeToGraduation(row: ChainStateRow, locked: bigint, threshold: bigint): string | null {
  if (row.graduated || locked >= threshold || !row.headTime || !row.launchTime) return null;
  const gained = locked - BigInt(row.lockedDayAgo ?? '0');
  const window = Math.min(
    DAY_SECONDS,
    Math.floor((Date.parse(row.headTime) - Date.parse(row.launchTime)) / 1000),
  );
  if (gained <= 0n || window <= 0) return null;
  const seconds = Number(((threshold - locked) * BigInt(window)) / gained);
  return isoDuration(seconds);
}

/** The virtuals curve as `/onchain` shows it (docs/spec/contract.md §10). */
export function curveState(row: ChainStateRow) {
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
    progressToGraduation: progress(locked, threshold),
    graduated: row.graduated,
    lastTradePrice: units(row.lastTradePrice),
    totalSupply: units(row.supply),
    estimatedTimeToGraduation: timeToGraduation(row, locked, threshold),
  };
}

/** The dpnm pool and tree as `/onchain` shows them (spec "Token on-chain aggregate"). */
export function poolState(row: ChainStateRow) {
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

/** The template's chain fields of `GET /tokens/:slug`, null while there is no launch. */
export function detailChainFields(row: ChainStateRow) {
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

/** `GET /tokens/:slug/onchain`: the template's aggregate, its fields null before the launch. */
export function onchainView(row: ChainStateRow) {
  const blockNumber = blockOf(row.blockNumber);
  if (row.template === 'virtuals') {
    // The aggregate is the curve itself; the estimate belongs to the detail view.
    const { estimatedTimeToGraduation, ...aggregate } = curveState(row) ?? emptyCurve();
    void estimatedTimeToGraduation;
    return { ...aggregate, template: 'virtuals' as const, blockNumber };
  }
  return { ...(poolState(row) ?? emptyPool()), template: 'dpnm' as const, blockNumber };
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

export function holderItem(row: HolderRow & { address: string; balance: string }) {
  return { address: getAddress(row.address), balance: units(row.balance)!, share: row.share ?? 0 };
}

export function tradeItem(row: TradeRow) {
  return {
    id: `${row.blockNumber}-${row.logIndex}`,
    kind: row.kind!,
    trader: checksummed(row.trader),
    amountToken: units(row.amountToken)!,
    amountPayment: units(row.amountPayment)!,
    price: units(row.price)!,
    txHash: row.txHash!,
    blockNumber: Number(row.blockNumber),
    logIndex: Number(row.logIndex),
    timestamp: row.timestamp!,
  };
}

export { blockOf };
