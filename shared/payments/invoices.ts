import { randomInt, randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentsConfig } from '../config';
import type { PaymentPurpose } from '../db/entities/payment';
import type { Tier } from '../db/entities/subscription';
import { erc20TransferUri, USDT_TAG_RANGE, usdtInvoiceUnits } from '../domain/billing';
import {
  ProviderError,
  type HttpPaymentProvider,
  type HttpProviderName,
  type ProviderName,
} from './provider';

/**
 * Issuing invoices (docs/payments.md): the payment row is written first, so whatever the
 * provider answers (or fails to), a callback for it finds its payment; then the provider is
 * asked for the invoice. Used by the API (checkouts, upgrades, top-ups) and by the lifecycle
 * workflow's activities (renewals).
 */

export type HttpProviders = Partial<Record<HttpProviderName, HttpPaymentProvider>>;

export interface InvoiceDeps {
  em: EntityManager;
  payments: PaymentsConfig;
  providers: HttpProviders;
}

export interface InvoiceInput {
  userId: number;
  purpose: PaymentPurpose;
  tier: Tier | null;
  provider: ProviderName;
  amountUsdCents: number;
  /** Top-ups: micro-FLOW to credit on confirmation. */
  amountFlow: bigint | null;
  description: string;
  now: Date;
  expiresAt: Date;
}

export interface IssuedInvoice {
  paymentId: string;
  provider: ProviderName;
  checkoutUrl: string;
  expiresAt: Date;
}

/** Whether this deployment can take payments through `provider`. */
export function providerEnabled(
  deps: Pick<InvoiceDeps, 'payments' | 'providers'>,
  provider: ProviderName,
) {
  return provider === 'usdt_bep20'
    ? deps.payments.usdtBep20 !== null
    : deps.providers[provider] !== undefined;
}

/** Most attempts at an unused `usdt_bep20` tag before giving up (9,999 tags per price). */
const TAG_ATTEMPTS = 8;

async function insertPayment(
  em: EntityManager,
  input: InvoiceInput,
  usdt: { chainId: number; units: bigint; checkoutUrl: string } | null,
): Promise<string> {
  const id = randomUUID();
  await em.execute(
    `insert into payments (id, user_id, purpose, tier, provider, amount_usd_cents, amount_flow,
       status, checkout_url, chain_id, amount_units, expires_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?)`,
    [
      id,
      input.userId,
      input.purpose,
      input.tier,
      input.provider,
      input.amountUsdCents,
      input.amountFlow?.toString() ?? null,
      usdt?.checkoutUrl ?? null,
      usdt?.chainId ?? null,
      usdt?.units.toString() ?? null,
      input.expiresAt,
      input.now,
      input.now,
    ],
  );
  return id;
}

/**
 * A `usdt_bep20` invoice: the price plus a random tag below the cent, unique among the chain's
 * pending invoices (a partial unique index decides races), so the transfer's amount alone says
 * which invoice it pays.
 */
async function issueUsdtInvoice(deps: InvoiceDeps, input: InvoiceInput): Promise<IssuedInvoice> {
  const usdt = deps.payments.usdtBep20;
  if (!usdt) throw new ProviderError('usdt_bep20', 'not configured');
  // Invoices past their validity give their tag back. A transfer made in time but indexed
  // later still confirms an expired invoice (the indexer matches by block time).
  await deps.em.execute(
    `update payments set status = 'expired', updated_at = ?
     where provider = 'usdt_bep20' and chain_id = ? and status = 'pending' and expires_at < ?`,
    [input.now, usdt.chainId, input.now],
  );
  for (let attempt = 1; ; attempt++) {
    const units = usdtInvoiceUnits(input.amountUsdCents, randomInt(1, USDT_TAG_RANGE + 1));
    const checkoutUrl = erc20TransferUri(usdt.token, usdt.chainId, usdt.treasury, units);
    try {
      const paymentId = await insertPayment(deps.em, input, {
        chainId: usdt.chainId,
        units,
        checkoutUrl,
      });
      return { paymentId, provider: 'usdt_bep20', checkoutUrl, expiresAt: input.expiresAt };
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException) || attempt === TAG_ATTEMPTS) {
        throw error;
      }
    }
  }
}

/**
 * Writes the pending payment and asks its provider for the invoice. A provider that refuses or
 * cannot be reached leaves the payment `expired` (nothing payable was handed out) and throws
 * `ProviderError`. A lost answer may still have created the invoice at the provider: its
 * callback carries our payment id, so a payment made there is still recognised.
 */
export async function issueInvoice(deps: InvoiceDeps, input: InvoiceInput): Promise<IssuedInvoice> {
  if (input.provider === 'usdt_bep20') return issueUsdtInvoice(deps, input);
  const provider = deps.providers[input.provider];
  if (!provider) throw new ProviderError(input.provider, 'not configured');
  const paymentId = await insertPayment(deps.em, input, null);
  try {
    const invoice = await provider.createInvoice({
      paymentId,
      amountUsdCents: input.amountUsdCents,
      description: input.description,
      expiresAt: input.expiresAt,
    });
    await deps.em.execute(
      `update payments set provider_invoice_id = ?, checkout_url = ?, expires_at = ?, updated_at = ?
       where id = ?`,
      [invoice.providerInvoiceId, invoice.checkoutUrl, invoice.expiresAt, input.now, paymentId],
    );
    return {
      paymentId,
      provider: input.provider,
      checkoutUrl: invoice.checkoutUrl,
      expiresAt: invoice.expiresAt,
    };
  } catch (error) {
    await deps.em.execute(
      `update payments set status = 'expired', updated_at = ? where id = ? and status = 'pending'`,
      [input.now, paymentId],
    );
    throw error instanceof ProviderError
      ? error
      : new ProviderError(input.provider, 'the invoice could not be created', { cause: error });
  }
}
