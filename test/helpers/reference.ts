import type { Address } from 'viem';
import type { referenceAddresses } from '../../scripts/chain-deployment';
import type { LaunchTemplate, PaymentTokenRole } from '../../shared/config';

/**
 * The reference deployment (scripts/chain-deployment.ts, docs/chain.md "Deployment") in the
 * config's terms, so that a test compares settings with whatever the plan holds: a contract
 * change that moves an address, or a new factory in the plan, fails the comparison.
 */

type Reference = ReturnType<typeof referenceAddresses>;

/** Each `<template>Factory` of the plan, by template. */
export function referenceFactories(reference: Reference): Partial<Record<LaunchTemplate, Address>> {
  return Object.fromEntries(
    Object.entries(reference)
      .filter(([key]) => key.endsWith('Factory'))
      .map(([key, address]) => [key.slice(0, -'Factory'.length), address]),
  );
}

/** The test payment tokens of the plan, by CHAIN_PAYMENT_TOKENS role. */
export function referencePaymentTokens(reference: Reference): Record<PaymentTokenRole, Address> {
  return { virtualsPayment: reference.virtualPayment, usdt: reference.usdt };
}
