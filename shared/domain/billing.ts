import type { Tier } from '../db/entities/subscription';
import { addUtcMonths } from './calendar';
import { TIER_PRICE_USD_CENTS } from './tiers';

/**
 * Subscription and payment arithmetic (docs/payments.md): calendar-month periods, pro-rated
 * upgrades, FLOW per USD, and the exact token amounts of `usdt_bep20` invoices. Pure.
 */

/** Spec "Limits": a failed renewal keeps the features 7 days, retried daily. */
export const GRACE_DAYS = 7;

/**
 * An upgrade's price: the monthly difference for the share of the current period left,
 * rounded up to the cent (at least one cent). The period is the calendar month ending at
 * `renewsAt`.
 */
export function proratedUpgradeCents(from: Tier, to: Tier, renewsAt: Date, now: Date): number {
  const difference = TIER_PRICE_USD_CENTS[to] - TIER_PRICE_USD_CENTS[from];
  const periodMs = renewsAt.getTime() - addUtcMonths(renewsAt, -1).getTime();
  const leftMs = Math.min(Math.max(renewsAt.getTime() - now.getTime(), 0), periodMs);
  return Math.max(1, Math.ceil((difference * leftMs) / periodMs));
}

/** micro-FLOW bought by `cents` at `flowPerUsd` FLOW per USD (rounded down to the micro-FLOW). */
export function flowForUsdCents(cents: number, flowPerUsd: number): bigint {
  // flowPerUsd has at most 6 decimals that matter: scale it to an integer first.
  const perUsdMicro = BigInt(Math.round(flowPerUsd * 1_000_000));
  return (BigInt(cents) * perUsdMicro) / 100n;
}

/** BEP-20 USDT (and the local test USDT) has 18 decimals. */
export const USDT_DECIMALS = 18;
/** Tags are the 4 digits below the cent: at most 0.0099 USDT above the price. */
export const USDT_TAG_RANGE = 9_999;

/** The exact base units of an invoice of `cents` tagged with `tag` (1..USDT_TAG_RANGE). */
export function usdtInvoiceUnits(cents: number, tag: number): bigint {
  return (
    BigInt(cents) * 10n ** BigInt(USDT_DECIMALS - 2) +
    BigInt(tag) * 10n ** BigInt(USDT_DECIMALS - 6)
  );
}

/** Cents as a JSON number of USD (20.5), for wire fields typed as numbers. */
export function usdNumber(cents: number | bigint): number {
  return Number(cents) / 100;
}

/**
 * An EIP-681 payment request for an ERC-20 transfer: `ethereum:<token>@<chainId>/transfer?
 * address=<to>&uint256=<units>`. Wallets that read it prefill the exact amount.
 */
export function erc20TransferUri(
  token: string,
  chainId: number,
  to: string,
  units: bigint,
): string {
  return `ethereum:${token}@${chainId}/transfer?address=${to}&uint256=${units.toString()}`;
}
