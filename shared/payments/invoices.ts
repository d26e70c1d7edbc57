import { randomInt, randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentsConfig } from '../config';
import { sqlOf, statement } from '../db/sql';
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

/** A new pending payment (the `usdt_bep20` columns null for the HTTP providers). */
const insertPendingPayment = statement<
  Record<string, never>,
  [
    id: string,
    userId: number,
    purpose: PaymentPurpose,
    tier: Tier | null,
    provider: ProviderName,
    amountUsdCents: number,
    amountFlow: bigint | null,
    checkoutUrl: string | null,
    chainId: number | null,
    amountUnits: bigint | null,
    expiresAt: Date,
    now: Date,
  ]
>(
  'payments.insert_pending',
  `insert into payments (id, user_id, purpose, tier, provider, amount_usd_cents, amount_flow,
     status, checkout_url, chain_id, amount_units, expires_at, created_at, updated_at)
   values ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9, $10, $11, $12, $12)`,
);

/** Pending `usdt_bep20` invoices of the chain past their validity become `expired`. */
const expireUsdtInvoices = statement<Record<string, never>, [now: Date, chainId: number]>(
  'payments.expire_usdt',
  `update payments set status = 'expired', updated_at = $1
    where provider = 'usdt_bep20' and chain_id = $2 and status = 'pending' and expires_at < $1`,
);

/** The provider's invoice, recorded on its payment. */
const recordProviderInvoice = statement<
  Record<string, never>,
  [providerInvoiceId: string, checkoutUrl: string, expiresAt: Date, now: Date, paymentId: string]
>(
  'payments.record_invoice',
  `update payments set provider_invoice_id = $1, checkout_url = $2, expires_at = $3,
     updated_at = $4
    where id = $5`,
);

/** A payment whose invoice was not created: nothing payable was handed out. */
const expireUninvoiced = statement<Record<string, never>, [now: Date, paymentId: string]>(
  'payments.expire_uninvoiced',
  `update payments set status = 'expired', updated_at = $1 where id = $2 and status = 'pending'`,
);

async function insertPayment(
  em: EntityManager,
  input: InvoiceInput,
  usdt: { chainId: number; units: bigint; checkoutUrl: string } | null,
): Promise<string> {
  const id = randomUUID();
  await sqlOf(em).run(insertPendingPayment, [
    id,
    input.userId,
    input.purpose,
    input.tier,
    input.provider,
    input.amountUsdCents,
    input.amountFlow,
    usdt?.checkoutUrl ?? null,
    usdt?.chainId ?? null,
    usdt?.units ?? null,
    input.expiresAt,
    input.now,
  ]);
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
  await sqlOf(deps.em).run(expireUsdtInvoices, [input.now, usdt.chainId]);
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
    await sqlOf(deps.em).run(recordProviderInvoice, [
      invoice.providerInvoiceId,
      invoice.checkoutUrl,
      invoice.expiresAt,
      input.now,
      paymentId,
    ]);
    return {
      paymentId,
      provider: input.provider,
      checkoutUrl: invoice.checkoutUrl,
      expiresAt: invoice.expiresAt,
    };
  } catch (error) {
    await sqlOf(deps.em).run(expireUninvoiced, [input.now, paymentId]);
    throw error instanceof ProviderError
      ? error
      : new ProviderError(input.provider, 'the invoice could not be created', { cause: error });
  }
}
