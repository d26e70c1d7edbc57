import type { PaymentsConfig } from '../config';
import type { OutboundClient } from '../net/outbound-client';
import { createCryptoBotProvider, type CryptoBotOptions } from './cryptobot';
import { createPlategaProvider, type PlategaOptions } from './platega';
import type { HttpPaymentProvider, HttpProviderName } from './provider';

/** Overrides of the configured settings (tests pin a clock or a rate). */
export interface HttpProviderOptions {
  cryptobot?: CryptoBotOptions;
  platega?: PlategaOptions;
}

/**
 * The HTTP providers that configuration enables (a provider without credentials is absent, and
 * a checkout for it is `provider_unsupported`). `outbound` is the SSRF-safe client every call
 * goes through: its allow-list must admit the providers' hosts when they are loopback stand-ins.
 */
export function createHttpProviders(
  payments: PaymentsConfig,
  outbound: OutboundClient,
  options: HttpProviderOptions = {},
): Partial<Record<HttpProviderName, HttpPaymentProvider>> {
  const providers: Partial<Record<HttpProviderName, HttpPaymentProvider>> = {};
  if (payments.cryptobot) {
    providers.cryptobot = createCryptoBotProvider(payments.cryptobot, outbound, {
      acceptedAssets:
        payments.cryptobot.acceptedAssets.length > 0
          ? payments.cryptobot.acceptedAssets
          : undefined,
      ...options.cryptobot,
    });
  }
  if (payments.platega) {
    const { paymentMethod, currency, ratePerUsd, returnUrl, failedUrl } = payments.platega;
    providers.platega = createPlategaProvider(payments.platega, outbound, {
      paymentMethod,
      currency,
      ratePerUsd,
      returnUrl,
      failedUrl,
      ...options.platega,
    });
  }
  return providers;
}
