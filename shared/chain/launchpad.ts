import { encodeFunctionData, parseAbi, parseUnits, type Hex } from 'viem';
import type { TokenTemplate } from '../db/entities/token';

/**
 * The launch factories' interface, as far as the service needs it: the calldata a wallet
 * signs to launch a token (`pendingLaunchTx`), and the event the chain indexer reads back.
 *
 * Every launch carries the token's id as `bytes16 ref` (the UUID's 16 bytes), and the
 * factory echoes it in `Launched`, so the indexer links the new instance to the metadata
 * row without trusting names or tickers.
 */

/** USDT and the virtuals payment token both have 18 decimals. */
export const AMOUNT_DECIMALS = 18;
/** `incomeLimitMultiplier` goes on chain in basis points (1 = 10000 bps). */
export const MULTIPLIER_DECIMALS = 4;

const launchedEvent =
  'event Launched(bytes16 indexed ref, address indexed instance, address indexed creator)';

export const virtualsFactoryAbi = parseAbi([
  'function launch(bytes16 ref, string name, string symbol, uint256 graduationThreshold, uint256 initialBuy) returns (address instance)',
  launchedEvent,
]);

export const dpnmFactoryAbi = parseAbi([
  'function launch(bytes16 ref, string name, string symbol, uint256 initialPrice, uint256 dailyLimitFloor, uint32 incomeLimitMultiplierBps, uint256 treeActivationCost) returns (address instance)',
  launchedEvent,
]);

/** Both factories emit the same event; either ABI decodes it. */
export const launchedEventAbi = parseAbi([launchedEvent]);

/** Amounts are decimal strings in whole units (e.g. `"0.5"` USDT), as on the wire. */
export interface VirtualsParams {
  /** Payment tokens locked in the bonding curve at which the token graduates. */
  graduationThreshold: string;
  /** Payment tokens the creator buys in the launch transaction itself. */
  initialBuy: string;
}

export interface DpnmParams {
  initialPrice: string;
  dailyLimitFloor: string;
  /** A plain number with at most 4 decimals, e.g. 2.5 (sent on chain as 25000 bps). */
  incomeLimitMultiplier: number;
  treeActivationCost: string;
}

export interface LaunchParams {
  virtuals: VirtualsParams;
  dpnm: DpnmParams;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The token id as the `bytes16 ref` of the launch: the UUID's 16 bytes, lowercase hex. */
export function refOf(tokenId: string): Hex {
  if (!UUID.test(tokenId)) throw new Error(`refOf: ${tokenId} is not a UUID`);
  return `0x${tokenId.replaceAll('-', '').toLowerCase()}`;
}

/** The token id a `Launched` event's `ref` names (the inverse of `refOf`). */
export function tokenIdOfRef(ref: Hex): string {
  const hex = ref.slice(2).toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`tokenIdOfRef: ${ref} is not bytes16`);
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    hex.slice(12, 16),
    hex.slice(16, 20),
    hex.slice(20),
  ].join('-');
}

/** A decimal amount string in base units (18 decimals). */
export function amountUnits(amount: string): bigint {
  return parseUnits(amount, AMOUNT_DECIMALS);
}

/** A multiplier with at most 4 decimals in basis points: 2.5 → 25000. */
export function multiplierBps(multiplier: number): number {
  // Through its decimal string, not `* 10000`: 1.0001 * 10000 is 10000.999999999998.
  return Number(parseUnits(String(multiplier), MULTIPLIER_DECIMALS));
}

interface LaunchIdentity {
  ref: Hex;
  name: string;
  symbol: string;
}

type Encoders = { [T in TokenTemplate]: (who: LaunchIdentity, params: LaunchParams[T]) => Hex };

const encoders: Encoders = {
  virtuals: ({ ref, name, symbol }, params) =>
    encodeFunctionData({
      abi: virtualsFactoryAbi,
      functionName: 'launch',
      args: [
        ref,
        name,
        symbol,
        amountUnits(params.graduationThreshold),
        amountUnits(params.initialBuy),
      ],
    }),
  dpnm: ({ ref, name, symbol }, params) =>
    encodeFunctionData({
      abi: dpnmFactoryAbi,
      functionName: 'launch',
      args: [
        ref,
        name,
        symbol,
        amountUnits(params.initialPrice),
        amountUnits(params.dailyLimitFloor),
        multiplierBps(params.incomeLimitMultiplier),
        amountUnits(params.treeActivationCost),
      ],
    }),
};

/** Calldata of the template factory's `launch`, for the creator's wallet to sign and send. */
export function launchCalldata<T extends TokenTemplate>(
  template: T,
  tokenId: string,
  name: string,
  ticker: string,
  params: LaunchParams[T],
): Hex {
  return encoders[template]({ ref: refOf(tokenId), name, symbol: ticker }, params);
}

/** A virtuals curve's progress: locked payment over the threshold, 6 decimals, at most 1. */
export function curveProgress(locked: bigint, threshold: bigint): number {
  if (threshold === 0n) return 0;
  if (locked >= threshold) return 1;
  return Number((locked * 1_000_000n) / threshold) / 1_000_000;
}
